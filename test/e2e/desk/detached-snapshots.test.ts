// The ticket right after onboarding says why it cannot send before the trader touches it (not a
// Buy button disabled with an empty title while the balances are loading).
// Panels detached into windows of their own show the exchange's state from their first frame: a new
// window loads each slice (balances, orders, fills, history) by request and keeps it by the push
// streams, so what it shows is main's current state, held to the exchange by the trader-session
// oracle (test/support/trader-session/oracle.ts). Balances detached right after onboarding must not
// show 0 in every column of the funded assets, unmarked: main's balances must not be overwritten by
// a REST read begun before the faucet's mint (shared/fresh-read.ts, TradingService.applyBalances),
// since the window only repeats main's figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkScreen, type OracleView } from '../../support/trader-session/oracle';
import { Truth } from '../../support/trader-session/truth';
import { startWorld, type World } from '../../support/trader-session/world';
import { confirmIfAsked, screenshots } from '../../support/terminal-page';

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

  it('right after onboarding the ticket says why it cannot send, in its title and in a line, before anything is touched', async () => {
    const { page } = world;
    const submit = page.getByTestId('ticket-submit');
    await submit.waitFor({ timeout: 30_000 });
    // Untouched, the quantity is empty (or the balances are still loading): never a silent disabled button.
    await expect.poll(() => submit.isDisabled(), { timeout: 30_000 }).toBe(true);
    const title = (await submit.getAttribute('title')) ?? '';
    expect(title).not.toBe('');
    await expect.poll(async () => (await page.getByTestId('ticket-why').textContent()) ?? '', { timeout: 10_000 }).toBe(title);
    await screenshots(() => page, 'desk')('ticket-why-untouched');
    // An order far beyond the funds: the ticket names the asset, the amount needed and what there is.
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-type').selectOption('Limit');
    const ask = await page.getByTestId('ticket-price-ask').textContent();
    await page.getByTestId('ticket-price').fill((ask ?? '').replace(/^ask\s*/, '').replace(/,/g, '') || '1');
    await page.getByTestId('ticket-quantity').fill('100000');
    await expect.poll(async () => (await submit.getAttribute('title')) ?? '', { timeout: 30_000 }).toMatch(/^Not enough \w+: this order locks [\d,.]+ \w+ but only [\d,.]+ \w+ is unlocked/);
    await page.getByTestId('ticket-quantity').fill('');
  }, 180_000);

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

  it('open orders, History, Fills and Positions detached each show the exchange\'s figures in their new window, and follow a new order', async () => {
    for (const kind of ['orders', 'history', 'fills', 'positions']) await detach(kind);
    const truth = new Truth(world.control.url, world.markets);
    await checkScreen(popups, truth, world.markets, view, { boundMs: 10_000 });
    // A buy that fills: the detached windows follow it, the Positions window included (its size is
    // the exchange's bought minus sold over the account's fills).
    const { page } = world;
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-type').selectOption('Market');
    await page.getByTestId('ticket-quantity').fill('0.01');
    await expect.poll(() => page.getByTestId('ticket-submit').isEnabled(), { timeout: 30_000 }).toBe(true);
    await page.getByTestId('ticket-submit').click();
    // The confirmation comes up after the click (main checks the order first): waited for, not glanced at.
    await confirmIfAsked(page, 10_000);
    await expect.poll(async () => (await truth.positions(world.tradeAccountId, [])).get(world.markets[0]!.market_id)?.size ?? 0n, { timeout: 30_000 }).toBeGreaterThan(0n);
    const report = await checkScreen(popups, truth, world.markets, view, { boundMs: 15_000 });
    const positionsPage = popups.length - 1;
    expect(report.verdicts[`page${positionsPage}.positions`]).toBe('equal');
    await expect.poll(() => popups[positionsPage]!.getByTestId('position-row').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshots(() => popups[positionsPage]!, 'desk')('detached-positions');
    expect(world.pageErrors).toEqual([]);
  }, 180_000);
});
