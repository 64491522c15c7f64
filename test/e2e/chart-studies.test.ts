// The chart's studies and click-to-place in the real app (browser host, real main services, sandbox,
// Chromium). Bars are made by moving the sandbox's market minute by minute on its clock; the chart
// then shows a volume pane, the session VWAP and the two moving averages set in its Studies menu,
// and the legend's figures are those of the venue's own bars (GET /v1/bars) worked out exactly.
// Click-to-place: armed, the hover line says the order; a click places one Limit at that price of
// the Size shown, confirmed, read back on the exchange; unarmed or without a size it is refused and
// nothing reaches the exchange. Screenshots: test-results/screenshots/chart-studies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import type { BarView } from '../../shared/ipc/views';
import type { BridgeClient } from '../support/bridge-client';
import { studyValues } from '../../renderer/src/features/chart/studies';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { rawUsdcPrice, screenshots, until, value, type SandboxControl } from '../support/terminal-page';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;

interface RestOrder {
  readonly order_id: string;
  readonly price: string;
  readonly quantity: string;
  readonly side: string;
  readonly order_type: unknown;
}

describe.sequential('chart studies and click-to-place in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let control: SandboxControl;
  let page: Page;
  let market: Market;
  let tradeAccountId: string;
  let pageErrors: string[];
  const shot = screenshots(() => page, 'chart-studies');

  const restOpenOrders = async (): Promise<RestOrder[]> => {
    const reply = await control.get(`/v1/orders?market_id=${market.market_id}&contract=${tradeAccountId}&is_open=true&count=200`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return (reply.body['orders'] as RestOrder[] | undefined) ?? [];
  };
  const restBars = async (): Promise<BarView[]> => {
    const reply = await control.get(`/v1/bars?market_id=${market.market_id}&resolution=1m&count_back=600`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const bars = reply.body['bars'] as { timestamp: number | string; open: string; high: string; low: string; close: string; volume: string }[];
    return bars.map((bar) => ({ time: Number(bar.timestamp), open: BigInt(bar.open), high: BigInt(bar.high), low: BigInt(bar.low), close: BigInt(bar.close), volume: BigInt(bar.volume) }));
  };
  const quoted = async (testId: 'ticket-price-bid' | 'ticket-price-ask') =>
    rawUsdcPrice(await until(async () => {
      const text = (await page.getByTestId(testId).textContent()) ?? '';
      return /\d\.\d{2}/.test(text) ? text : null;
    }, `a price in ${testId}`));
  const chart = () => page.getByTestId('chart').first();
  const hover = () => chart().getByTestId('chart-place-hover');
  /** Move the pointer over the plot to the height of `target` (the hover line names the price under it). */
  const pointAt = async (target: bigint): Promise<{ x: number; y: number }> => {
    const area = (await chart().locator('.u-over').first().boundingBox())!;
    const x = area.x + area.width * 0.55;
    let top = area.y + 1;
    let bottom = area.y + area.height - 1;
    const priceAt = async (y: number) => {
      await page.mouse.move(x, y);
      await hover().waitFor({ timeout: 5_000 });
      return BigInt((await hover().getAttribute('data-price')) || '0');
    };
    for (let round = 0; round < 14 && bottom - top > 0.5; round++) {
      const middle = (top + bottom) / 2;
      if ((await priceAt(middle)) > target) top = middle;
      else bottom = middle;
    }
    await priceAt(bottom);
    return { x, y: bottom };
  };

  beforeAll(async () => {
    terminal = await openTerminal({ control: true, maker: 'pinned', onboard: true, book: true });
    ({ bridge, control, page, pageErrors } = terminal);
    const markets = await terminal.markets();
    market = markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC' && candidate.quote.asset === markets.find((row) => row.quote.symbol === 'USDC')?.quote.asset)!;
    tradeAccountId = value(await bridge.api.getAccountState({})).tradeAccount!.tradeAccountId;
  });

  afterAll(() => terminal?.close());

  it('draws a volume pane, the session VWAP and two moving averages from the venue’s bars, with exact figures in the legend', async () => {
    const start = await quoted('ticket-price-bid');
    // Thirty one-minute bars on the sandbox's clock: a rise, a dip and a recovery, each minute's
    // trades printed by the house through the book.
    const path = [0, 2, 5, 4, 8, 11, 9, 13, 16, 14, 12, 9, 7, 10, 6, 3, 5, 1, -2, 0, 3, 6, 4, 8, 12, 15, 13, 17, 20, 18];
    for (const step of path) {
      const price = start + BigInt(step) * 2n * USDC;
      expect((await control.post('/control/markets/price', { market_id: market.market_id, price: price.toString() })).status).toBe(200);
      expect((await control.post('/control/clock/advance', { ms: 60_000 })).status).toBe(200);
    }
    // Two averages short enough for thirty bars, set in the chart's Studies menu (kept by main).
    await page.getByTestId('chart-studies-toggle').first().click();
    await page.getByTestId('chart-average-kind-1').selectOption('SMA');
    await page.getByTestId('chart-average-length-1').fill('5');
    await page.getByTestId('chart-average-kind-2').selectOption('EMA');
    await page.getByTestId('chart-average-length-2').fill('1');
    await page.getByTestId('chart-studies-save').click();
    expect(await page.getByTestId('chart-studies-problem').textContent()).toContain('length must be 2 to 500 bars, got 1');
    await page.getByTestId('chart-average-length-2').fill('12');
    await page.getByTestId('chart-studies-save').click();
    await page.getByTestId('chart-studies-form').waitFor({ state: 'detached', timeout: 10_000 });
    expect(value(await bridge.api.getSettings({})).chartStudies).toEqual({ averages: [{ kind: 'SMA', length: 5 }, { kind: 'EMA', length: 12 }] });

    // The legend (pointer off the chart: the last bar) against the venue's bars worked out here.
    await page.mouse.move(2, 2);
    const first = page.getByTestId('chart-study-average-1');
    await expect.poll(() => first.getAttribute('data-label'), { timeout: 15_000 }).toBe('SMA 5');
    expect(await page.getByTestId('chart-study-average-2').getAttribute('data-label')).toBe('EMA 12');
    const vwap = page.getByTestId('chart-study-vwap');
    expect(await vwap.getAttribute('data-session')).toBe('UTC day');
    expect(await vwap.textContent()).toMatch(/^VWAP \(UTC day\) [\d,]+\.\d{2}$/);
    const legendAndVenue = async (): Promise<{ shown: string[]; expected: string[] }> => {
      const expected = studyValues(market, await restBars(), '1m', [
        { kind: 'SMA', length: 5 },
        { kind: 'EMA', length: 12 },
      ]);
      const last = (values: readonly (bigint | null)[]) => values.at(-1)?.toString() ?? '';
      const shown = [await first.getAttribute('data-raw'), await page.getByTestId('chart-study-average-2').getAttribute('data-raw'), await vwap.getAttribute('data-raw')];
      return { shown: shown.map((raw) => raw ?? ''), expected: [last(expected.averages[0]), last(expected.averages[1]), last(expected.vwap)] };
    };
    const compared = await until(async () => {
      const both = await legendAndVenue();
      return both.expected.every((raw) => raw !== '') && JSON.stringify(both.shown) === JSON.stringify(both.expected) ? both : null;
    }, 'the legend to show the studies of the venue’s bars', 20_000).catch(async () => legendAndVenue());
    expect(compared.shown).toEqual(compared.expected);
    for (const testId of ['chart-study-average-1', 'chart-study-average-2']) expect(await page.getByTestId(testId).textContent()).toMatch(/^(SMA|EMA) \d+ [\d,]+\.\d{2}$/);
    // The volume pane is drawn under the price pane, as wide.
    const volume = (await page.getByTestId('chart-volume').locator('canvas').first().boundingBox())!;
    const price = (await chart().locator('canvas').first().boundingBox())!;
    expect(volume.y).toBeGreaterThanOrEqual(price.y + price.height - 1);
    expect(Math.abs(volume.width - price.width)).toBeLessThan(2);
    await shot('01-studies');
  });

  it('places a Limit by click where armed, showing the order before the click, and reads it back on the exchange', async () => {
    const bid = await quoted('ticket-price-bid');
    await page.getByTestId('chart-size').first().fill('0.01');
    if ((await chart().getAttribute('data-armed')) !== 'true') await page.getByTestId('chart-arm').first().click();
    expect(await chart().getAttribute('data-armed')).toBe('true');
    // Under the bid: a Buy, the hover line says which, how much and where.
    const at = await pointAt(bid - 6n * USDC);
    expect(await hover().getAttribute('data-side')).toBe('Buy');
    const target = BigInt((await hover().getAttribute('data-price')) ?? '0');
    expect(target % 10_000n).toBe(0n);
    expect(target).toBeLessThan(bid);
    const shown = (await hover().textContent()) ?? '';
    expect(shown).toBe(`Buy 0.0100 @ ${(target / USDC).toLocaleString('en-US')}.${((target % USDC) / 10_000n).toString().padStart(2, '0')}`);
    await shot('02-click-to-place-hover');
    await page.mouse.down();
    await page.mouse.up();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 10_000 });
    expect(await dialog.textContent()).toMatch(/the chart \(click-to-place/);
    await shot('03-click-to-place-confirmation');
    await page.getByTestId('confirm-accept').click();
    const result = page.getByTestId('chart-place-result');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toContain(`Placed: ${shown}`);
    const orderId = (await result.getAttribute('data-new-id')) ?? '';
    const placed = await until(async () => (await restOpenOrders()).find((order) => order.order_id === orderId), 'the clicked order on the exchange');
    expect({ side: placed.side, price: BigInt(placed.price), quantity: BigInt(placed.quantity), kind: typeof placed.order_type === 'object' && placed.order_type !== null ? Object.keys(placed.order_type)[0] : placed.order_type }).toEqual({ side: 'Buy', price: target, quantity: ETH / 100n, kind: 'Limit' });
    await page.locator(`[data-testid=chart-order][data-order-id="${orderId}"]`).waitFor({ timeout: 15_000 });
    await page.mouse.move(at.x, at.y - 40);
    await shot('04-click-to-place-order-on-chart');
  });

  it('refuses a click with the reason when not armed or without a size, and sends nothing', async () => {
    const before = (await restOpenOrders()).map((order) => order.order_id).sort();
    const bid = await quoted('ticket-price-bid');
    // No size: the hover says so, the click is refused.
    await page.getByTestId('chart-size').first().fill('');
    await pointAt(bid - 8n * USDC);
    expect(await hover().getAttribute('data-ok')).toBe('false');
    expect(await hover().textContent()).toBe('No size: type one in Size');
    await page.mouse.down();
    await page.mouse.up();
    const refusal = page.getByTestId('chart-place-error');
    await refusal.waitFor({ timeout: 5_000 });
    expect(await refusal.getAttribute('data-code')).toBe('NO_SIZE');
    // Disarmed: no hover line, and a click says why.
    await page.getByTestId('chart-size').first().fill('0.01');
    await page.getByTestId('chart-arm').first().click();
    expect(await chart().getAttribute('data-armed')).toBe('false');
    const area = (await chart().locator('.u-over').first().boundingBox())!;
    await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    expect(await hover().count()).toBe(0);
    await page.mouse.down();
    await page.mouse.up();
    await expect.poll(() => refusal.getAttribute('data-code')).toBe('NOT_ARMED');
    expect(await refusal.textContent()).toMatch(/Not placed: click-to-place is off until ETH\/USDC \(Canonical book\) is armed/);
    await shot('05-click-refused-not-armed');
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
    expect((await restOpenOrders()).map((order) => order.order_id).sort()).toEqual(before);
    expect(pageErrors).toEqual([]);
  });
});
