// The risk guards in the real app (browser host, real main services, a sandbox with its control
// surface, Chromium): with a daily loss limit and a maximum of orders per minute set, the header
// shows the day's P&L against the limit and the orders of the last minute against theirs; a long
// bought, the ladder armed, the market moved down through the control surface past the limit: the
// header's figure turns red, main disarms the window (the ladder says why) and tells the trader.
// Screenshots: test-results/screenshots/guards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import type { BridgeClient } from '../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { onboard, screenshots, until, value, waitForBook, waitForFunds, type SandboxControl } from '../support/terminal-page';

const USDC = 1_000_000n;

describe.sequential('the risk guards in the header, in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let control: SandboxControl;
  let page: Page;
  let market: Market;
  const shot = screenshots(() => page, 'guards');

  beforeAll(async () => {
    terminal = await openTerminal({ control: true, maker: 'pinned' });
    ({ bridge, control, page } = terminal);
    const markets = await terminal.markets();
    market = markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC')!;
  });

  afterAll(() => terminal?.close());

  it('shows the day’s P&L and the orders per minute against their limits, and on the breach turns red and disarms the window', async () => {
    await onboard(page);
    await waitForFunds(page);
    await waitForBook(page);
    // 8 USDC of loss allowed, 30 orders a minute (both tightenings: no confirmation).
    value(await bridge.api.updateSettings({ dailyLossLimit: { [market.quote.asset]: 8n * USDC }, maxOrdersPerMinute: 30 }));
    const ask = BigInt((await page.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price')) ?? '0');
    value(await bridge.api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ask + 20n * USDC, quantity: 100_000_000n }));
    const dayPnl = page.getByTestId('guard-day-pnl');
    await expect.poll(async () => (await dayPnl.textContent()) ?? '', { timeout: 30_000 }).toMatch(/^Day P&L [+-]?[\d,]+\.\d+ \/ -8\.0+ USDC( #\d)?$/);
    await expect.poll(async () => (await page.getByTestId('guard-order-rate').textContent()) ?? '', { timeout: 15_000 }).toBe('Orders/min 1 / 30');
    expect(await dayPnl.getAttribute('data-tone')).not.toBe('breached');
    await page.getByTestId('ladder-arm').click();
    await expect.poll(() => page.getByTestId('ladder').getAttribute('data-armed')).toBe('true');
    await shot('01-header-under-the-limit');

    // The market falls 10 %: 0.1 ETH loses about 30 USDC, past the 8 allowed.
    const bid = BigInt((await page.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price')) ?? '0');
    const moved = await control.post('/control/markets/price', { market_id: market.market_id, price: (((bid * 90n) / 100n) / (USDC / 100n) * (USDC / 100n)).toString() });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await expect.poll(() => dayPnl.getAttribute('data-tone'), { timeout: 30_000 }).toBe('breached');
    await expect.poll(() => page.getByTestId('ladder').getAttribute('data-armed'), { timeout: 15_000 }).toBe('false');
    const note = (await page.getByTestId('ladder-disarmed-note').textContent()) ?? '';
    expect(note).toMatch(/Disarmed: the daily loss limit was reached \(day P&L -[\d,]+\.\d+ USDC, limit -8\.0+ USDC\)/);
    await until(async () => (await page.getByText(/at or past your daily loss limit of -8\.0+ USDC/).count()) > 0, 'the breach notice on screen', 15_000);
    await shot('02-header-breached-disarmed');
    expect(terminal.pageErrors).toEqual([]);
  }, 180_000);
});
