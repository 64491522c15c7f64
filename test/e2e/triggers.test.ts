// Take-profit and stop-loss in the real app: browser host with the real main services and
// a sandbox with its control surface, Debian's Chromium. A trader funds the account from the Funds
// drawer (deposit instructions, the faucet's mint arriving), registers a referral code (an unknown
// and a retired one refused with the reason), buys with a take-profit and a stop-loss attached from
// the ticket, sees both legs on the ladder, the chart and under open orders, moves the market
// through the control surface until the take-profit fires (the stop-loss cancelled, the fill in
// fills, a "Take-profit filled" notice, the fill marked TP on the chart), then drags a leg to a new
// price on the ladder and on the chart, and cancels one. Screenshots: test-results/screenshots/triggers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TriggerView } from '../../shared/ipc/views';
import type { Market } from '../../shared/market/market';
import type { BridgeClient } from '../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, rawUsdcPrice, runSetup, screenshots, until, value, type SandboxControl } from '../support/terminal-page';

const USDC = 1_000_000n;
/** Ladder rows ten dollars apart: both legs and the market stay in view while the maker walks. */
const ROW = 10n * USDC;

/** Raw quote units -> the decimal text a trader types. */
function typed(raw: bigint): string {
  const cents = (raw % USDC) / 10_000n;
  return `${raw / USDC}.${cents.toString().padStart(2, '0')}`;
}

const rowOf = (raw: bigint) => raw - (raw % ROW);

