// Orders on the chart in the real app (browser host, real main services, sandbox, Chromium), as
// TradingView draws them: a resting order is a labelled line; dragging it amends the order (cancel
// and create in one signed batch, after a confirmation naming the book and the signing account), and
// the exchange's own REST state then has the new order at the new price and the old one gone; the
// position line sits at the average entry; a drag on a book that is not live is refused. The
// ticket: reduce-only capped to the position, and the Buy/Sell button kept in view at a small
// window height with many warnings. Screenshots: test-results/screenshots/chart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import type { BridgeClient } from '../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { rawUsdcPrice, screenshots, until, value, type SandboxControl } from '../support/terminal-page';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;

/** Raw quote units -> "2,977.85" as the terminal shows a price of this market. */
function shownPrice(raw: bigint): string {
  return `${(raw / USDC).toLocaleString('en-US')}.${((raw % USDC) / 10_000n).toString().padStart(2, '0')}`;
}

interface RestOrder {
  readonly order_id: string;
  readonly price: string;
  readonly quantity: string;
  readonly side: string;
}

describe.sequential('orders on the chart in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let control: SandboxControl;
  let page: Page;
  let market: Market;
  let tradeAccountId: string;
  let pageErrors: string[];
  const shot = screenshots(() => page, 'chart');

  /** The account's open orders on the book as the exchange itself reports them (GET /v1/orders). */
  const restOpenOrders = async (): Promise<RestOrder[]> => {
    const reply = await control.get(`/v1/orders?market_id=${market.market_id}&contract=${tradeAccountId}&is_open=true&count=200`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return (reply.body['orders'] as RestOrder[] | undefined) ?? [];
  };
  /** The ticket's bid or ask, once its book is live (it shows "—" while it is not). */
  const quoted = async (testId: 'ticket-price-bid' | 'ticket-price-ask') =>
    rawUsdcPrice(await until(async () => {
      const text = (await page.getByTestId(testId).textContent()) ?? '';
      return /\d\.\d{2}/.test(text) ? text : null;
    }, `a price in ${testId}`));
  const bestBid = () => quoted('ticket-price-bid');
  const orderLine = (orderId: string) => page.locator(`[data-testid=chart-order][data-order-id="${orderId}"]`);

  /** Drag a line's label by `dy` px; returns the price the line showed when it was dropped. */
  const dragLine = async (line: ReturnType<Page['locator']>, dy: number, beforeDrop?: () => Promise<void>): Promise<bigint> => {
    const label = line.locator('[data-testid=chart-line-label]');
    const box = (await label.boundingBox())!;
    await page.mouse.move(box.x + 8, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 8, box.y + box.height / 2 + dy, { steps: 10 });
    const shown = BigInt((await line.getAttribute('data-price')) ?? '0');
    await beforeDrop?.();
    await page.mouse.up();
    return shown;
  };

  beforeAll(async () => {
    terminal = await openTerminal({ control: true, maker: 'pinned', onboard: true, book: true });
    ({ bridge, control, page, pageErrors } = terminal);
    const markets = await terminal.markets();
    market = markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC' && candidate.quote.asset === markets.find((row) => row.quote.symbol === 'USDC')?.quote.asset)!;
    tradeAccountId = value(await bridge.api.getAccountState({})).tradeAccount!.tradeAccountId;
  });

  afterAll(() => terminal?.close());

  it('draws a resting order as a labelled line, and dragging it amends the order on the exchange', async () => {
    // A resting buy 20 USDC under the bid, placed once the faucet's funds are on the account.
    const price = (await bestBid()) - 20n * USDC;
    const placed = await until(async () => {
      const result = await bridge.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price, quantity: ETH / 50n });
      return result.ok ? result.value : null;
    }, 'a resting buy (funds from the faucet)', 45_000);
    const oldId = placed.orders[0]!.orderId;
    const line = orderLine(oldId);
    await line.waitFor({ timeout: 20_000 });
    expect(await line.locator('[data-testid=chart-line-label]').textContent()).toContain(`Buy 0.0200 @ ${shownPrice(price)}`);
    expect(await page.getByTestId('chart').getAttribute('data-orders')).toBe('1');
    // Axes: prices in the market's decimals with thousands separators; the time axis on a 24-hour clock.
    // (uPlot draws them on its canvas; the chart keeps the labels it drew in data-axis-*.)
    const prices = ((await page.getByTestId('chart').getAttribute('data-axis-prices')) ?? '').split(' | ');
    expect(prices.length).toBeGreaterThan(1);
    for (const label of prices) expect(label).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
    const times = ((await page.getByTestId('chart').getAttribute('data-axis-times')) ?? '').split(' | ');
    expect(times.length).toBeGreaterThan(1);
    for (const label of times) expect(label).toMatch(/^(\d{1,2} [A-Z][a-z]{2} )?([01]\d|2[0-3]):[0-5]\d$/);

    // Escape cancels a drag: nothing is asked or sent, the line is back at its price.
    const grab = (await line.locator('[data-testid=chart-line-label]').boundingBox())!;
    await page.mouse.move(grab.x + 8, grab.y + grab.height / 2);
    await page.mouse.down();
    await page.mouse.move(grab.x + 8, grab.y + grab.height / 2 - 30, { steps: 5 });
    await expect.poll(async () => BigInt((await line.getAttribute('data-price')) ?? '0')).not.toBe(price);
    await page.keyboard.press('Escape');
    await page.mouse.up();
    await expect.poll(async () => BigInt((await line.getAttribute('data-price')) ?? '0')).toBe(price);
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
    expect((await restOpenOrders()).map((order) => order.order_id)).toEqual([oldId]);

    // Drag it 40 px up (a higher price, still under the bid): the label follows with the new price
    // and "(from …)", then the confirmation.
    const target = await dragLine(line, -40, async () => {
      await expect.poll(() => line.locator('[data-testid=chart-line-from]').count()).toBe(1);
      const label = (await line.locator('[data-testid=chart-line-label]').textContent()) ?? '';
      expect(label).toContain(`Buy 0.0200 @ ${shownPrice(BigInt((await line.getAttribute('data-price')) ?? '0'))} (from ${shownPrice(price)})`);
      await shot('01-dragging-order-line');
    });
    expect(target).toBeGreaterThan(price);
    expect(target % 10_000n).toBe(0n);
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 10_000 });
    const question = (await dialog.textContent()) ?? '';
    expect(question).toMatch(/Amend order/);
    expect(question).toMatch(/Canonical book/);
    expect(question).toMatch(/signed by Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}/);
    expect(question).toMatch(/one signed batch/);
    // While the question is open, the line waits at its new price.
    expect(BigInt((await line.getAttribute('data-price')) ?? '0')).toBe(target);
    await shot('02-amend-confirmation');
    await page.getByTestId('confirm-accept').click();

    const result = page.getByTestId('chart-amend-result');
    await result.waitFor({ timeout: 30_000 });
    const newId = (await result.getAttribute('data-new-id')) ?? '';
    expect(newId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(newId).not.toBe(oldId);
    expect(await result.textContent()).toContain(`new order ${newId.slice(0, 8)}…${newId.slice(-4)} replaces ${oldId.slice(0, 8)}…${oldId.slice(-4)}`);
    // The exchange: the new order rests at the dropped price for the same quantity, the old one is gone.
    const open = await until(async () => {
      const orders = await restOpenOrders();
      return orders.some((order) => order.order_id === newId) ? orders : null;
    }, 'the amended order on the exchange');
    const amended = open.find((order) => order.order_id === newId)!;
    expect({ price: BigInt(amended.price), quantity: BigInt(amended.quantity), side: amended.side }).toEqual({ price: target, quantity: ETH / 50n, side: 'Buy' });
    expect(open.some((order) => order.order_id === oldId)).toBe(false);
    const old = await control.get(`/v1/order?market_id=${market.market_id}&order_id=${oldId}`);
    expect((old.body['order'] as { cancel?: boolean } | undefined)?.cancel).toBe(true);
    // The chart shows the new order's line at the new price, and only it.
    await orderLine(newId).waitFor({ timeout: 15_000 });
    expect(BigInt((await orderLine(newId).getAttribute('data-price')) ?? '0')).toBe(target);
    expect(await orderLine(oldId).count()).toBe(0);
    await shot('03-amend-on-chart');
  });

  it('draws the position line at the average entry after a fill', async () => {
    // A bounded market buy 30 USDC through the best offer: it fills now, nothing rests.
    const worst = (await quoted('ticket-price-ask')) + 30n * USDC;
    const bought = value(await bridge.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'BoundedMarket', maxPrice: worst, minPrice: 10_000n }, price: worst, quantity: ETH / 50n }));
    expect(bought.orders[0]?.filled ?? 0n).toBeGreaterThan(0n);
    const position = page.getByTestId('chart-position');
    await position.waitFor({ timeout: 20_000 });
    expect(await position.textContent()).toMatch(/^Long 0\.0\d+ @ [\d,]+\.\d{2}/);
    const positions = value(await bridge.api.getPositions({})).positions.find((candidate) => candidate.marketId === market.market_id && !candidate.turbo && candidate.account === tradeAccountId)!;
    expect(BigInt((await position.getAttribute('data-price')) ?? '0')).toBe(positions.averageEntry);
    await shot('04-position-line');
  });

  it('refuses to amend from the chart while the book is not live', async () => {
    const [order] = value(await bridge.api.getOrders({})).open.filter((candidate) => candidate.marketId === market.market_id);
    expect(order).toBeDefined();
    expect((await control.post('/control/ws/stall', { ms: 20_000 })).status).toBe(200);
    await expect.poll(() => page.getByTestId('chart').getAttribute('data-book-live'), { timeout: 20_000 }).toBe('false');
    await dragLine(orderLine(order!.orderId), 40);
    const refusal = page.getByTestId('chart-line-error');
    await refusal.waitFor({ timeout: 5_000 });
    expect(await refusal.getAttribute('data-code')).toBe('BOOK_NOT_LIVE');
    expect(await refusal.textContent()).toMatch(/Not amended: the ETH\/USDC Canonical book is stale/);
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
    await shot('05-refused-book-not-live');
    // Nothing was sent: the order rests where it was.
    expect((await restOpenOrders()).find((candidate) => candidate.order_id === order!.orderId)?.price).toBe(order!.price.toString());
    await expect.poll(() => page.getByTestId('chart').getAttribute('data-book-live'), { timeout: 40_000 }).toBe('true');
  });

  it('reduce-only: capped to the position, refused for order types that can rest', async () => {
    await page.getByTestId('tab-ticket').click();
    await page.getByTestId('ticket-reduce-only-toggle').check();
    await page.getByTestId('ticket-side-sell').click();
    await page.getByTestId('ticket-type').selectOption('Limit');
    const status = page.getByTestId('ticket-reduce-only-status');
    await expect.poll(() => status.getAttribute('data-code'), { timeout: 15_000 }).toBe('REDUCE_ONLY_RESTING');
    await page.getByTestId('ticket-type').selectOption('Market');
    await page.getByTestId('ticket-quantity').fill('5');
    await expect.poll(() => status.getAttribute('data-code'), { timeout: 15_000 }).toBe('REDUCE_ONLY_FLIP');
    const position = value(await bridge.api.getPositions({})).positions.find((candidate) => candidate.marketId === market.market_id && !candidate.turbo && candidate.account === tradeAccountId)!;
    const cap = position.size - (position.size % (ETH / 10_000n));
    expect(BigInt((await status.getAttribute('data-cap')) ?? '-1')).toBe(cap);
    expect(await page.getByTestId('ticket-submit').isDisabled()).toBe(true);
    await page.getByTestId('ticket-reduce-only-use-cap').click();
    await expect.poll(() => status.getAttribute('data-ok')).toBe('true');
    await shot('06-reduce-only');
  });

  it('keeps the Buy/Sell button in view at a small window height, whatever warnings appear', async () => {
    await page.setViewportSize({ width: 1280, height: 520 });
    // Many warnings and notes: a market order's, reduce-only's, the bracket section open.
    await page.getByTestId('ticket-type').selectOption('Market');
    if ((await page.getByTestId('ticket-bracket').getAttribute('open')) === null) await page.locator('[data-testid=ticket-bracket] > summary').click();
    await page.getByTestId('ticket-quantity').fill('5');
    const submit = page.getByTestId('ticket-submit');
    const inView = async () => {
      const box = await submit.boundingBox();
      if (box === null) return 'no box';
      const size = page.viewportSize()!;
      if (box.y < 0 || box.y + box.height > size.height) return `outside the window (${box.y}..${box.y + box.height} of ${size.height})`;
      // Not covered: the element at its centre is the button (or inside it).
      const top = await page.evaluate(([x, y]) => {
        const doc = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): { closest(selector: string): unknown } | null } }).document;
        return doc.elementFromPoint(x!, y!)?.closest('[data-testid=ticket-submit]') !== null;
      }, [box.x + box.width / 2, box.y + box.height / 2]);
      return top ? 'visible' : 'covered';
    };
    await expect.poll(inView).toBe('visible');
    const warnings = await page.locator('[data-testid=ticket-form] .ticket-warning, [data-testid=ticket-reduce-only-status]').count();
    expect(warnings).toBeGreaterThanOrEqual(2);
    await shot('07-ticket-small-window');
    // Scrolled to the top and to the bottom of the ticket: still in view.
    for (const to of [0, 100_000]) {
      await page.locator('[data-testid=ticket-form]').evaluate((form, top) => (form as unknown as { parentElement: { scrollTop: number } }).parentElement.scrollTop = top, to);
      await expect.poll(inView).toBe('visible');
    }
    await page.setViewportSize({ width: 1600, height: 1000 });
    expect(pageErrors).toEqual([]);
  });
});
