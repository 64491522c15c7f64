// An alert set from the ladder's context menu (a right click on a row: never the click that
// trades), evaluated in main, fires when the sandbox trades the price through it: the toast says
// so, the Alerts panel lists it as fired, and nothing was placed. Screenshots:
// test-results/screenshots/alerts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { priceTick } from '../../shared/market/tick';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { screenshots } from '../support/terminal-page';

describe.sequential('alerts in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  const shot = screenshots(() => page, 'alerts');

  beforeAll(async () => {
    terminal = await openTerminal({ maker: 'pinned', onboard: true, book: true });
    ({ page } = terminal);
  }, 180_000);

  afterAll(() => terminal?.close());

  it('sets an alert from a ladder row’s context menu and shows it firing when the price crosses', async () => {
    const ladder = page.getByTestId('ladder').first();
    const marketId = (await ladder.getAttribute('data-market-id'))!;
    const market = (await terminal.markets()).find((candidate) => candidate.market_id === marketId)!;
    const ask = BigInt((await ladder.locator('[data-testid=ladder-row].best-ask').first().getAttribute('data-price'))!);
    const level = ask + 3n * priceTick(market);
    const ordersBefore = (await terminal.api.getOrders({})).ok;

    await ladder.locator(`[data-testid=ladder-row][data-price="${level}"]`).click({ button: 'right' });
    const menu = page.getByTestId('alert-menu');
    await menu.waitFor();
    await shot('01-ladder-alert-menu');
    await page.getByTestId('alert-menu-ask').click();
    await page.locator('[data-testid=notice]', { hasText: 'Alert set:' }).first().waitFor({ timeout: 10_000 });
    const listed = await terminal.api.listAlerts({});
    expect(listed.ok && listed.value.alerts.map((alert) => alert.condition)).toEqual([expect.objectContaining({ kind: 'price', source: 'ask', direction: 'above', price: level })]);

    const moved = await terminal.control.post('/control/markets/price', { market_id: marketId, price: (level + 10n * priceTick(market)).toString() });
    expect(moved.status).toBe(200);
    const fired = page.locator('[data-testid=notice][data-level=warning]', { hasText: /^.*Alert: .* ask crossed above/ });
    await fired.first().waitFor({ timeout: 20_000 });
    await shot('02-alert-fired');
    // An alert notifies; it never trades: the account has no order it did not place.
    const orders = await terminal.api.getOrders({});
    expect(orders.ok && orders.value.open.length).toBe(0);
    expect(ordersBefore).toBe(true);
    const after = await terminal.api.listAlerts({});
    expect(after.ok && after.value.firings[0]?.delivered).toBe(true);
    expect(after.ok && after.value.alerts[0]?.enabled).toBe(false);
  }, 120_000);
});
