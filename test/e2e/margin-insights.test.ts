// The margin reads that have no stream, in the real app (browser host, real main services, the
// sandbox with its control surface, Debian's Chromium): after a Turbo Account opened a prepaid
// session and traded on the ETH/USDC Turbo book, the Margin panel's Activity, Statistics, Tier
// history and Turbo events tabs show what the exchange holds, each live with its freshness mark;
// the ladder's Turbo depth toggle (off by default, saved in the settings) adds a column with the
// Turbo book's executable and demand depth per row, and click-to-trade still trades from the Bid
// and Ask columns. Screenshots: test-results/screenshots/margin-insights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import type { BridgeClient } from '../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, onboard, screenshots, value, waitForBook, waitForFunds, type SandboxControl } from '../support/terminal-page';

describe.sequential('margin insights and the Turbo depth overlay in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let control: SandboxControl;
  let page: Page;
  let ethUsdc: Market;
  let account = '';
  let pageErrors: string[];
  let takerOrderId = '';
  const shot = screenshots(() => page, 'margin-insights');

  beforeAll(async () => {
    terminal = await openTerminal({ control: true, maker: 'pinned' });
    ({ bridge, control, page, pageErrors } = terminal);
    const markets = await terminal.markets();
    ethUsdc = markets.find((market) => market.base.symbol === 'ETH' && market.quote.symbol === 'USDC')!;
  });

  afterAll(() => terminal?.close());

  it('a Turbo Account opens a prepaid session and trades on the Turbo book', async () => {
    await onboard(page);
    await waitForFunds(page);
    await waitForBook(page);
    await page.getByTestId('tab-margin').click();
    await page.getByTestId('margin-panel').waitFor();
    await page.getByTestId('margin-manager-register').click();
    await expect.poll(() => page.getByTestId('margin-account').count(), { timeout: 30_000 }).toBe(1);
    account = (await page.getByTestId('margin-account').getAttribute('data-account')) ?? '';
    const card = page.getByTestId('margin-account');
    await card.getByTestId('margin-open-tier').selectOption('2');
    await card.getByTestId('margin-open-period').selectOption('Week');
    await expect.poll(() => card.getByTestId('margin-open-amount').getAttribute('data-amount')).not.toBeNull();
    await card.getByTestId('margin-open-submit').click();
    await page.getByTestId('confirm-dialog').waitFor({ timeout: 10_000 });
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => card.getAttribute('data-session'), { timeout: 30_000 }).toBe('active');
    value(await bridge.api.selectMarginAccount({ marginAccountId: account }));
    const ask = BigInt((await page.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price')) ?? '0');
    expect(ask).toBeGreaterThan(0n);
    // 0.01 ETH at the ask, funded by a draw on the credit line: a shared execution on the Turbo book.
    const placed = value(await bridge.api.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: ask, quantity: 10_000_000n }));
    expect(placed.orders[0]?.filled).toBeGreaterThan(0n);
    takerOrderId = placed.orders[0]!.orderId;
  });

  it('shows the activity, statistics, tier history and Turbo events, each live with its freshness mark', async () => {
    const insights = page.getByTestId('margin-insights');
    await insights.waitFor();
    expect(await insights.getAttribute('data-account')).toBe(account);
    const activity = page.getByTestId('margin-insights-activity');
    await expect.poll(() => activity.locator('[data-testid=margin-activity-row][data-kind=Draw]').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await activity.locator('[data-testid=margin-activity-row][data-kind=SessionStarted]').count()).toBe(1);
    expect(await activity.getAttribute('data-state')).toBe('live');
    const drawText = (await activity.locator('[data-testid=margin-activity-row][data-kind=Draw]').first().textContent()) ?? '';
    expect(drawText).toMatch(/drawn total [\d,]+\.\d+ USDC/);
    await activity.scrollIntoViewIfNeeded();
    await shot('01-activity');

    await page.getByTestId('margin-insights-tab-statistics').click();
    const statistics = page.getByTestId('margin-insights-statistics');
    await expect.poll(() => statistics.getAttribute('data-state'), { timeout: 20_000 }).toBe('live');
    const exchange = value(await bridge.api.getMarginOverview({}));
    expect(exchange.accounts.some((row) => row.marginAccountId === account && row.hasSession)).toBe(true);
    expect(Number(await page.getByTestId('margin-statistics-active').textContent())).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('margin-statistics-lent').first().textContent()).toMatch(/USDC$/);
    await shot('02-statistics');
    // One failed read: the figures stay, dimmed, marked stale in place with the reason, then live again.
    const failed = await control.post('/control/faults/fail', { count: 1, status: 503, method: 'GET', path_prefix: '/v1/margin/statistics' });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    await expect.poll(() => statistics.getAttribute('data-freshness'), { timeout: 15_000, interval: 100 }).toBe('stale');
    expect(await page.getByTestId('margin-insights-statistics-freshness').getAttribute('title')).toMatch(/503|1006|HTTP/);
    expect(Number(await page.getByTestId('margin-statistics-active').textContent())).toBeGreaterThanOrEqual(1);
    await shot('02b-statistics-stale');
    await expect.poll(() => statistics.getAttribute('data-freshness'), { timeout: 15_000 }).toBe('live');

    await page.getByTestId('margin-insights-tab-tiers').click();
    const tiers = page.getByTestId('margin-insights-tiers');
    await expect.poll(() => tiers.locator('[data-testid=margin-tier-row]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await tiers.locator('[data-testid=margin-tier-row][data-tier="2"]').count()).toBeGreaterThan(0);
    await shot('03-tier-history');

    await page.getByTestId('margin-insights-tab-events').click();
    const events = page.getByTestId('margin-insights-events');
    await expect.poll(() => events.locator(`[data-testid=margin-event-row][data-type=SharedExecution][data-order-id="${takerOrderId}"]`).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await events.getAttribute('data-freshness')).toBe('live');
    expect(await events.locator(`[data-testid=margin-event-row][data-type=SharedExecution][data-order-id="${takerOrderId}"]`).first().textContent()).toMatch(/^\d\d:\d\d:\d\dShared executionETH\/USDC( #1)?Buy/);
    await shot('04-turbo-events');
  });

  it('the ladder toggle adds the Turbo depth column, saved in the settings, and click-to-trade still trades', async () => {
    const ladder = page.getByTestId('ladder');
    const toggle = page.getByTestId('ladder-turbo-depth');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('ladder-turbo-depth-cell').count()).toBe(0);
    // A resting Turbo buy under the market: demand the overlay must show on its row.
    const bid = BigInt((await page.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price')) ?? '0');
    const restingPrice = bid - 5n * 1_000_000n;
    value(await bridge.api.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Limit' }, price: restingPrice, quantity: 10_000_000n }));

    // Rows of 1 USDC, so the resting buy's row is among those shown.
    await page.getByTestId('ladder-precision').selectOption('1000000');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    expect(value(await bridge.api.getSettings({})).turboDepthOverlay).toBe(true);
    await expect.poll(() => ladder.getAttribute('class')).toMatch(/with-turbo-depth/);
    await expect.poll(() => page.getByTestId('ladder-turbo-depth-cell').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const step = BigInt((await ladder.getAttribute('data-precision')) ?? '1');
    const restingRow = restingPrice - (restingPrice % step);
    const demandCell = page.locator(`[data-testid=ladder-row][data-price="${restingRow}"] [data-testid=ladder-turbo-depth-cell]`);
    await expect.poll(async () => BigInt((await demandCell.getAttribute('data-demand')) ?? '0'), { timeout: 20_000 }).toBeGreaterThanOrEqual(10_000_000n);
    // Shared quotes at the inside: executable depth on the best ask's row.
    const bestAskRow = page.locator('[data-testid=ladder-row].best-ask').first();
    await expect.poll(async () => BigInt((await bestAskRow.locator('[data-testid=ladder-turbo-depth-cell]').getAttribute('data-executable')) ?? '0'), { timeout: 20_000 }).toBeGreaterThan(0n);
    // Live: no freshness badge (shown only when stale or resyncing, like every panel's).
    await expect.poll(() => page.getByTestId('ladder-turbo-depth-freshness').count()).toBe(0);
    await shot('05-ladder-turbo-depth');

    // Click-to-trade is untouched: armed, a click in the bid column of a row below the market places a buy there.
    await page.getByTestId('ladder-size').fill('0.01');
    await page.getByTestId('ladder-arm').click();
    const clickRow = page.locator(`[data-testid=ladder-row][data-price="${restingRow - step}"]`);
    await clickRow.getByTestId('bid-cell').click();
    await confirmIfAsked(page);
    await expect.poll(async () => value(await bridge.api.getOrders({})).open.filter((order) => order.price === restingRow - step && order.side === 'Buy').length, { timeout: 20_000 }).toBe(1);
    await page.getByTestId('ladder-arm').click();

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => page.getByTestId('ladder-turbo-depth-cell').count()).toBe(0);
    expect(value(await bridge.api.getSettings({})).turboDepthOverlay).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
