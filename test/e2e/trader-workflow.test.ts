// The trader's workflow in the real app (browser host, real sandbox, Chromium): positions from the
// fills with flatten (its confirmation names the book and the signing account), and amending a
// resting order from the open-orders table (cancel and create in one signed batch, the new order
// id shown). Screenshots go to test-results/screenshots/workflow.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, SCREENSHOT_DIR } from '../support/chromium';
import { startHost, type RunningHost } from '../support/browser-host';

interface PageElement {
  getAttribute(name: string): string | null;
}
declare const document: { querySelector(selector: string): PageElement | null };

describe.sequential('trader workflow in Chromium against the sandbox', () => {
  let host: RunningHost;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, 'workflow', `${name}.png`) });
  const stepDone = (id: string) =>
    page.waitForFunction((wanted) => document.querySelector(`[data-testid=onboarding-step-${wanted}]`)?.getAttribute('data-state') === 'done', id, { timeout: 30_000 });
  const confirmIfAsked = async () => {
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 5000 }).catch(() => undefined);
    if (await dialog.count()) await page.getByTestId('confirm-accept').click();
  };
  const placeFromTicket = async (quantity: string, priceButton: 'ticket-price-bid' | 'ticket-price-ask' | null, side: 'buy' | 'sell') => {
    await page.getByTestId(`ticket-side-${side}`).click();
    await page.getByTestId('ticket-quantity').fill(quantity);
    if (priceButton !== null) await page.getByTestId(priceButton).click();
    await page.getByTestId('ticket-submit').click();
    await confirmIfAsked();
  };

  beforeAll(async () => {
    host = await startHost();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    await page.goto(host.url);
    await page.getByTestId('onboarding').waitFor({ timeout: 30_000 });
    await page.getByTestId('onboarding-create-key').click();
    await stepDone('owner');
    await page.getByTestId('onboarding-create-account').click();
    await stepDone('account');
    await page.getByTestId('onboarding-mint').click();
    await stepDone('funds');
    if ((await page.getByTestId('onboarding-step-whitelist').getAttribute('data-state')) !== 'done') {
      await page.getByTestId('onboarding-whitelist').click();
      await stepDone('whitelist');
    }
    await page.getByTestId('onboarding-create-session').click();
    await stepDone('session');
    await page.getByTestId('close-setup').click();
    await page.getByTestId('workspace').waitFor();
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('shows the position built by fills, with entry, mark and P&L in the market decimals, and flattens it after a confirmation naming book and account', async () => {
    // Market orders: nothing rests, so the position is only what filled.
    await page.getByTestId('ticket-type').selectOption('Market');
    await placeFromTicket('0.05', null, 'buy');
    await page.getByTestId('ticket-result').waitFor({ timeout: 20_000 });
    await placeFromTicket('0.05', null, 'buy');
    await placeFromTicket('0.05', null, 'buy');
    await placeFromTicket('0.02', null, 'sell');
    await page.getByTestId('tab-positions').click();
    const row = page.getByTestId('position-row').first();
    await row.waitFor({ timeout: 30_000 });
    await expect.poll(async () => Number((await row.getAttribute('data-size')) ?? '0'), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('positions').getAttribute('data-freshness'), { timeout: 20_000 }).toBe('live');
    // Entry and mark carry the quote's meaningful decimals; P&L is signed.
    const entry = (await row.getByTestId('position-entry').textContent())!.trim();
    expect(entry).toMatch(/^\d{1,3}(,\d{3})*\.\d+$/);
    expect((await row.getByTestId('position-mark').textContent())!.trim()).toMatch(/^\d{1,3}(,\d{3})*\.\d+$/);
    expect((await row.getByTestId('position-unrealized').textContent())!.trim()).toMatch(/^[+-]?\d{1,3}(,\d{3})*\.\d+$/);
    expect((await row.getByTestId('position-realized').textContent())!.trim()).toMatch(/^[+-]?\d{1,3}(,\d{3})*\.\d+$/);
    await expect.poll(async () => (await row.textContent()) ?? '').toMatch(/Canonical.*Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}\s*\+0\.\d+/);
    await shot('01-positions');

    await row.getByTestId('flatten-position').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const question = (await dialog.textContent()) ?? '';
    expect(question).toMatch(/Flatten .*\(Canonical book\)/);
    expect(question).toMatch(/Sell [\d.]+ \w+ on .*Canonical book/);
    expect(question).toMatch(/Signed by Trading account 0x[0-9a-f]{4}…[0-9a-f]{4}; one signed batch/);
    await shot('02-flatten-confirm');
    await page.getByTestId('confirm-accept').click();
    // Closed down to a remainder below the market's step or minimum order, which is listed only with the closed ones.
    await expect.poll(async () => page.getByTestId('position-row').count(), { timeout: 30_000 }).toBe(0);
    await page.getByTestId('positions-show-flat').check();
    await page.getByTestId('position-row').first().waitFor();
    await shot('03-positions-flat');
    await page.getByTestId('positions-show-flat').uncheck();
    expect(pageErrors).toEqual([]);
  });
});
