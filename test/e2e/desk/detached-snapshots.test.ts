// Panels detached into windows of their own show the exchange's state from their first frame: a new
// window loads each slice (balances, orders, fills, history) by request and keeps it by the push
// streams, so what it shows is main's current state, held to the exchange by the trader-session
// oracle (test/support/trader-session/oracle.ts). Found by the oracle (issue 14): Balances detached
// right after onboarding showed 0 in every column of the funded assets, unmarked, because main's
// balances had been overwritten by a REST read begun before the faucet's mint (shared/fresh-read.ts,
// TradingService.applyBalances); the window only repeated main's wrong figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkScreen, type OracleView } from '../../support/trader-session/oracle';
import { Truth } from '../../support/trader-session/truth';
import { startWorld, type World } from '../../support/trader-session/world';
import { screenshots } from '../../support/terminal-page';

describe.sequential('detached panels get the current state in their new window', () => {
  let world: World;
  const popups: Page[] = [];

  beforeAll(async () => {
    world = await startWorld();
  }, 300_000);

  afterAll(async () => {
    await world?.stop();
  });

  const view = (): OracleView => ({
    network: 'sandbox',
    market: world.markets[0]!,
    turbo: false,
    contracts: [world.tradeAccountId],
    tradeAccountId: world.tradeAccountId,
    turboMarkets: [],
  });

  async function detach(kind: string): Promise<Page> {
    const { page, context } = world;
    const tab = page.getByTestId(`tab-${kind}`);
    if (await tab.count()) await tab.first().click();
    const [popup] = await Promise.all([context.waitForEvent('page', { timeout: 15_000 }), page.getByTestId(`detach-${kind}`).first().click()]);
    popup.on('pageerror', (error) => world.pageErrors.push(`${kind} window: ${String(error)}`));
    await popup.waitForLoadState();
    await expect.poll(() => popup.getByTestId('panel-window').getAttribute('data-panel'), { timeout: 30_000 }).toBe(kind);
    popups.push(popup);
    return popup;
  }

  it('Balances detached right after onboarding shows every funded asset as the exchange holds it (or says it is not live)', async () => {
    // No wait for the funds to show anywhere first: the trader detaches as soon as setup closes.
    const popup = await detach('balances');
    const truth = new Truth(world.control.url, world.markets);
    const report = await checkScreen([popup], truth, world.markets, view, { boundMs: 10_000 });
    expect(report.verdicts['page0.balances']).toBeDefined();
    // And it is live, not merely marked: a funded account's balances are known by now.
    await expect.poll(() => popup.getByTestId('balances').getAttribute('data-freshness'), { timeout: 30_000 }).toBe('live');
    const funded = (await truth.balances(world.tradeAccountId)).filter((balance) => balance.onAccount > 0n);
    expect(funded.length).toBeGreaterThan(0);
    await checkScreen([popup], truth, world.markets, view, { boundMs: 10_000 });
    await screenshots(() => popup, 'desk')('detached-balances');
  }, 180_000);

  it('open orders, History and Fills detached each show the exchange\'s figures in their new window, and follow a new order', async () => {
    for (const kind of ['orders', 'history', 'fills']) await detach(kind);
    const truth = new Truth(world.control.url, world.markets);
    await checkScreen(popups, truth, world.markets, view, { boundMs: 10_000 });
    expect(world.pageErrors).toEqual([]);
  }, 180_000);
});
