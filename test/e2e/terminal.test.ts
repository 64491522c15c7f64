// The trader's day in the real app: browser host (real main services, real gnome-keyring in its
// own D-Bus session), real sandbox with its market maker, Debian's Chromium. One page walks from
// an empty keychain to an active session, trades through the ladder and the ticket, crosses the
// market maker, cancels, uses the kill switch across two markets, and is refused invalid orders
// with their reasons. Screenshots of each screen go to test-results/screenshots/terminal.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from '../support/chromium';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { confirmIfAsked as confirmOn, stepDone as stepDoneOn, waitForFunds } from '../support/terminal-page';

describe.sequential('trading terminal in Chromium against the sandbox', () => {
  let terminal: OpenTerminal;
  let page: Page;
  let pageErrors: string[];

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, 'terminal', `${name}.png`) });
  const stepDone = (id: string) => stepDoneOn(page, id);
  const confirmIfAsked = () => confirmOn(page, 5000);
  const openOrderCount = () => page.getByTestId('open-order-row').count();
  const rowIndex = (price: string | null) =>
    page.locator('[data-testid=ladder-row]').evaluateAll((rows, wanted) => rows.findIndex((row) => row.getAttribute('data-price') === wanted), price);
  const selectMarket = async (label: RegExp) => {
    await page.getByTestId('market-selector').click();
    await page.getByTestId('market-menu').getByTestId('market-row').filter({ hasText: label }).first().click();
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
  };
  const placeFromTicket = async (quantity: string, priceButton: 'ticket-price-bid' | 'ticket-price-ask', side: 'buy' | 'sell' = 'buy') => {
    await page.getByTestId(`ticket-side-${side}`).click();
    await page.getByTestId('ticket-quantity').fill(quantity);
    await page.getByTestId(priceButton).click();
    await page.getByTestId('ticket-submit').click();
    await confirmIfAsked();
  };

  beforeAll(async () => {
    terminal = await openTerminal({ maker: 'pinned' });
    ({ page, pageErrors } = terminal);
  });

  afterAll(() => terminal?.close());

  it('onboards from an empty keychain to an active session, explaining each step', async () => {
    await page.getByTestId('onboarding').waitFor({ timeout: 30_000 });
    await shot('01-setup');
    await page.getByTestId('onboarding-create-key').click();
    await stepDone('owner');
    await page.getByTestId('onboarding-create-account').click();
    await stepDone('account');
    await page.getByTestId('onboarding-mint').click();
    await stepDone('funds');
    // A second request inside the faucet's 60-second cooldown is refused, and the reason is shown.
    await page.getByTestId('onboarding-mint').click();
    await expect.poll(async () => (await page.getByTestId('onboarding-error-funds').textContent()) ?? '', { timeout: 15_000 }).toMatch(/minute|cooldown|wait/i);
    if ((await page.getByTestId('onboarding-step-whitelist').getAttribute('data-state')) !== 'done') {
      await page.getByTestId('onboarding-whitelist').click();
      await stepDone('whitelist');
    }
    await page.getByTestId('onboarding-create-session').click();
    await page.getByTestId('session-info').waitFor({ timeout: 30_000 });
    await stepDone('session');
    await shot('02-session');
    await page.getByTestId('close-setup').click();
    await page.getByTestId('workspace').waitFor();
    expect(await page.getByTestId('session-expiry').count()).toBeGreaterThan(0);
  });

  it('places a limit order by clicking the armed ladder and shows it on the ladder and in open orders', async () => {
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    // The faucet's funds reach the ticket a moment after setup closes; until then the ticket shows
    // nothing available and refuses a buy before signing, as a trader would see.
    await waitForFunds(page);
    await page.getByTestId('ticket-quantity').fill('0.1');
    // Click-to-trade is off until armed: a click does nothing.
    const before = await openOrderCount();
    // The ladder opens at the market's tick (0.01 USDC), where three rows under the bid are within
    // the maker's next step: rows of 1 USDC put the order out of its reach.
    await page.getByTestId('ladder-precision').selectOption({ index: 2 });
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 10_000 });
    const best = await page.locator('[data-testid=ladder-row].best-bid').getAttribute('data-price');
    const target = page.locator('[data-testid=ladder-row]').nth((await rowIndex(best)) + 3);
    await target.getByTestId('bid-cell').click();
    await page.waitForTimeout(500);
    expect(await openOrderCount()).toBe(before);
    await page.getByTestId('ladder-arm').click();
    await page.getByTestId('ladder-armed-banner').waitFor();
    const price = await target.getAttribute('data-price');
    await target.getByTestId('bid-cell').click();
    await confirmIfAsked();
    await expect.poll(openOrderCount, { timeout: 20_000 }).toBe(before + 1);
    await page.locator(`[data-testid=ladder-row][data-price="${price}"] [data-testid=own-order]`).waitFor({ timeout: 10_000 });
    await shot('03-ladder-order');
  });

  it('crosses the market maker and shows the fill in fills, balances and the tape', async () => {
    await page.getByTestId('tab-balances').click();
    await page.getByTestId('balance-row').first().waitFor({ timeout: 10_000 });
    const balancesBefore = await page.getByTestId('balances').textContent();
    await page.getByTestId('tab-orders').click();
    await page.getByTestId('ticket-type').selectOption('Spot');
    await placeFromTicket('0.1', 'ticket-price-ask');
    await page.getByTestId('ticket-result').waitFor({ timeout: 20_000 });
    await page.getByTestId('tab-fills').click();
    await page.getByTestId('fill-row').first().waitFor({ timeout: 20_000 });
    await shot('04-fills');
    await page.getByTestId('tab-balances').click();
    await expect.poll(() => page.getByTestId('balances').textContent(), { timeout: 20_000 }).not.toBe(balancesBefore);
    await shot('05-balances');
    await expect.poll(() => page.getByTestId('tape-row').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.getByTestId('tab-orders').click();
  });

  it('cancels an own order by clicking it on the ladder', async () => {
    const before = await openOrderCount();
    expect(before).toBeGreaterThan(0);
    await page.locator('[data-testid=own-order]').first().click();
    await expect.poll(openOrderCount, { timeout: 20_000 }).toBe(before - 1);
  });

  it('refuses invalid orders before signing, with the reason', async () => {
    await page.getByTestId('ticket-type').selectOption('Limit');
    await page.getByTestId('ticket-side-buy').click();
    // Far too many decimals for the market's precision.
    await page.getByTestId('ticket-price').fill('1.123456789');
    await page.getByTestId('ticket-quantity').fill('0.1');
    await expect.poll(async () => (await page.getByTestId('ticket-problem').textContent()) ?? '', { timeout: 5000 }).toMatch(/decimal|step|finer|precision/i);
    expect(await page.getByTestId('ticket-submit').isDisabled()).toBe(true);
    // Below the market's minimum order value.
    await page.getByTestId('ticket-price-bid').click();
    await page.getByTestId('ticket-quantity').fill('0.0001');
    await expect.poll(async () => (await page.getByTestId('ticket-problem').textContent()) ?? '', { timeout: 5000 }).toMatch(/minimum|dust|below/i);
    expect(await page.getByTestId('ticket-submit').isDisabled()).toBe(true);
    await shot('06-refused');
    await page.getByTestId('ticket-quantity').fill('0.1');
  });

  it('kill switch cancels every open order on two markets and reports what it cancelled', async () => {
    await page.getByTestId('ticket-type').selectOption('Limit');
    await placeFromTicket('0.1', 'ticket-price-bid');
    await selectMarket(/BTC/);
    await page.getByTestId('ticket-type').selectOption('Limit');
    await page.getByTestId('ticket-side-buy').click();
    await page.getByTestId('ticket-price-bid').click();
    await page.getByTestId('ticket-quantity').fill('0.01');
    await page.getByTestId('ticket-submit').click();
    await confirmIfAsked();
    await page.getByTestId('ticket-result').waitFor({ timeout: 20_000 });
    const markets = await page
      .getByTestId('open-order-row')
      .evaluateAll((rows) => new Set(rows.map((row) => row.getAttribute('data-market-id'))).size);
    expect(markets).toBeGreaterThanOrEqual(2);
    const open = await openOrderCount();
    await page.getByTestId('kill-switch').click();
    await confirmIfAsked();
    await page.getByTestId('kill-report').waitFor({ timeout: 30_000 });
    await shot('07-kill-report');
    const report = (await page.getByTestId('kill-report').textContent()) ?? '';
    expect(report).toMatch(new RegExp(`${open}`));
    await page.getByTestId('kill-report-close').click();
    await expect.poll(openOrderCount, { timeout: 20_000 }).toBe(0);
  });

  it('one arming model for ladder clicks and hotkeys: shown, and dropped on market or book change and after the kill switch', async () => {
    // The ladder must not stay armed after switching to the Turbo book or after the kill switch, and
    // Shift+B / Shift+S must not send orders while the ladder is disarmed.
    const ladder = page.getByTestId('ladder').first();
    const armedState = () => ladder.getAttribute('data-armed');
    const notices = () => page.getByTestId('notice').allTextContents();
    // The kill switch of the test above, and the market change before it, left it disarmed.
    expect(await armedState()).toBe('false');
    await page.getByTestId('ticket-type').selectOption('Limit');
    await page.getByTestId('ticket-quantity').fill('0.01');
    // Every signed request is a journal row: the count says whether anything was sent.
    await page.getByTestId('tab-journal').click();
    const journalRows = () => page.getByTestId('journal-row').count();
    await expect.poll(journalRows, { timeout: 10_000 }).toBeGreaterThan(0);
    const signedBefore = await journalRows();
    // Disarmed: Shift+B sends nothing and says why.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Shift+B');
    await expect.poll(async () => (await notices()).join(' '), { timeout: 5000 }).toMatch(/Hotkey buy not sent: trading is not armed/);
    await shot('09-hotkey-disarmed');
    await page.waitForTimeout(1000);
    expect(await journalRows()).toBe(signedBefore);
    // Armed: the same key trades, and the banner says the hotkeys are armed too.
    await page.getByTestId('ladder-arm').first().click();
    expect(await armedState()).toBe('true');
    expect(await page.getByTestId('ladder-armed-banner').first().textContent()).toMatch(/clicks and Shift\+B\/Shift\+S trade/);
    await page.keyboard.press('Shift+B');
    await confirmIfAsked();
    await expect.poll(journalRows, { timeout: 20_000 }).toBeGreaterThan(signedBefore);
    await page.getByTestId('tab-orders').click();
    // The kill switch disarms.
    await page.getByTestId('kill-switch').click();
    await page.getByTestId('kill-report').waitFor({ timeout: 30_000 });
    await page.getByTestId('kill-report-close').click();
    await expect.poll(armedState, { timeout: 5000 }).toBe('false');
    expect(await page.getByTestId('ladder-disarmed-note').first().textContent()).toMatch(/kill switch/);
    await shot('10-disarmed-by-kill-switch');
    // A market change disarms, and coming back does not re-arm.
    await page.getByTestId('ladder-arm').first().click();
    expect(await armedState()).toBe('true');
    await selectMarket(/ETH\/USDC/);
    expect(await page.getByTestId('ladder').first().getAttribute('data-armed')).toBe('false');
    await selectMarket(/BTC/);
    expect(await page.getByTestId('ladder').first().getAttribute('data-armed')).toBe('false');
    // A book change (canonical to Turbo) disarms, where the market has a Turbo book.
    await selectMarket(/ETH\/USDC/);
    if ((await page.getByTestId('turbo-toggle').first().getAttribute('data-available')) === 'true') {
      await page.getByTestId('ladder-arm').first().click();
      expect(await page.getByTestId('ladder').first().getAttribute('data-armed')).toBe('true');
      await page.getByTestId('turbo-toggle-turbo').first().click();
      await expect.poll(() => page.getByTestId('ladder').first().getAttribute('data-book'), { timeout: 10_000 }).toBe('turbo');
      expect(await page.getByTestId('ladder').first().getAttribute('data-armed')).toBe('false');
      await page.getByTestId('turbo-toggle-canonical').first().click();
      await expect.poll(() => page.getByTestId('ladder').first().getAttribute('data-book'), { timeout: 10_000 }).toBe('canonical');
      expect(await page.getByTestId('ladder').first().getAttribute('data-armed')).toBe('false');
    }
  });

  it('keeps a journal of every signed action', async () => {
    await page.getByTestId('tab-journal').click();
    await expect.poll(() => page.getByTestId('journal-row').count(), { timeout: 10_000 }).toBeGreaterThan(4);
    await shot('08-journal');
    expect(pageErrors).toEqual([]);
  });
});
