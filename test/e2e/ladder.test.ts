// The depth ladder in the real app (browser host, real sandbox with its market maker,
// Chromium): grouping at the market's tick with both sides of the book on screen, a size on the
// ladder itself so the first click trades without typing one, amend by dragging an own order to
// another row (cancel and create in one signed batch, confirmed naming book and signer, the new
// order id shown, checked against the sandbox's REST state), a drag refused while the book is not
// live, cumulative depth, own fills, average entry and P&L on the rows.
// Screenshots: test-results/screenshots/ladder/{default-grouping,amend-confirm,amend,...}.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { parseUnits } from '../../shared/encoding/units';
import type { Market } from '../../shared/market/market';
import { priceTick } from '../../shared/market/tick';
import type { BridgeClient } from '../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, screenshots, value, type SandboxControl } from '../support/terminal-page';

/** The page's document as functions sent to the page see it (test files compile without the DOM library). */
interface PageElement {
  getBoundingClientRect(): { readonly top: number; readonly bottom: number };
  readonly classList: { contains(name: string): boolean };
}
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
};

interface WireOrder {
  readonly order_id: string;
  readonly price: string;
  readonly quantity: string;
}

describe.sequential('the depth ladder in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let control: SandboxControl;
  let page: Page;
  let market: Market;
  let tradeAccount: string;
  let pageErrors: string[];
  const shot = screenshots(() => page, 'ladder');

  const ladder = () => page.getByTestId('ladder').first();
  const rows = () => page.locator('[data-testid=ladder-row]');
  const row = (price: string) => page.locator(`[data-testid=ladder-row][data-price="${price}"]`);
  const rowPrices = () => rows().evaluateAll((elements) => elements.map((element) => element.getAttribute('data-price') ?? ''));
  /** The account's open orders on the canonical book as the sandbox's REST API lists them. */
  const openOnExchange = async (): Promise<WireOrder[]> => {
    const answer = await control.get(`/v1/orders?market_id=${market.market_id}&contract=${tradeAccount}&direction=desc&count=50&is_open=true`);
    expect(answer.status).toBe(200);
    return answer.body['orders'] as WireOrder[];
  };
  /** Press on `from`, move over the rows to `to` in steps (each row sees the pointer enter), release. */
  const drag = async (from: Locator, to: Locator) => {
    const start = (await from.boundingBox())!;
    const end = (await to.boundingBox())!;
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 8 });
    await page.mouse.up();
  };

  beforeAll(async () => {
    terminal = await openTerminal({ control: true, maker: 'pinned', onboard: true, book: true });
    ({ bridge, control, page, pageErrors } = terminal);
    const marketId = (await ladder().getAttribute('data-market-id'))!;
    market = value(await bridge.api.listMarkets({})).markets.find((candidate) => candidate.market_id === marketId)!;
    tradeAccount = value(await bridge.api.getAccountState({})).tradeAccount!.tradeAccountId;
  }, 180_000);

  afterAll(() => terminal?.close());

  it("opens grouped at the market's tick with the best bid and the best ask on screen, and a size ready on the ladder", async () => {
    expect(await ladder().getAttribute('data-precision')).toBe(priceTick(market).toString());
    expect(await page.getByTestId('ladder-precision').inputValue()).toBe(priceTick(market).toString());
    // Both sides of the inside market are rows shown, inside the panel, with book on both sides.
    const bestBid = page.locator('[data-testid=ladder-row].best-bid');
    const bestAsk = page.locator('[data-testid=ladder-row].best-ask');
    await bestAsk.waitFor({ timeout: 30_000 });
    // Both rows inside the ladder's body, read in one pass (the maker moves the inside meanwhile).
    const placement = () =>
      page.evaluate(() => {
        const body = document.querySelector('.ladder-body')!.getBoundingClientRect();
        const inside = (selector: string) => {
          const element = document.querySelector(selector);
          if (!element) return false;
          const box = element.getBoundingClientRect();
          return box.top >= body.top && box.bottom <= body.bottom + 1;
        };
        return inside('[data-testid=ladder-row].best-bid') && inside('[data-testid=ladder-row].best-ask');
      });
    await expect.poll(placement, { timeout: 10_000 }).toBe(true);
    const indexes = () =>
      page.evaluate(() => {
        const all = [...document.querySelectorAll('[data-testid=ladder-row]')];
        return { count: all.length, bid: all.findIndex((element) => element.classList.contains('best-bid')), ask: all.findIndex((element) => element.classList.contains('best-ask')) };
      });
    // Clear of the edges by the recenter margin (4 rows).
    await expect.poll(async () => {
      const { count, bid, ask } = await indexes();
      return ask >= 4 && bid >= 0 && bid <= count - 5;
    }, { timeout: 10_000 }).toBe(true);
    // Sizes on both sides (not a view of the empty spread): the sandbox's maker quotes 5 levels
    // 0.05 % apart, so at the tick the rows around the inside hold its best level on each side.
    const sized = async (testId: string) => rows().getByTestId(testId).evaluateAll((cells) => cells.filter((cell) => (cell.textContent ?? '').trim() !== '').length);
    await expect.poll(async () => Math.min(await sized('bid-cell'), await sized('ask-cell')), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => (await bestBid.getByTestId('bid-cell').textContent())?.trim(), { timeout: 10_000 }).toMatch(/^\d[\d,]*\.\d{4}$/);
    await expect.poll(async () => (await bestAsk.getByTestId('ask-cell').textContent())?.trim(), { timeout: 10_000 }).toMatch(/^\d[\d,]*\.\d{4}$/);
    // A spread wider than the rows can show is split: the rows left out are counted under the gap and in the foot.
    if ((await ladder().getAttribute('data-layout')) === 'split') await expect.poll(async () => (await page.getByTestId('ladder-rows-left-out').textContent()) ?? '', { timeout: 10_000 }).toMatch(/^[\d,]+ empty rows left out$/);
    // Prices are written with the quote's decimals (tick 0.01 → two decimals), thousands separated.
    const shown = await rows().getByTestId('price-cell').allTextContents();
    const decimals = market.quote.max_precision;
    for (const text of shown) expect(text.trim()).toMatch(new RegExp(`^\\d{1,3}(,\\d{3})*\\.\\d{${decimals}}$`));
    // A size is there before anything was typed: the first default preset.
    await expect.poll(() => page.getByTestId('ladder-size').inputValue(), { timeout: 10_000 }).toMatch(/^\d+(\.\d+)?$/);
    expect(await page.getByTestId('ladder-size-preset').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('ladder-size').inputValue()).toBe((await page.getByTestId('ladder-size-preset').first().textContent())!.replaceAll(',', ''));
    await shot('default-grouping');
    expect(pageErrors).toEqual([]);
  });

  it("the ladder's Size is its own: a refused ticket quantity leaves it, Shift+B proposes it, and a fresh terminal's first click with it is accepted by the exchange", async () => {
    await expect.poll(async () => (await page.getByTestId('ticket-available').first().textContent()) ?? '', { timeout: 30_000 }).toMatch(/[1-9]/);
    const size = await page.getByTestId('ladder-size').inputValue();
    const raw = value(parseUnits(size, market.base.decimals, 'size'));
    // A quantity typed in the ticket and refused there (no price, and more than the funds): the
    // ladder's Size does not follow it.
    await page.getByTestId('ticket-quantity').fill('33.4');
    expect(await page.getByTestId('ticket-submit').isDisabled()).toBe(true);
    await page.waitForTimeout(500);
    expect(await page.getByTestId('ladder-size').inputValue()).toBe(size);
    // The default is the smallest size the book accepts: never below the dust threshold.
    expect(raw).toBeGreaterThanOrEqual(market.dust);
    // An empty ticket Quantity is empty: the ticket asks for one, naming the field.
    await page.getByTestId('ticket-quantity').fill('');
    await expect.poll(async () => (await page.getByTestId('ticket-problem').textContent()) ?? '', { timeout: 5000 }).toBe('Enter a quantity: the Quantity field is empty.');
    expect(await page.getByTestId('ladder-size').inputValue()).toBe(size);
    await page.getByTestId('ticket-quantity').fill('0.003');
    await page.getByTestId('ladder-arm').click();
    await expect.poll(() => ladder().getAttribute('data-clickable'), { timeout: 20_000 }).toBe('true');
    expect(await page.getByTestId('ladder-armed-size').textContent()).toBe(size);
    await shot('ladder-size-own');
    // Shift+B proposes the ladder's size, not the ticket's 0.003.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Shift+B');
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 10_000 });
    const question = (await dialog.textContent()) ?? '';
    expect(question).toContain(`Buy ${size} ${market.base.symbol}`);
    expect(question).not.toContain('0.003');
    await shot('hotkey-confirm-ladder-size');
    await page.getByTestId('confirm-cancel').click();
    // The first click with the default size: the exchange holds an order of exactly that size.
    await page.getByTestId('ladder-precision').selectOption((priceTick(market) * 1000n).toString());
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 20_000 });
    const best = (await page.locator('[data-testid=ladder-row].best-bid').getAttribute('data-price'))!;
    const prices = await rowPrices();
    const target = prices[Math.min(prices.indexOf(best) + 16, prices.length - 2)]!;
    await row(target).getByTestId('bid-cell').click();
    await confirmIfAsked(page);
    await expect.poll(async () => (await openOnExchange()).some((order) => order.price === target), { timeout: 20_000 }).toBe(true);
    const placed = (await openOnExchange()).find((order) => order.price === target)!;
    expect(BigInt(placed.quantity)).toBe(raw);
    await shot('first-click-default-size');
    // The header states the dust threshold (the sandbox's ETH/USDC: 0.001 ETH, shown to the base's
    // 4 decimals) beside the tick, the size step and the minimum order.
    expect(await page.getByTestId('book-dust').textContent()).toBe(`0.0010 ${market.base.symbol}`);
    expect(await page.getByTestId('book-facts').textContent()).toMatch(/tick 0\.01 · size step 0\.0001 · min order 1 USDC · dust 0\.0010 ETH/);
    // Bounded market: both bounds prefilled from the live inside, each explained for the side, with bid/ask links.
    await page.getByTestId('ticket-quantity').fill(size);
    await page.getByTestId('ticket-type').selectOption('BoundedMarket');
    await expect.poll(() => page.getByTestId('ticket-max-price').inputValue(), { timeout: 10_000 }).toMatch(/^\d+\.\d+$/);
    expect(Number(await page.getByTestId('ticket-min-price').inputValue())).toBeLessThan(Number(await page.getByTestId('ticket-max-price').inputValue()));
    expect(await page.getByTestId('ticket-max-price-help').textContent()).toMatch(/^The most this buy pays/);
    expect(await page.getByTestId('ticket-min-price-help').textContent()).toMatch(/^The exchange requires a floor/);
    await page.getByTestId('ticket-min-price').fill('');
    await expect.poll(async () => (await page.getByTestId('ticket-problem').textContent()) ?? '').toMatch(/^Min price is empty: the exchange requires a floor/);
    await page.getByTestId('ticket-min-price-bid').click();
    await expect.poll(() => page.getByTestId('ticket-submit').isEnabled(), { timeout: 10_000 }).toBe(true);
    await shot('bounded-market-ticket');
    await page.getByTestId('ticket-type').selectOption('Limit');
    // Left as the next steps expect: nothing of this step rests, the ladder disarmed, no ticket quantity.
    value(await bridge.api.cancelOrder({ marketId: market.market_id, orderId: placed.order_id }));
    await expect.poll(async () => (await openOnExchange()).length, { timeout: 20_000 }).toBe(0);
    await page.getByTestId('ladder-arm').click();
    await page.getByTestId('ticket-quantity').fill('');
    expect(pageErrors).toEqual([]);
  });

  it('a preset picked on the ladder is the size a click trades, with no quantity typed in the ticket', async () => {
    await expect.poll(async () => (await page.getByTestId('ticket-available').first().textContent()) ?? '', { timeout: 30_000 }).toMatch(/[1-9]/);
    const presets = page.getByTestId('ladder-size-preset');
    const size = (await presets.nth(2).textContent())!.replaceAll(',', '');
    await presets.nth(2).click();
    expect(await page.getByTestId('ladder-size').inputValue()).toBe(size);
    await page.getByTestId('ladder-arm').click();
    await expect.poll(() => ladder().getAttribute('data-clickable'), { timeout: 20_000 }).toBe('true');
    // Rows of 10 USDC: an order a dozen rows under the bid (about 4 %) rests out of the maker's
    // reach (its mid walks at most 0.1 % a step) for the rest of the suite.
    await page.getByTestId('ladder-precision').selectOption((priceTick(market) * 1000n).toString());
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 20_000 });
    const best = (await page.locator('[data-testid=ladder-row].best-bid').getAttribute('data-price'))!;
    const prices = await rowPrices();
    const target = prices[Math.min(prices.indexOf(best) + 12, prices.length - 4)]!;
    const before = (await openOnExchange()).length;
    await row(target).getByTestId('bid-cell').click();
    await confirmIfAsked(page);
    await row(target).getByTestId('own-order').waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await openOnExchange()).length, { timeout: 20_000 }).toBe(before + 1);
    const placed = (await openOnExchange()).find((order) => order.price === target)!;
    expect(BigInt(placed.quantity)).toBe(value(parseUnits(size, market.base.decimals, 'size')));
    expect(await page.getByText(/Quantity is empty/).count()).toBe(0);
  });

  it('amends an own order by dragging it to another row: one signed batch, confirmed naming book and signer, the new id shown, and the sandbox holds the new order and not the old', async () => {
    const own = page.locator('[data-testid=ladder-row] [data-testid=own-order]').first();
    const fromRow = rows().filter({ has: page.getByTestId('own-order') }).first();
    const from = (await fromRow.getAttribute('data-price'))!;
    const oldId = (await own.getAttribute('data-order-ids'))!;
    expect(oldId).toMatch(/^0x[0-9a-f]{64}$/);
    const prices = await rowPrices();
    const to = prices[prices.indexOf(from) + 2]!;
    expect(BigInt(to)).toBeLessThan(BigInt(from));
    await drag(own, row(to).getByTestId('bid-cell'));

    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 10_000 });
    const question = (await dialog.textContent()) ?? '';
    expect(question).toMatch(/Amend order/);
    expect(question).toMatch(/Canonical book · signed by Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}/);
    expect(question).toMatch(/one signed batch/);
    await shot('amend-confirm');
    await page.getByTestId('confirm-accept').click();

    // The ladder shows the order on its new row and names the new order.
    await row(to).getByTestId('own-order').waitFor({ timeout: 20_000 });
    await expect.poll(() => row(from).getByTestId('own-order').count(), { timeout: 20_000 }).toBe(0);
    const amended = page.getByTestId('ladder-last-amend');
    await amended.waitFor({ timeout: 10_000 });
    const newId = (await amended.getAttribute('data-new-order-id'))!;
    expect(newId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(newId).not.toBe(oldId);
    expect(await amended.textContent()).toContain(`${newId.slice(0, 8)}…${newId.slice(-4)}`);
    expect(await row(to).getByTestId('own-order').getAttribute('data-order-ids')).toBe(newId);
    await page.getByText(new RegExp(`Amended: Buy .* new order ${newId.slice(0, 8)}…${newId.slice(-4)} replaces ${oldId.slice(0, 8)}…${oldId.slice(-4)}`)).first().waitFor({ timeout: 10_000 });
    await shot('amend');

    // The exchange's own state: the new order rests at the new price, the old one is gone.
    await expect.poll(async () => (await openOnExchange()).map((order) => order.order_id), { timeout: 20_000 }).toContain(newId);
    const open = await openOnExchange();
    expect(open.map((order) => order.order_id)).not.toContain(oldId);
    expect(open.find((order) => order.order_id === newId)?.price).toBe(to);
    expect(pageErrors).toEqual([]);
  });

  it('refuses a drag while the book is not live, and the order stays where it was on the exchange', async () => {
    const own = page.locator('[data-testid=ladder-row] [data-testid=own-order]').first();
    const id = (await own.getAttribute('data-order-ids'))!;
    const from = (await rows().filter({ has: page.getByTestId('own-order') }).first().getAttribute('data-price'))!;
    const prices = await rowPrices();
    const to = prices[prices.indexOf(from) + 1]!;
    // The stream freezes without closing: the book goes stale in place (rows stay, marked).
    expect((await control.post('/control/ws/stall', { ms: 20_000 })).status).toBe(200);
    await expect.poll(() => ladder().getAttribute('data-freshness'), { timeout: 30_000 }).not.toBe('live');
    expect(await ladder().getAttribute('data-clickable')).toBe('false');
    if ((await row(from).count()) > 0 && (await row(to).count()) > 0) {
      await drag(row(from).getByTestId('own-order'), row(to).getByTestId('bid-cell'));
      await expect.poll(async () => (await page.getByTestId('ladder-hint').textContent()) ?? '', { timeout: 5000 }).toMatch(/not moved until it is live/);
    }
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
    const open = await openOnExchange();
    expect(open.find((order) => order.order_id === id)?.price).toBe(from);
    await shot('drag-refused-stale');
    await expect.poll(() => ladder().getAttribute('data-freshness'), { timeout: 60_000 }).toBe('live');
  }, 120_000);

  it('cumulative depth sums the book outwards from the inside', async () => {
    await page.getByTestId('ladder-cumulative').click();
    await expect.poll(() => ladder().getAttribute('data-cumulative')).toBe('true');
    const sizes = async (testId: string) => (await rows().getByTestId(testId).allTextContents()).map((text) => Number(text.replaceAll(',', '').trim() || '0'));
    await expect.poll(async () => (await sizes('bid-cell')).filter((size) => size > 0).length, { timeout: 10_000 }).toBeGreaterThan(3);
    // Down the bid side the running total never falls; up the ask side neither.
    const bids = (await sizes('bid-cell')).filter((size) => size > 0);
    for (let index = 1; index < bids.length; index++) expect(bids[index]).toBeGreaterThanOrEqual(bids[index - 1]!);
    const asks = (await sizes('ask-cell')).filter((size) => size > 0);
    for (let index = 1; index < asks.length; index++) expect(asks[index]).toBeLessThanOrEqual(asks[index - 1]!);
    await shot('cumulative');
    await page.getByTestId('ladder-cumulative').click();
  });

  it('scrolled away by hand, the ladder holds and pins the best bid and ask to its edge; Center brings them back', async () => {
    const body = (await page.locator('.ladder-body').first().boundingBox())!;
    await page.mouse.move(body.x + body.width / 2, body.y + body.height / 2);
    const rowCount = await rows().count();
    // Up, two rows a notch, until the inside market is below the rows shown.
    for (let notch = 0; notch < rowCount; notch++) await page.mouse.wheel(0, -100);
    await page.getByTestId('ladder-held').waitFor({ timeout: 5000 });
    await page.getByTestId('ladder-pinned-bottom').waitFor({ timeout: 5000 });
    const pinnedBid = page.getByTestId('ladder-pinned-bid');
    expect(await pinnedBid.textContent()).toMatch(/Best bid \d{1,3}(,\d{3})*\.\d{2} \d+\.\d{4}/);
    expect(await page.locator('[data-testid=ladder-row].best-bid').count()).toBe(0);
    await shot('pinned-best');
    await page.getByTestId('ladder-recenter').click();
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 5000 });
    expect(await page.getByTestId('ladder-pinned-bottom').count()).toBe(0);
    expect(await page.getByTestId('ladder-held').count()).toBe(0);
  });

  it('never recenters under the pointer: the inside moves off the rows, the ladder holds still until the pointer leaves', async () => {
    await page.getByTestId('ladder-recenter').click();
    await page.locator('[data-testid=ladder-row].best-ask').waitFor({ timeout: 10_000 });
    const body = (await page.locator('.ladder-body').first().boundingBox())!;
    await page.mouse.move(body.x + body.width / 2, body.y + body.height / 2);
    await expect.poll(() => ladder().getAttribute('data-pointer-over')).toBe('true');
    expect(await page.getByTestId('ladder-held').count()).toBe(0);
    const firstRow = (await rows().first().getAttribute('data-price'))!;
    // The house trades the market up by more than the rows above the inside (rows of 10 USDC).
    const ask = BigInt((await page.locator('[data-testid=ladder-row].best-ask').getAttribute('data-price'))!);
    const target = ask + BigInt(await rows().count()) * priceTick(market) * 1000n;
    expect((await control.post('/control/markets/price', { market_id: market.market_id, price: target.toString() })).status).toBe(200);
    // The best ask leaves the rows shown: pinned at the top, the rows stay where the trader aimed.
    await page.getByTestId('ladder-pinned-top').waitFor({ timeout: 20_000 });
    expect(await rows().first().getAttribute('data-price')).toBe(firstRow);
    await shot('pointer-holds');
    // The pointer leaves: the next frame recenters on the inside.
    await page.mouse.move(5, 5);
    await expect.poll(() => ladder().getAttribute('data-pointer-over')).toBe('false');
    await page.locator('[data-testid=ladder-row].best-ask').waitFor({ timeout: 20_000 });
    expect(await rows().first().getAttribute('data-price')).not.toBe(firstRow);
    expect(await page.getByTestId('ladder-pinned-top').count()).toBe(0);
  });

  it('after a fill: the row of the own trade is highlighted, the entry row marked, and a P&L column priced per row', async () => {
    await page.getByTestId('ticket-type').selectOption('Spot');
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-quantity').fill(await page.getByTestId('ladder-size').inputValue());
    await page.getByTestId('ticket-price-ask').click();
    await page.getByTestId('ticket-submit').click();
    // Orders are confirmed by default: while the dialog waits, the ticket says so (it said
    // "Sending…", which a trader reads as already on its way).
    await page.getByTestId('confirm-dialog').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('ticket-submit').textContent()).toBe('Confirm in the dialog…');
    await page.getByTestId('confirm-accept').click();
    await page.locator('[data-testid=ladder-row][data-own-fill=true]').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('ladder-position').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('ladder-position').textContent()).toMatch(/Pos \+\d+(\.\d+)? @ \d{1,3}(,\d{3})*\.\d{2} · uP&L [+-]?\d+\.\d{2}/);
    // One positions source per window: the ladder's foot and the Positions panel show the same
    // unrealized P&L at every moment (not each polling on its own cadence and valuing the position
    // at the mark of its own read). Sampled in one evaluation each, across several cadences.
    await page.getByTestId('tab-positions').click();
    await page.getByTestId('position-unrealized').first().waitFor({ timeout: 20_000 });
    for (let sample = 0; sample < 12; sample++) {
      const [foot, panel] = await page.evaluate(() => {
        type Node = { readonly textContent: string | null };
        const doc = (globalThis as unknown as { document: { querySelector(selector: string): Node | null; querySelectorAll(selector: string): ArrayLike<Node> } }).document;
        const text = (element: Node | null) => (element?.textContent ?? '').replace(/[\u2007\u2008\s]/g, '');
        return [text(doc.querySelector('[data-testid=ladder-unrealized]')), Array.from(doc.querySelectorAll('[data-testid=position-unrealized]'), text)] as const;
      });
      expect(panel, `sample ${sample}: the ladder shows uP&L ${foot}`).toContain(foot);
      await page.waitForTimeout(500);
    }
    const cells = await rows().getByTestId('pnl-cell').allTextContents();
    expect(cells.length).toBeGreaterThan(10);
    // Every P&L figure has the quote's two decimals; higher rows are worth more to a long.
    const figures = cells.map((text) => text.trim()).filter((text) => /^[+-]?[\d,]+\.\d{2}$/.test(text));
    expect(figures.length).toBeGreaterThan(5);
    const numbers = figures.map((text) => Number(text.replaceAll(',', '')));
    for (let index = 1; index < numbers.length; index++) expect(numbers[index]).toBeLessThanOrEqual(numbers[index - 1]!);
    // The entry row is on screen near the fill's price, marked.
    await page.getByTestId('ladder-recenter').click();
    if ((await page.getByTestId('entry-marker').count()) > 0) expect(await page.getByTestId('entry-marker').first().textContent()).toMatch(/entry/);
    await shot('position');
    expect(pageErrors).toEqual([]);
  });
});