describe.sequential('take-profit and stop-loss in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let control: SandboxControl;
  let page: Page;
  let market: Market;
  let pageErrors: string[];
  const shot = screenshots(() => page, 'triggers');

  const pending = async () => value(await bridge.api.getTriggers({})).pending.filter((leg) => leg.marketId === market.market_id);
  const leg = async (role: TriggerView['role']) => (await pending()).find((candidate) => candidate.role === role) ?? null;
  const bestAsk = async () => rawUsdcPrice((await page.getByTestId('ticket-price-ask').textContent()) ?? '');
  const ladderMarker = (role: TriggerView['role']) => page.locator(`[data-testid=ladder] [data-testid=trigger-marker][data-role=${role}]`);

  /** Buy 0.02 ETH a little above the best offer, with a take-profit and a stop-loss attached. */
  const buyWithBracket = async (takeProfitAbove: bigint, stopLossBelow: bigint) => {
    await page.getByTestId('tab-ticket').click();
    const entry = (await bestAsk()) + 5n * USDC;
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-type').selectOption('Spot');
    await page.getByTestId('ticket-price').fill(typed(entry));
    await page.getByTestId('ticket-quantity').fill('0.02');
    if ((await page.getByTestId('ticket-bracket').getAttribute('open')) === null) await page.locator('[data-testid=ticket-bracket] > summary').click();
    if (!(await page.getByTestId('bracket-take-profit-enabled').isChecked())) await page.getByTestId('bracket-take-profit-enabled').check();
    if (!(await page.getByTestId('bracket-stop-loss-enabled').isChecked())) await page.getByTestId('bracket-stop-loss-enabled').check();
    const takeProfit = entry + takeProfitAbove;
    const stopLoss = entry - stopLossBelow;
    await page.getByTestId('bracket-take-profit-trigger').fill(typed(takeProfit));
    await page.getByTestId('bracket-stop-loss-trigger').fill(typed(stopLoss));
    await expect.poll(async () => (await page.getByTestId('ticket-submit').textContent()) ?? '').toContain('+ TP/SL');
    await page.getByTestId('ticket-submit').click();
    await confirmIfAsked(page);
    await expect.poll(() => page.getByTestId('ticket-result').getAttribute('data-ok'), { timeout: 30_000 }).toBe('true');
    await until(async () => (await pending()).length === 2, 'both legs pending');
    return { entry, takeProfit, stopLoss };
  };

  beforeAll(async () => {
    terminal = await openTerminal({ control: true, maker: 'pinned' });
    ({ bridge, control, page, pageErrors } = terminal);
    const markets = await terminal.markets();
    market = markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC' && candidate.quote.asset === markets.find((row) => row.quote.symbol === 'USDC')?.quote.asset)!;
  });

  afterAll(() => terminal?.close());

  it('onboards without test funds, shows the deposit instructions and the balance arriving after a faucet mint', async () => {
    // Setup up to the trading account; the funds come from the Funds drawer.
    await runSetup(page, ['owner', 'account']);
    await page.getByTestId('close-setup').click();
    const account = value(await bridge.api.getAccountState({}));
    const tradeAccountId = account.tradeAccount?.tradeAccountId ?? '';
    await page.getByTestId('open-funds').click();
    await page.getByTestId('funds-drawer').waitFor();
    await expect.poll(() => page.getByTestId('deposit-account').textContent(), { timeout: 20_000 }).toBe(tradeAccountId);
    const sentences = (await page.getByTestId('deposit-sentence').allTextContents()).join(' ');
    expect(sentences).toMatch(/must name the asset id and the amount/);
    expect(sentences).toMatch(/Mainnet has no faucet/);
    const assetIds = await page.getByTestId('deposit-asset').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-asset-id')));
    expect(assetIds).toEqual(expect.arrayContaining([market.base.asset, market.quote.asset]));
    const usdc = page.locator(`[data-testid=funds-balance][data-asset-id="${market.quote.asset}"] [data-testid=funds-balance-total]`);
    await expect.poll(() => usdc.getAttribute('data-raw'), { timeout: 20_000 }).toBe('0');
    await shot('01-deposit-instructions');

    await page.getByTestId('funds-faucet').click();
    await page.getByTestId('funds-faucet-result').waitFor({ timeout: 30_000 });
    await expect.poll(() => usdc.getAttribute('data-raw'), { timeout: 30_000 }).toBe((100_000n * 10n ** BigInt(market.quote.decimals)).toString());
    await shot('02-balance-after-mint');
    await page.getByTestId('funds-close').click();
    // The rest of setup: the funds step is done by the mint.
    await page.getByTestId('open-setup').click();
    await runSetup(page, ['funds', 'whitelist', 'session']);
    await page.getByTestId('close-setup').click();
    await page.getByTestId('open-funds').click();
  });

  it('looks a referral code up and registers it; an unknown and a retired code are refused with the reason', async () => {
    await page.getByTestId('referral-code').scrollIntoViewIfNeeded();
    await page.getByTestId('referral-code').fill('NOSUCHCODE');
    await page.getByTestId('referral-lookup').click();
    await expect.poll(() => page.getByTestId('referral-found').getAttribute('data-usable'), { timeout: 15_000 }).toBe('false');
    expect(await page.getByTestId('referral-found').textContent()).toMatch(/not a referral code the exchange knows/);
    expect(await page.getByTestId('referral-register').isDisabled()).toBe(true);
    await page.getByTestId('referral-code').fill('RETIRED');
    await page.getByTestId('referral-lookup').click();
    await expect.poll(async () => (await page.getByTestId('referral-found').textContent()) ?? '', { timeout: 15_000 }).toMatch(/not active any more/);
    await page.getByTestId('referral-code').fill('not a code!');
    await page.getByTestId('referral-lookup').click();
    await expect.poll(() => page.getByTestId('referral-error').getAttribute('data-code')).toBe('INVALID_INPUT');

    await page.getByTestId('referral-code').fill('SANDBOX');
    await page.getByTestId('referral-lookup').click();
    await expect.poll(() => page.getByTestId('referral-found').getAttribute('data-usable'), { timeout: 15_000 }).toBe('true');
    await page.getByTestId('referral-register').click();
    await page.getByTestId('referral-registered').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('referral-registered').textContent()).toMatch(/Registered: referer 0x[0-9a-f]{64}/);
    await shot('03-referral');
    await page.getByTestId('funds-close').click();
  });

  it('buys with a take-profit and a stop-loss from the ticket; both legs show on the ladder, the chart and under open orders', async () => {
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    // Rows of ten dollars keep the legs and the market in view; held, so rows stay put under a drag.
    await page.getByTestId('ladder-precision').selectOption(ROW.toString());
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    const { takeProfit, stopLoss } = await buyWithBracket(40n * USDC, 45n * USDC);

    const profitLeg = (await leg('take-profit'))!;
    const lossLeg = (await leg('stop-loss'))!;
    expect(profitLeg).toMatchObject({ side: 'Sell', triggerPrice: takeProfit, ocoId: lossLeg.triggerId, kind: 'bounded' });
    expect(lossLeg).toMatchObject({ side: 'Sell', triggerPrice: stopLoss, ocoId: profitLeg.triggerId });

    // The ladder: each leg on the row its trigger falls in.
    await expect.poll(() => ladderMarker('take-profit').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator(`[data-testid=ladder-row][data-price="${rowOf(takeProfit)}"] [data-testid=trigger-marker]`).getAttribute('data-trigger-id')).toBe(profitLeg.triggerId);
    expect(await page.locator(`[data-testid=ladder-row][data-price="${rowOf(stopLoss)}"] [data-testid=trigger-marker]`).getAttribute('data-trigger-id')).toBe(lossLeg.triggerId);
    // The chart: a line per leg with its marker.
    await expect.poll(() => page.getByTestId('chart').getAttribute('data-legs'), { timeout: 15_000 }).toBe('2');
    await expect.poll(() => page.locator('[data-testid=chart-leg]').count(), { timeout: 15_000 }).toBe(2);
    // Under open orders: both legs grouped under the order they belong to.
    await page.getByTestId('tab-orders').click();
    await expect.poll(() => page.locator('[data-testid=open-orders] [data-testid=trigger-row]').count(), { timeout: 15_000 }).toBe(2);
    expect(await page.locator('[data-testid=open-orders] [data-testid=trigger-parent-row]').getAttribute('data-order-id')).toBe(profitLeg.parentOrderId);
    await shot('04-bracket-legs');
  });

  it('moves the market to the take-profit: it fires, the stop-loss is cancelled, the fill is in fills, with a take-profit notice and a TP mark on the chart', async () => {
    const profitLeg = (await leg('take-profit'))!;
    const lossLeg = (await leg('stop-loss'))!;
    const notice = page.locator('[data-testid=notice]', { hasText: /Take-profit filled/ });
    // Step the market up: first just under the take-profit, so the house quotes bids inside the
    // leg's bounds, then through it. The leg fires on the trade that prints at its price.
    for (const price of [profitLeg.triggerPrice - 5n * USDC, profitLeg.triggerPrice + USDC]) {
      const moved = await control.post('/control/markets/price', { market_id: market.market_id, price: price.toString() });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      await page.waitForTimeout(500);
    }
    await notice.first().waitFor({ timeout: 30_000 });
    expect(await notice.first().textContent()).toMatch(/Take-profit filled: Sell [\d.]+ ETH (in \d+ fills )?at [\d,]+\.\d{2}/);
    await shot('05-take-profit-notice');

    const recent = await until(async () => {
      const snapshot = value(await bridge.api.getTriggers({}));
      const fired = snapshot.recent.find((candidate) => candidate.triggerId === profitLeg.triggerId && candidate.state === 'fired');
      const cancelled = snapshot.recent.find((candidate) => candidate.triggerId === lossLeg.triggerId && candidate.state === 'cancelled');
      return fired && cancelled ? { fired, cancelled } : null;
    }, 'the take-profit fired and the stop-loss cancelled');
    expect(recent.cancelled.reason).toBe('OcoSiblingFired');
    expect(await page.locator('[data-testid=open-orders] [data-testid=trigger-row]').count()).toBe(0);
    await page.locator('[data-testid=triggers-recent] > summary').first().click();
    await expect.poll(() => page.locator(`[data-testid=trigger-recent-row][data-trigger-id="${lossLeg.triggerId}"]`).getAttribute('data-state')).toBe('cancelled');
    expect(await page.locator(`[data-testid=trigger-recent-row][data-trigger-id="${lossLeg.triggerId}"]`).textContent()).toMatch(/the other leg fired/);
    expect(await page.locator(`[data-testid=trigger-recent-row][data-trigger-id="${profitLeg.triggerId}"]`).getAttribute('data-state')).toBe('fired');
    // The legs are gone from the ladder and the chart; the chart marks the fired leg's fill TP.
    await expect.poll(() => page.locator('[data-testid=ladder] [data-testid=trigger-marker]').count()).toBe(0);
    await expect.poll(() => page.getByTestId('chart').getAttribute('data-legs')).toBe('0');
    // One mark per fill of the order the leg became (it may have filled against several levels).
    await expect.poll(async () => Number(await page.getByTestId('chart').getAttribute('data-leg-fill-marks')), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await shot('06-sibling-cancelled-chart-mark');

    await page.getByTestId('tab-fills').click();
    // One row per fill: the fired order may have filled against several levels.
    const firedFills = page.locator(`[data-testid=fill-row][data-order-id="${recent.fired.firedOrderId}"]`);
    await firedFills.first().waitFor({ timeout: 20_000 });
    for (const text of await firedFills.allTextContents()) expect(text).toMatch(/Sell/);
    await shot('07-fill-in-fills');
  });

  it('drags a leg to a new price on the ladder and on the chart, and cancels one', async () => {
    await page.getByTestId('ladder-recenter').click();
    await page.getByTestId('ladder-hold').click();
    const { stopLoss } = await buyWithBracket(40n * USDC, 45n * USDC);
    const before = (await leg('stop-loss'))!;
    expect(before.triggerPrice).toBe(stopLoss);

    // Ladder: grab the stop-loss marker and drop it two rows lower.
    const target = rowOf(stopLoss) - 2n * ROW;
    const marker = ladderMarker('stop-loss');
    await marker.waitFor({ timeout: 15_000 });
    const from = (await marker.boundingBox())!;
    const to = (await page.locator(`[data-testid=ladder-row][data-price="${target}"]`).boundingBox())!;
    await page.mouse.move(from.x + 6, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 6, to.y + to.height / 2, { steps: 8 });
    await expect.poll(() => page.locator(`[data-testid=ladder-row][data-price="${target}"]`).getAttribute('class')).toMatch(/drop-target/);
    await shot('08-ladder-drag');
    await page.mouse.up();
    const movedOnLadder = await until(async () => {
      const current = await leg('stop-loss');
      return current && current.triggerPrice === target ? current : null;
    }, 'the stop-loss at the row it was dropped on');
    expect(movedOnLadder.triggerId).not.toBe(before.triggerId);
    await expect.poll(() => page.locator(`[data-testid=ladder-row][data-price="${target}"] [data-testid=trigger-marker]`).getAttribute('data-trigger-id'), { timeout: 15_000 }).toBe(movedOnLadder.triggerId);

    // Chart: drag the stop-loss line's marker down by 40 px: a lower trigger on the price step.
    const chartMarker = page.locator(`[data-testid=chart-leg][data-trigger-id="${movedOnLadder.triggerId}"] [data-testid=trigger-marker]`);
    await chartMarker.waitFor({ timeout: 15_000 });
    const handle = (await chartMarker.boundingBox())!;
    await page.mouse.move(handle.x + 6, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + 6, handle.y + handle.height / 2 + 40, { steps: 8 });
    await expect.poll(() => page.getByTestId('trigger-marker-from').count()).toBeGreaterThan(0);
    await shot('09-chart-drag');
    await page.mouse.up();
    // The move is confirmed like an order (confirmations are on by default): it names the book and the signer.
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 10_000 });
    expect((await dialog.textContent()) ?? '').toMatch(/Move stop-loss.*Canonical book · signed by Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}/s);
    await page.getByTestId('confirm-accept').click();
    const movedOnChart = await until(async () => {
      const current = await leg('stop-loss');
      return current && current.triggerId !== movedOnLadder.triggerId ? current : null;
    }, 'the stop-loss moved on the chart');
    expect(movedOnChart.triggerPrice).toBeLessThan(target);
    expect(movedOnChart.triggerPrice % 10_000n).toBe(0n);
    // The chart names the new leg.
    await expect.poll(() => page.getByTestId('chart-amend-result').getAttribute('data-new-id'), { timeout: 15_000 }).toBe(movedOnChart.triggerId);

    // Cancel the take-profit from the list under open orders.
    await page.getByTestId('tab-orders').click();
    const profitLeg = (await leg('take-profit'))!;
    await page.locator(`[data-testid=open-orders] [data-testid=trigger-row][data-trigger-id="${profitLeg.triggerId}"] [data-testid=trigger-cancel]`).click();
    await until(async () => !(await pending()).some((candidate) => candidate.triggerId === profitLeg.triggerId), 'the take-profit cancelled');
    await expect.poll(() => page.locator(`[data-testid=open-orders] [data-testid=trigger-row][data-trigger-id="${profitLeg.triggerId}"]`).count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => ladderMarker('take-profit').count()).toBe(0);
    await shot('10-after-cancel');
    expect(pageErrors).toEqual([]);
  });
});
