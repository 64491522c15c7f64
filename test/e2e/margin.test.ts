// Margin (Turbo) accounts in the real app: browser host with the real main services and a
// sandbox with its control surface (the house maker quotes the Turbo books too), Debian's Chromium.
// A trader opens the Margin panel, registers a Turbo Account (the session recreated to name it),
// opens a prepaid session for the exact amount shown, switches ETH/USDC to its Turbo book (ETH/USDT,
// which has none, cannot be switched and says why), trades there as the Turbo Account with the
// ticket showing main's check (bounded market, the draw), and watches the risk panel follow. The
// oracle, moved through the control surface, freezes the account (FROZEN, and the ticket refuses a
// risk-increasing order with the reason) and then has it liquidated (the liquidation and its
// settlement shown). A paused pool and a paused, disconnected Turbo book set through the control
// surface show too. Screenshots: test-results/screenshots/margin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Market } from '../../shared/market/market';
import type { BridgeClient } from '../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked, onboard, screenshots, until, value, type SandboxControl } from '../support/terminal-page';

const ORACLE_UNIT = 10n ** 18n;

/** "1,234.567 USDC" -> 1234 (whole units, for comparing figures the panel shows). */
function wholeUsdc(text: string | null): number {
  const match = /(-?[\d,]+)(?:\.\d+)? USDC/.exec(text ?? '');
  if (!match) throw new Error(`no USDC figure in ${JSON.stringify(text)}`);
  return Number(match[1]!.replaceAll(',', ''));
}

