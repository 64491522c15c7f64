// An alert set from the ladder's context menu (a right click on a row: never the click that
// trades), evaluated in main, fires when the sandbox trades the price through it: the toast says
// so, the Alerts panel lists it as fired, and nothing was placed. An alert set from the chart's
// context menu, edited and deleted in the Alerts panel; the click that trades on the ladder sets
// and fires nothing; a firing in the notification centre. Screenshots:
// test-results/screenshots/alerts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatUnits } from '../../shared/encoding/units';
import { priceTick } from '../../shared/market/tick';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, screenshots, until } from '../support/terminal-page';

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

  it('sets an alert from the chart’s context menu, edits and deletes it in the Alerts panel; the trading click sets and fires nothing', async () => {
    const api = terminal.api;
    const listed = async () => {
      const answer = await api.listAlerts({});
      if (!answer.ok) throw new Error(answer.message);
      return answer.value;
    };
    const before = await listed();
    const ladder = page.getByTestId('ladder').first();
    const marketId = (await ladder.getAttribute('data-market-id'))!;
    const market = (await terminal.markets()).find((candidate) => candidate.market_id === marketId)!;
    const tick = priceTick(market);
    // The first test moved the market while the pointer rested on the ladder (which then holds its rows): back to the inside.
    await page.mouse.move(0, 0);
    await page.getByTestId('ladder-recenter').click();
    await page.mouse.move(0, 0);

    // The click that trades: an armed ladder's left click on a bid cell five rows under the best bid
    // places an order there, and neither sets an alert nor opens the alert menu.
    const bid = BigInt((await ladder.locator('[data-testid=ladder-row].best-bid').first().getAttribute('data-price'))!);
    const target = bid - 5n * tick;
    if ((await ladder.getAttribute('data-armed')) !== 'true') await page.getByTestId('ladder-arm').click();
    await ladder.locator(`[data-testid=ladder-row][data-price="${target}"]`).getByTestId('bid-cell').click();
    await confirmIfAsked(page);
    await until(async () => {
      const orders = await api.getOrders({});
      return orders.ok && orders.value.open.some((order) => order.price === target && order.side === 'Buy');
    }, 'the order the ladder click placed', 20_000);
    expect(await page.getByTestId('alert-menu').count()).toBe(0);
    const afterClick = await listed();
    expect(afterClick.alerts).toEqual(before.alerts);
    expect(afterClick.firings).toEqual(before.firings);
    if ((await ladder.getAttribute('data-armed')) === 'true') await page.getByTestId('ladder-arm').click();
    const cancelled = await api.cancelAllOrders({});
    expect(cancelled.ok).toBe(true);

    // The chart's context menu at a height of the plot: an alert at that price on the last trade.
    const chart = page.getByTestId('chart').first();
    const box = (await chart.boundingBox())!;
    await chart.click({ button: 'right', position: { x: box.width / 2, y: box.height * 0.25 } });
    await page.getByTestId('alert-menu').waitFor();
    await shot('03-chart-alert-menu');
    const choice = page.getByTestId('alert-menu-last');
    const label = (await choice.textContent()) ?? '';
    expect(label).toMatch(/^Alert when the last trade crosses (above|below) [\d,]+\.\d+$/);
    await choice.click();
    const fromChart = await until(async () => (await listed()).alerts.find((alert) => !before.alerts.some((old) => old.id === alert.id)), 'the chart’s alert in main', 10_000);
    expect(fromChart.condition).toMatchObject({ kind: 'price', marketId, source: 'last' });
    expect(fromChart).toMatchObject({ enabled: true, repeat: false });

    // The Alerts panel lists it; edited there (repeat, cool-down, note) and main keeps the change.
    await page.getByTestId('tab-alerts').click();
    const row = page.locator(`[data-testid=alert-row][data-alert-id="${fromChart.id}"]`);
    await row.waitFor();
    expect(await row.getByTestId('alert-description').textContent()).toContain('last crosses');
    await row.getByTestId('alert-row-repeat').check();
    await row.getByTestId('alert-row-cooldown').fill('15');
    await row.getByTestId('alert-row-cooldown').press('Enter');
    await row.getByTestId('alert-row-note').fill('chart level');
    await row.getByTestId('alert-row-note').press('Enter');
    const edited = await until(async () => (await listed()).alerts.find((alert) => alert.id === fromChart.id && alert.repeat && alert.cooldownSeconds === 15 && alert.note === 'chart level'), 'the edit in main', 10_000);
    expect(edited.condition).toEqual(fromChart.condition);
    // The level too: a price off the step is refused naming it, one on the step moves the alert.
    if (fromChart.condition.kind !== 'price') throw new Error('the chart menu set no price alert');
    const level = fromChart.condition.price + 50_000n;
    await row.getByTestId('alert-row-level').fill('3000.123');
    await row.getByTestId('alert-row-level').press('Enter');
    await expect.poll(async () => (await page.getByTestId('alert-problem').textContent()) ?? '', { timeout: 10_000 }).toMatch(/Price: 3000\.123 is not on the 0\.01 price step/);
    await row.getByTestId('alert-row-level').fill(formatUnits(level, 6, { minimumFractionDigits: 2 }));
    await row.getByTestId('alert-row-level').press('Enter');
    const moved = await until(async () => (await listed()).alerts.find((alert) => alert.id === fromChart.id && alert.condition.kind === 'price' && alert.condition.price === level), 'the new level in main', 10_000);
    expect({ ...moved.condition, price: fromChart.condition.price }).toEqual(fromChart.condition);
    await shot('04-alerts-panel-edited');

    // Deleted from the panel: gone from main and from the list.
    await row.getByTestId('alert-delete').click();
    await until(async () => !(await listed()).alerts.some((alert) => alert.id === fromChart.id), 'the delete in main', 10_000);
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);

    // The firing of the first test is in the notification centre, with its code and main's words.
    await page.getByTestId('notices-bell').click();
    const entry = page.locator('[data-testid=centre-notice][data-code=ALERT_FIRED]').first();
    await entry.waitFor({ timeout: 10_000 });
    expect(await entry.getByTestId('centre-notice-text').textContent()).toMatch(/Alert: .* ask crossed above/);
    await shot('05-notification-centre');
    await page.getByTestId('notices-close').click();
    // Nothing the alerts did traded: no order rests.
    const orders = await api.getOrders({});
    expect(orders.ok && orders.value.open.length).toBe(0);
  }, 150_000);
});
