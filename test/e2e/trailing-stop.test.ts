// A trailing stop in the real app: browser host with the real main services, a sandbox with its
// control surface, Debian's Chromium. A trader buys, places a stop-loss under the position, arms
// it to trail the bid from the legs list (confirmed once), and moves the market up through the
// control surface: the stop moves up on the ladder and on the chart, named as trailing.
// Screenshots: test-results/screenshots/trailing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import type { BridgeClient } from '../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { onboard, screenshots, until, value, waitForBook, waitForFunds, type SandboxControl } from '../support/terminal-page';

const USDC = 1_000_000n;
/** Ladder rows ten dollars apart: the stop and the market stay in view. */
const ROW = 10n * USDC;
const rowOf = (raw: bigint) => raw - (raw % ROW);

describe.sequential('a trailing stop in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let control: SandboxControl;
  let page: Page;
  let market: Market;
  const shot = screenshots(() => page, 'trailing');

  const stopLeg = async () => value(await bridge.api.getTriggers({})).pending.find((leg) => leg.marketId === market.market_id && leg.side === 'Sell') ?? null;

  beforeAll(async () => {
    terminal = await openTerminal({ control: true, maker: 'pinned' });
    ({ bridge, control, page } = terminal);
    const markets = await terminal.markets();
    market = markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC')!;
  });

  afterAll(() => terminal?.close());

  it('arms a trailing stop from the legs list; the stop moves up with the market on the ladder and the chart', async () => {
    await onboard(page);
    await waitForFunds(page);
    await waitForBook(page);
    await page.getByTestId('ladder-precision').selectOption(ROW.toString());
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    // A long of 0.02 ETH (bought at the best offer plus a margin) and a sell stop 40 USDC under the bid.
    const ask = BigInt((await page.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price')) ?? '0');
    value(await bridge.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ask + 20n * USDC, quantity: 20_000_000n }));
    const bid = BigInt((await page.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price')) ?? '0');
    const stopAt = bid - 40n * USDC;
    value(await bridge.api.placeStopOrder({ marketId: market.market_id, side: 'Sell', leg: { triggerPrice: stopAt, execution: { kind: 'slippage', bps: 100 } }, size: { kind: 'quantity', quantity: 20_000_000n } }));
    await until(async () => (await stopLeg()) !== null, 'the stop pending');

    // Arm it from the legs list: trail 20 USDC (2,000 ticks) from the bid.
    await page.getByTestId('tab-orders').click();
    await page.getByTestId('trail-ticks').first().fill('2000');
    await page.getByTestId('trail-reference').first().selectOption('bid');
    // Orders and legs are pushed again while the trader types (here: a resting bid far under the
    // market). The row under the typing is the same row: what was typed is still there.
    const resting = value(await bridge.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: bid - 300n * USDC, quantity: 10_000_000n }));
    await page.locator(`[data-testid=open-order-row][data-order-id="${resting.orders[0]!.orderId}"]`).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('trail-ticks').first().inputValue()).toBe('2000');
    expect(await page.getByTestId('trail-reference').first().inputValue()).toBe('bid');
    await page.getByTestId('trail-arm').first().click();
    // Arming is confirmed once, as an order is: the dialog comes first (under load, after a while).
    await page.getByTestId('confirm-dialog').or(page.getByTestId('trail-managed')).first().waitFor({ timeout: 20_000 });
    if (await page.getByTestId('confirm-dialog').count()) await page.getByTestId('confirm-accept').click();
    await page.getByTestId('trail-managed').first().waitFor({ timeout: 20_000 });
    const first = await until(async () => {
      const leg = await stopLeg();
      return leg !== null && leg.triggerPrice > stopAt ? leg : null;
    }, 'the stop to trail the bid');
    await expect.poll(() => page.locator('[data-testid=ladder] [data-testid=trigger-marker]').first().getAttribute('data-managed'), { timeout: 15_000 }).toBe('trailing');
    await expect.poll(() => page.locator(`[data-testid=ladder-row][data-price="${rowOf(first.triggerPrice)}"] [data-testid=trigger-marker]`).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await page.locator('[data-testid=chart-leg] [data-testid=trigger-marker]').first().textContent()) ?? '', { timeout: 15_000 }).toMatch(/Trailing Stop Sell/);
    await shot('01-armed-trailing');

    // The market walks up 40 USDC: the stop follows, on the ladder and on the chart. The maker
    // quotes around the new price, so the bid lands near it, not on it: the stop is asked to follow
    // by at least 20 and to sit 20 USDC under the bid of the moment.
    const moved = await control.post('/control/markets/price', { market_id: market.market_id, price: (bid + 40n * USDC).toString() });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const second = await until(async () => {
      const leg = await stopLeg();
      return leg !== null && leg.triggerPrice >= first.triggerPrice + 20n * USDC ? leg : null;
    }, 'the stop to follow the market up', 40_000);
    const bidNow = BigInt((await page.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price')) ?? '0');
    expect(second.triggerPrice).toBeLessThanOrEqual(bidNow);
    expect(second.triggerPrice).toBeGreaterThan(bidNow - 40n * USDC);
    await page.getByTestId('ladder-recenter').click();
    await expect.poll(() => page.locator(`[data-testid=ladder-row][data-price="${rowOf(second.triggerPrice)}"] [data-testid=trigger-marker]`).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.locator('[data-testid=chart-leg]').first().getAttribute('data-price'), { timeout: 15_000 }).toBe(second.triggerPrice.toString());
    await shot('02-stop-moved-up');
  }, 240_000);
});