describe.sequential('margin (Turbo) accounts in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let bridge: BridgeClient;
  let control: SandboxControl;
  let page: Page;
  let ethUsdc: Market;
  let ethUsdt: Market;
  let account = '';
  let pageErrors: string[];
  const shot = screenshots(() => page, 'margin');

  const oracle = async (whole: bigint, tick = false) => {
    const moved = await control.post('/control/margin/oracle', { asset_id: ethUsdc.base.asset, price: (whole * ORACLE_UNIT).toString(), tick });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  };
  const selectMarket = async (market: Market) => {
    await page.getByTestId('market-selector').click();
    await page.locator(`[data-testid=market-menu] [data-testid=market-row][data-market-id="${market.market_id}"]`).click();
    await expect.poll(() => page.getByTestId('ladder').getAttribute('data-market-id')).toBe(market.market_id);
  };
  const riskText = (figure: string) => page.getByTestId(`margin-risk-${figure}`).textContent();
  /** A market buy of `quantity` ETH from the ticket on the Turbo book, once main's check allows it. */
  const turboBuy = async (quantity: string) => {
    await page.getByTestId('tab-ticket').click();
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-type').selectOption('Market');
    await page.getByTestId('ticket-quantity').fill(quantity);
    await expect.poll(() => page.getByTestId('ticket-turbo-check').getAttribute('data-state'), { timeout: 15_000 }).toBe('allowed');
  };

  beforeAll(async () => {
    terminal = await openTerminal({ control: true });
    ({ bridge, control, page, pageErrors } = terminal);
    const markets = await terminal.markets();
    ethUsdc = markets.find((market) => market.base.symbol === 'ETH' && market.quote.symbol === 'USDC')!;
    ethUsdt = markets.find((market) => market.base.symbol === 'ETH' && market.quote.symbol === 'USDT')!;
    // The oracle pinned where the market is, so the figures move only when the test moves it.
    await oracle(3000n);
  });

  afterAll(() => terminal?.close());

  it('onboards, opens the Margin panel and registers a Turbo Account (the session recreated to name it)', async () => {
    await onboard(page);
    await page.getByTestId('tab-margin').click();
    await page.getByTestId('margin-panel').waitFor();
    await expect.poll(async () => (await page.getByTestId('margin-manager-scope').textContent()) ?? '', { timeout: 20_000 }).toMatch(/cannot be widened/);
    await page.getByTestId('margin-panel-no-account').waitFor();
    await shot('01-margin-panel');
    await page.getByTestId('margin-manager-register').click();
    await expect.poll(async () => (await page.getByTestId('margin-manager-registration').textContent()) ?? '', { timeout: 30_000 }).toMatch(/recreated to add margin account/);
    await expect.poll(() => page.getByTestId('margin-account').count(), { timeout: 20_000 }).toBe(1);
    account = (await page.getByTestId('margin-account').getAttribute('data-account')) ?? '';
    expect(account).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await page.getByTestId('margin-account-out-of-scope').count()).toBe(0);
    await shot('02-registered');
  });

  it('opens a prepaid session for the exact amount shown', async () => {
    const card = page.getByTestId('margin-account');
    await card.getByTestId('margin-open-tier').selectOption('2');
    await card.getByTestId('margin-open-period').selectOption('Week');
    const overview = value(await bridge.api.getMarginOverview({}));
    const exact = overview.tiers.find((tier) => tier.tierId === '2')?.periods.find((period) => period.period === 'Week')?.amount;
    expect(exact).toBe(65_000_000n);
    await expect.poll(() => card.getByTestId('margin-open-amount').getAttribute('data-amount')).toBe(String(exact));
    expect(await card.getByTestId('margin-open-amount').textContent()).toContain('65.000000 USDC');
    // Periods in words, not seconds or enum names.
    expect(await card.getByTestId('margin-open-period').locator('option:checked').textContent()).toBe('1 week');
    await shot('03-open-session-amount');
    await card.getByTestId('margin-open-submit').click();
    // Paying the entry moves collateral: confirmed as orders are, naming the Turbo Account and the signer.
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 10_000 });
    const asked = (await dialog.textContent()) ?? '';
    expect(asked).toContain('Pay the entry of 65.000000 USDC from the trading account and open a 1 week session');
    expect(asked).toMatch(/Turbo Account 0x[0-9a-f]{4}…[0-9a-f]{4} \(trades the Turbo books\) · signed by Trading account 0x[0-9a-f]{4}…[0-9a-f]{4} \(its session\)/);
    await shot('03b-open-session-confirm');
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => card.getAttribute('data-session'), { timeout: 30_000 }).toBe('active');
    // The risk panel follows the account: a prepaid Turbo session, V and buy capacity at the credit line.
    await expect.poll(() => page.getByTestId('margin-risk').getAttribute('data-status'), { timeout: 30_000 }).toBe('live');
    await expect.poll(() => riskText('cohort')).toBe('Turbo (prepaid)');
    await expect.poll(() => riskText('value'), { timeout: 20_000 }).toBe('2,000.000000 USDC');
    expect(await riskText('buy-capacity')).toBe('2,000.000000 USDC');
    // The box shows main's selection, which arrives after the click (a refresh of the card in between
    // shows the old one again, which check() took for a click that did nothing): click, wait for main.
    await card.getByTestId('margin-account-select').click();
    await expect.poll(() => card.getAttribute('data-selected'), { timeout: 15_000 }).toBe('true');
    expect(await card.getByTestId('margin-account-select').isChecked()).toBe(true);
    await shot('04-session-open');
  });

  it('checks a credit amount in the form before any confirmation, and each outcome reaches the notification centre', async () => {
    const card = page.getByTestId('margin-account');
    await card.getByTestId('margin-credit-action').selectOption('draw');
    const amount = card.getByTestId('margin-credit-amount');
    const submit = card.getByTestId('margin-credit-submit');
    const problem = card.getByTestId('margin-credit-problem');
    const refused: [string, RegExp][] = [
      ['abc', /^Amount: "abc" is not a number/],
      ['-5', /^Amount: "-5" is negative/],
      ['1.1234567', /^Amount: "1\.1234567" has more decimals than USDC has \(6\)/],
      ['99,999,999,999', /^Amount: 99,999,999,999 USDC is above the [\d,.]+ USDC available (to draw now|under the credit line)/],
    ];
    for (const [typed, said] of refused) {
      await amount.fill(typed);
      await expect.poll(async () => (await problem.textContent()) ?? '', { timeout: 10_000 }).toMatch(said);
      expect(await submit.isDisabled()).toBe(true);
    }
    await shot('04b-credit-amount-refused');
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
    // A valid draw and its return: each confirmed, each a notice in the centre.
    await amount.fill('1');
    await expect.poll(() => submit.isDisabled()).toBe(false);
    await submit.click();
    await confirmIfAsked(page);
    await expect.poll(async () => (await card.getByTestId('margin-credit-result').textContent()) ?? '', { timeout: 20_000 }).toMatch(/Draw 1(\.0+)? USDC/);
    await card.getByTestId('margin-credit-action').selectOption('returnQuote');
    await amount.fill('1');
    await expect.poll(() => submit.isDisabled(), { timeout: 10_000 }).toBe(false);
    await submit.click();
    await confirmIfAsked(page);
    await expect.poll(async () => (await card.getByTestId('margin-credit-result').textContent()) ?? '', { timeout: 20_000 }).toMatch(/Return 1(\.0+)? USDC/);
    await page.getByTestId('notices-bell').click();
    const centre = page.getByTestId('notification-centre');
    await centre.waitFor();
    expect(await centre.locator('[data-testid=centre-notice]', { hasText: /Draw 1(\.0+)? USDC/ }).count()).toBeGreaterThanOrEqual(1);
    expect(await centre.locator('[data-testid=centre-notice]', { hasText: /Return 1(\.0+)? USDC of drawn quote/ }).count()).toBeGreaterThanOrEqual(1);
    await shot('04c-credit-notices');
    await page.getByTestId('notices-close').click();
  });

  it('switches ETH/USDC to its Turbo book; ETH/USDT has none and says so', async () => {
    await selectMarket(ethUsdt);
    await expect.poll(() => page.getByTestId('turbo-toggle').getAttribute('data-available'), { timeout: 20_000 }).toBe('false');
    expect(await page.getByTestId('turbo-toggle-turbo').isDisabled()).toBe(true);
    expect(await page.getByTestId('turbo-toggle-reason').textContent()).toBe('ETH/USDT has no Turbo order book');
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    await shot('05-no-turbo-book');

    await selectMarket(ethUsdc);
    await expect.poll(() => page.getByTestId('turbo-toggle').getAttribute('data-available'), { timeout: 20_000 }).toBe('true');
    expect(await page.getByTestId('book-min-order').textContent()).toBe('1 USDC');
    await page.getByTestId('turbo-toggle-turbo').click();
    await expect.poll(() => page.getByTestId('market-bar').getAttribute('data-book')).toBe('turbo');
    await expect.poll(() => page.getByTestId('ladder').getAttribute('data-book')).toBe('turbo');
    // The Turbo row's own rules: a minimum order of 5 USDC where the canonical book asks for 1.
    expect(await page.getByTestId('book-min-order').textContent()).toBe('5 USDC');
    await expect.poll(async () => (await page.getByTestId('turbo-toggle-trading-as').textContent()) ?? '', { timeout: 15_000 }).toContain('as Turbo Account');
    await page.locator('[data-testid=ladder-row].best-ask').waitFor({ timeout: 30_000 });
    // The ladder's Size on the Turbo book is its own and starts at the smallest size the Turbo row
    // accepts: worth its 5 USDC minimum at the inside (the canonical book's default, 0.001 ETH, is not).
    await expect.poll(() => page.getByTestId('ladder-size').inputValue(), { timeout: 20_000 }).not.toBe('');
    const turboSize = Number(await page.getByTestId('ladder-size').inputValue());
    const ask = Number(await page.locator('[data-testid=ladder-row].best-ask').getAttribute('data-price')) / 1e6;
    expect(turboSize * ask).toBeGreaterThanOrEqual(5);
    expect(turboSize).toBeLessThan(0.002);
    await shot('06-turbo-book');
  });

  it('trades on the Turbo book as the Turbo Account: the ticket shows the bounds and the draw, and the risk panel follows', async () => {
    const capacityBefore = await riskText('buy-capacity');
    const valueBefore = await riskText('value');
    await turboBuy('0.3');
    expect(await page.getByTestId('ticket-turbo-order').textContent()).toMatch(/Sent as BoundedMarket/);
    expect(await page.getByTestId('ticket-turbo-bounds').textContent()).toMatch(/buying at most at [\d,]+\.\d{2} USDC/);
    expect(await page.getByTestId('ticket-turbo-draw').textContent()).toMatch(/Draws [\d,.]+ USDC/);
    expect(await page.getByTestId('ticket-turbo-signer').textContent()).toContain('Turbo Account');
    await shot('07-turbo-ticket');
    await page.getByTestId('ticket-submit').click();
    await confirmIfAsked(page);
    await expect.poll(() => page.getByTestId('ticket-result').getAttribute('data-ok'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => riskText('buy-capacity'), { timeout: 20_000 }).not.toBe(capacityBefore);
    // More buys as the house quotes again (a market order takes what the book has), until the
    // position is worth most of the line: the oracle can then freeze and liquidate it.
    for (let round = 0; round < 5 && wholeUsdc(await riskText('buy-capacity')) > 900; round++) {
      await page.waitForTimeout(2500);
      await turboBuy('0.3');
      await page.getByTestId('ticket-submit').click();
      await confirmIfAsked(page);
      await expect.poll(() => page.getByTestId('ticket-result').getAttribute('data-ok'), { timeout: 30_000 }).toBe('true');
      await page.waitForTimeout(1000);
    }
    expect(wholeUsdc(await riskText('buy-capacity'))).toBeLessThanOrEqual(900);
    await expect.poll(() => riskText('value'), { timeout: 20_000 }).not.toBe(valueBefore);
    expect(await riskText('outstanding')).not.toBe('0.000000 USDC');
    // The asset table: the mark PRICE (the oracle bid a holding is marked at) and the position's value apart.
    const ethRow = page.locator('[data-testid=margin-risk-asset]', { hasText: 'ETH' }).first();
    expect(await ethRow.getByTestId('margin-risk-mark-price').textContent()).toMatch(/^[\d,]+\.\d{2} USDC bid$/);
    expect(await ethRow.getByTestId('margin-risk-position-value').textContent()).toMatch(/^[\d,]+\.\d{6} USDC$/);
    await page.getByTestId('tab-margin').click();
    await page.getByTestId('margin-risk').scrollIntoViewIfNeeded();
    await shot('08-risk-after-trades');
  });

  it('shows a paused pool on the risk panel when set through control', async () => {
    expect((await control.post('/control/margin/pool', { paused: true })).status).toBe(200);
    await page.getByTestId('margin-risk-pool-paused').waitFor({ timeout: 20_000 });
    await page.getByTestId('margin-manager-refresh').click();
    await expect.poll(async () => (await page.getByTestId('margin-manager-pool').textContent()) ?? '', { timeout: 15_000 }).toMatch(/Pool paused/);
    await page.getByTestId('margin-risk').scrollIntoViewIfNeeded();
    await shot('09-pool-paused');
    expect((await control.post('/control/margin/pool', { paused: false })).status).toBe(200);
    await expect.poll(() => page.getByTestId('margin-risk-pool-paused').count(), { timeout: 20_000 }).toBe(0);
  });

  it('freezes as the oracle falls: the panel shows FROZEN and the ticket refuses a risk-increasing order with the reason', async () => {
    for (let price = 2950n; price > 1500n; price -= 50n) {
      await oracle(price);
      const frozen = await until(
        async () => {
          if ((await page.getByTestId('margin-risk-frozen').count()) > 0) return 'frozen';
          return (await riskText('value')) !== null ? 'not yet' : null;
        },
        'a risk frame',
        5000,
      );
      if (frozen === 'frozen') break;
      await page.waitForTimeout(400);
      if ((await page.getByTestId('margin-risk-frozen').count()) > 0) break;
    }
    await page.getByTestId('margin-risk-frozen').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('margin-risk-frozen').textContent()).toMatch(/^FROZEN/);
    expect(await page.getByTestId('margin-risk-liquidatable').count()).toBe(0);
    await page.getByTestId('margin-risk').scrollIntoViewIfNeeded();
    await shot('10-frozen');

    await page.getByTestId('tab-ticket').click();
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-type').selectOption('Market');
    await page.getByTestId('ticket-quantity').fill('0.01');
    await expect.poll(() => page.getByTestId('ticket-turbo-check').getAttribute('data-state'), { timeout: 15_000 }).toBe('refused');
    expect(await page.getByTestId('ticket-turbo-refusal').getAttribute('data-code')).toBe('MARGIN_FROZEN');
    expect(await page.getByTestId('ticket-turbo-refusal').textContent()).toMatch(/frozen|AccountFrozen/i);
    expect(await page.getByTestId('ticket-submit').isDisabled()).toBe(true);
    expect(await page.getByTestId('ticket-submit').getAttribute('title')).toMatch(/frozen|AccountFrozen/i);
    await shot('11-ticket-refuses-frozen');
  });

  it('is liquidated when the oracle falls further: the app shows the liquidation and its settlement', async () => {
    await page.getByTestId('tab-margin').click();
    // Down until the value is at the threshold: the sandbox's own margin step liquidates (or the
    // permissionless liquidator does, when asked).
    let outcome: Record<string, unknown> = {};
    for (const price of [1500n, 1000n, 500n, 100n]) {
      await oracle(price, true);
      const liquidated = await control.post('/control/margin/liquidate', { account });
      outcome = liquidated.body;
      if (liquidated.status === 200 || liquidated.body['reason'] === 'NoActiveSession') break;
    }
    expect(outcome['reason'] === undefined || outcome['reason'] === 'NoActiveSession', JSON.stringify(outcome)).toBe(true);
    await page.locator('[data-testid=notice][data-level=error]', { hasText: /was liquidated/ }).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('margin-risk-last-session').getAttribute('data-status'), { timeout: 30_000 }).toBe('Liquidated');
    expect(await page.getByTestId('margin-risk-last-session').textContent()).toMatch(/Last session: liquidated.*PnL.*(returned to the trading account: \d|nothing was left to return).*prepaid entry paid at the open is not refunded/);
    await page.getByTestId('margin-risk-no-session').waitFor();
    await expect.poll(() => page.getByTestId('margin-account').getAttribute('data-session'), { timeout: 20_000 }).toBe('none');
    await page.getByTestId('margin-risk').scrollIntoViewIfNeeded();
    await shot('12-liquidated');
    await oracle(3000n);
  });

  it('shows a paused and disconnected Turbo book when set through control', async () => {
    expect((await control.post('/control/turbo/state', { market_id: ethUsdc.market_id, paused: true, connected: false })).status).toBe(200);
    // Main reads the Turbo rows again on its own timer (30 s).
    await page.getByTestId('turbo-toggle-paused').waitFor({ timeout: 45_000 });
    await page.getByTestId('turbo-toggle-disconnected').waitFor({ timeout: 5_000 });
    await page.getByTestId('tab-ticket').click();
    await page.getByTestId('ticket-type').selectOption('Limit');
    await page.getByTestId('ticket-price-bid').click();
    await page.getByTestId('ticket-quantity').fill('0.01');
    await expect.poll(async () => (await page.getByTestId('ticket-problem').textContent()) ?? '', { timeout: 10_000 }).toMatch(/paused/);
    await shot('13-turbo-paused-disconnected');
    expect((await control.post('/control/turbo/state', { market_id: ethUsdc.market_id, paused: false, connected: true })).status).toBe(200);
    expect(pageErrors).toEqual([]);
  });
});
