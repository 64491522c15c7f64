// Execution algorithms from the screen: a trader starts a TWAP and a scale order from the ticket
// (the selector's Algorithms group, the parameters, main's preview, Start), follows both in the
// Working algorithms panel, sees the scale order's children on the ladder tagged with their
// parent, pauses and cancels from the panel, chases from the ladder's context menu, and uses the
// kill switch, which cancels the paused TWAP too. Main runs them against the sandbox; the exchange's
// open orders are the referee. Screenshots: test-results/screenshots/algos.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatUnits } from '../../shared/encoding/units';
import type { Market } from '../../shared/market/market';
import { priceTick } from '../../shared/market/tick';
import { ladderChaseLimit } from '../../renderer/src/features/algos/ladder-chase';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, screenshots, until, value } from '../support/terminal-page';

describe.sequential('execution algorithms in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  let market: Market;
  const shot = screenshots(() => page, 'algos');

  beforeAll(async () => {
    terminal = await openTerminal({ maker: 'pinned', onboard: true, book: true, funds: true });
    ({ page } = terminal);
    const marketId = (await page.getByTestId('ladder').first().getAttribute('data-market-id'))!;
    market = (await terminal.markets()).find((candidate) => candidate.market_id === marketId)!;
  }, 180_000);

  afterAll(() => terminal?.close());

  const algos = async () => value(await terminal.api.getAlgos({}));
  const openOrders = async () => value(await terminal.api.getOrders({})).open.filter((order) => order.marketId === market.market_id);

  it('starts a TWAP and a scale order from the ticket and follows both in the Working algorithms panel and on the ladder', async () => {
    const bid = BigInt((await page.locator('[data-testid=ladder] [data-testid=ladder-row].best-bid').first().getAttribute('data-price'))!);
    /** A ladder row of a hundred ticks (a dollar on ETH/USDC): the scale order's children one a row. */
    const row = 100n * priceTick(market);

    // A TWAP buy of 0.05 ETH over 30 minutes in 60 s slices at the touch, no price limit.
    await page.getByTestId('ticket-type').selectOption('algo:twap');
    await page.locator('[data-testid=ticket-form][data-algo=twap]').waitFor();
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-quantity').fill('0.05');
    await page.getByTestId('algo-param-duration').fill('30');
    await page.getByTestId('algo-param-interval').fill('60');
    await page.getByTestId('algo-preview-button').click();
    await page.getByTestId('algo-preview').waitFor({ timeout: 20_000 });
    expect(Number(await page.getByTestId('algo-preview').getAttribute('data-children'))).toBeGreaterThan(1);
    await shot('01-twap-preview');
    await page.getByTestId('algo-start').click();
    await page.locator('[data-testid=ticket-result][data-ok=true]').waitFor({ timeout: 20_000 });
    const twap = await until(async () => (await algos()).find((algo) => algo.spec.params.kind === 'twap' && algo.state === 'running'), 'the TWAP running');

    // A scale sell of 0.05 ETH in 5 post-only orders from 3 to 7 rows above the bid, sizes increasing.
    await page.getByTestId('ticket-type').selectOption('algo:scale');
    await page.locator('[data-testid=ticket-form][data-algo=scale]').waitFor();
    await page.getByTestId('ticket-side-sell').click();
    await page.getByTestId('ticket-quantity').fill('0.05');
    const from = bid + 3n * row;
    const to = bid + 7n * row;
    const priceText = (raw: bigint) => formatUnits(raw, market.quote.decimals);
    await page.getByTestId('algo-param-from').fill(priceText(from));
    await page.getByTestId('algo-param-to').fill(priceText(to));
    await page.getByTestId('algo-param-count').fill('5');
    await page.getByTestId('algo-param-distribution').selectOption('increasing');
    await page.getByTestId('algo-preview-button').click();
    await page.getByTestId('algo-preview').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('algo-preview-child').count()).toBe(5);
    expect(await page.getByTestId('algo-preview').getAttribute('data-batches')).toBe('1');
    await shot('02-scale-preview');
    await page.getByTestId('algo-start').click();
    await page.locator('[data-testid=ticket-result][data-ok=true]').waitFor({ timeout: 20_000 });
    const scale = await until(
      async () => (await algos()).find((algo) => algo.spec.params.kind === 'scale' && algo.children.length === 5 && algo.children.every((child) => child.status === 'open' && child.orderId !== null)),
      'the scale order’s five children open, each with its order id',
    );
    // The exchange is the referee: five sells between the two prices, summing to the total.
    const children = await until(async () => {
      const open = (await openOrders()).filter((order) => order.side === 'Sell' && scale.children.some((child) => child.orderId === order.orderId));
      return open.length === 5 ? open : null;
    }, 'the five children in the exchange’s open orders');
    expect(children.reduce((sum, order) => sum + order.quantity, 0n)).toBe(scale.spec.quantity);
    for (const order of children) expect(order.price >= from && order.price <= to).toBe(true);

    // The panel: both running, with progress and figures.
    await page.getByTestId('tab-algos').click();
    const rows = page.locator('[data-testid=algo-row][data-state=running]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    await page.locator(`[data-testid=algo-row][data-algo-id="${scale.id}"] [data-testid=algo-children-toggle]`).click();
    await page.locator(`[data-testid=algo-row][data-algo-id="${scale.id}"] [data-testid=algo-child][data-status=open]`).first().waitFor();
    await shot('03-working-algorithms');

    // The ladder: the scale order's children, tagged with their parent, on rows a dollar apart.
    await page.getByTestId('ladder-precision').selectOption(row.toString());
    await page.getByTestId('ladder-recenter').click();
    await expect.poll(() => page.locator('[data-testid=ladder] [data-testid=ladder-algo-tag]').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    expect(await page.locator('[data-testid=ladder] [data-testid=ladder-algo-tag]').first().getAttribute('data-tags')).toMatch(/^Scale /);
    await shot('04-scale-on-ladder');

    // Pause the TWAP and cancel the scale order from the panel: its children leave the exchange.
    await page.locator(`[data-testid=algo-row][data-algo-id="${twap.id}"] [data-testid=algo-pause]`).click();
    await page.locator(`[data-testid=algo-row][data-algo-id="${twap.id}"][data-state=paused]`).waitFor({ timeout: 20_000 });
    await page.locator(`[data-testid=algo-row][data-algo-id="${scale.id}"] [data-testid=algo-cancel]`).click();
    await page.locator(`[data-testid=algo-row][data-algo-id="${scale.id}"][data-state=cancelled]`).waitFor({ timeout: 20_000 });
    await until(async () => (await openOrders()).every((order) => !scale.children.some((child) => child.orderId === order.orderId)), 'the scale order’s children cancelled on the exchange');
    await shot('05-paused-and-cancelled');

    // Chase from the ladder's context menu (never the trading click): the ladder's Size, the row's
    // price as the limit, after main's preview and a confirmation.
    await page.getByTestId('ladder-size').fill('0.002');
    // The row above the best bid's: a dollar row floors the bid, so its own row is below the bid.
    const bidRowPrice = BigInt((await page.locator('[data-testid=ladder] [data-testid=ladder-row].best-bid').first().getAttribute('data-price'))!) + row;
    await page.locator(`[data-testid=ladder] [data-testid=ladder-row][data-price="${bidRowPrice}"]`).click({ button: 'right' });
    await page.getByTestId('ladder-chase-buy').waitFor();
    await shot('06-ladder-chase-menu');
    await page.getByTestId('ladder-chase-buy').click();
    await confirmIfAsked(page, 10_000);
    const chase = await until(async () => (await algos()).find((algo) => algo.spec.params.kind === 'chase'), 'the chase started');
    expect(chase.spec).toMatchObject({ side: 'Buy', quantity: 2_000_000n, limitPrice: bidRowPrice, params: { kind: 'chase', offsetTicks: 0n } });
    await page.locator(`[data-testid=algo-row][data-algo-id="${chase.id}"]`).waitFor({ timeout: 20_000 });
    await page.locator(`[data-testid=algo-row][data-algo-id="${chase.id}"] [data-testid=algo-cancel]`).click();
    await page.locator(`[data-testid=algo-row][data-algo-id="${chase.id}"][data-state=cancelled]`).waitFor({ timeout: 20_000 });
    // The kill switch cancels the paused TWAP too, and its report says so.
    await page.getByTestId('kill-switch').click();
    await page.getByTestId('kill-algos').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('kill-algos').textContent()).toMatch(/Cancelled 1 working algorithm first/);
    await shot('07-kill-switch-report');
    await page.getByTestId('kill-report-close').click();
    await page.locator(`[data-testid=algo-row][data-algo-id="${twap.id}"][data-state=cancelled] [data-testid=algo-reason][data-code=CANCELLED_KILL_SWITCH]`).waitFor({ timeout: 20_000 });
    expect(terminal.pageErrors).toEqual([]);
    // Nothing above its total: the TWAP filled at most what it was asked.
    const after = (await algos()).find((algo) => algo.id === twap.id)!;
    expect(after.filled <= after.spec.quantity).toBe(true);
    expect(after.filled + after.remaining).toBe(after.spec.quantity);
  }, 300_000);

  it('starts a chase from the ladder row’s context menu (the ladder’s Size, the row’s price as its limit)', async () => {
    const ask = BigInt((await page.locator('[data-testid=ladder] [data-testid=ladder-row].best-ask').first().getAttribute('data-price'))!);
    await page.getByTestId('ladder-size').first().fill('0.01');
    await page.mouse.move(0, 0);
    await page.getByTestId('ladder-recenter').first().click();
    await page.mouse.move(0, 0);
    const prices = (await page.locator('[data-testid=ladder] [data-testid=ladder-row]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-price') ?? '')))
      .filter((text) => text !== '')
      .map((text) => BigInt(text))
      .filter((price) => price > ask)
      .sort((left, right) => (left < right ? -1 : 1));
    const limit = prices[Math.min(2, prices.length - 1)]!;
    const known = new Set((await algos()).map((algo) => algo.id));
    await page.locator(`[data-testid=ladder] [data-testid=ladder-row][data-price="${limit}"]`).first().click({ button: 'right' });
    await page.getByTestId('ladder-chase-buy').click();
    await page.getByTestId('confirm-dialog').waitFor({ timeout: 20_000 });
    await page.getByTestId('confirm-accept').click();
    const chase = await until(async () => (await algos()).find((algo) => !known.has(algo.id) && algo.spec.params.kind === 'chase'), 'the chase started from the ladder');
    expect(chase.spec.side).toBe('Buy');
    expect(chase.spec.limitPrice).toBe(ladderChaseLimit(market, 'Buy', limit));
    expect(terminal.pageErrors).toEqual([]);
    value(await terminal.api.cancelAlgo({ id: chase.id }));
  }, 120_000);
});
