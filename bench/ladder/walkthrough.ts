// Not a benchmark: the trader's walk through the real app (browser host, real main services,
// real sandbox, Debian's Chromium), with a screenshot at each screen, used to check the renderer
// as main's handlers land. Onboarding (owner key, trade account, faucet with its cooldown,
// whitelist, session), an order from the ticket through the confirmation, a click-to-trade order
// on the armed ladder, the own-order marker, a drag that moves it, a click that cancels it,
// hotkeys (ignored while typing; post-only toggle; sell at best refused at the confirmation),
// grouping, the kill switch and its report, journal, fills and history.
// Run: `npx tsx bench/ladder/walkthrough.ts` (builds first: `npx electron-vite build`).
// Prints one line per step (ok / FAIL) and exits non-zero when a step failed.
// It belongs with the end-to-end tests (test/e2e) once their owner adopts it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../test/support/chromium';
import { startHost } from '../../test/support/browser-host';

/** The page's document, as the functions sent to the page see it (this file compiles without the DOM library). */
interface PageElement {
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
}
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
};

const SCREENS = join(import.meta.dirname, '../../test-results/screenshots/walkthrough');

async function rowIndex(page: Page, price: string | null): Promise<number> {
  return page.locator('[data-testid=ladder-row]').evaluateAll((rows, wanted) => rows.findIndex((row) => row.getAttribute('data-price') === wanted), price);
}

async function stepState(page: Page, id: string): Promise<string | null> {
  return page.getByTestId(`onboarding-step-${id}`).getAttribute('data-state');
}

export async function walk(): Promise<{ passed: number; failed: number }> {
  mkdirSync(SCREENS, { recursive: true });
  const host = await startHost();
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  let passed = 0;
  let failed = 0;
  const shot = (name: string) => page.screenshot({ path: join(SCREENS, `${name}.png`) });
  const step = async (name: string, action: () => Promise<unknown>) => {
    try {
      await action();
      passed++;
      console.log(`ok   ${name}`);
    } catch (error) {
      failed++;
      console.log(`FAIL ${name}: ${String(error).split('\n')[0]}`);
      await shot(`failed-${name.replaceAll(' ', '-')}`);
    }
  };
  const waitForStep = (id: string) => page.waitForFunction((wanted) => document.querySelector(`[data-testid=onboarding-step-${wanted}]`)?.getAttribute('data-state') === 'done', id, { timeout: 20_000 });
  const confirmIfAsked = async () => {
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 5000 }).catch(() => undefined);
    if (await dialog.count()) await page.getByTestId('confirm-accept').click();
  };

  try {
    await page.goto(host.url);
    await page.getByTestId('onboarding').waitFor({ timeout: 20_000 });
    await shot('01-setup');
    await step('create an owner key', async () => {
      await page.getByTestId('onboarding-create-key').click();
      await waitForStep('owner');
    });
    await step('create the trade account', async () => {
      await page.getByTestId('onboarding-create-account').click();
      await waitForStep('account');
    });
    await step('mint from the faucet, then hit its cooldown', async () => {
      await page.getByTestId('onboarding-mint').click();
      await waitForStep('funds');
      await page.getByTestId('onboarding-mint').click();
      await page.getByTestId('onboarding-error-funds').waitFor({ timeout: 10_000 });
      await shot('02-faucet-cooldown');
    });
    await step('whitelist', async () => {
      if ((await stepState(page, 'whitelist')) === 'done') return;
      await page.getByTestId('onboarding-whitelist').click();
      await waitForStep('whitelist');
    });
    await step('create a session', async () => {
      await page.getByTestId('onboarding-create-session').click();
      await page.getByTestId('session-info').waitFor({ timeout: 20_000 });
      await shot('03-session');
    });
    await step('open the workspace', async () => {
      await page.getByTestId('close-setup').click();
      await page.getByTestId('workspace').waitFor();
      await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 20_000 });
      await page.getByTestId('tab-balances').click();
      await page.getByTestId('balance-row').first().waitFor({ timeout: 10_000 });
      await shot('04-balances');
      await page.getByTestId('tab-orders').click();
    });
    await step('place an order from the ticket', async () => {
      await page.getByTestId('ticket-quantity').fill('0.1');
      await page.getByTestId('ticket-price-bid').click();
      await shot('05-ticket');
      await page.getByTestId('ticket-submit').click();
      await confirmIfAsked();
      await page.getByTestId('open-order-row').first().waitFor({ timeout: 20_000 });
      await shot('06-order');
    });
    await step('click-to-trade on the armed ladder', async () => {
      await page.getByTestId('ladder-arm').click();
      const best = await page.locator('[data-testid=ladder-row].best-bid').getAttribute('data-price');
      const target = page.locator('[data-testid=ladder-row]').nth((await rowIndex(page, best)) + 3);
      const before = await page.getByTestId('open-order-row').count();
      await target.getByTestId('bid-cell').click();
      await confirmIfAsked();
      await page.waitForFunction((count) => document.querySelectorAll('[data-testid=open-order-row]').length > count, before, { timeout: 20_000 });
      await page.locator('[data-testid=own-order]').first().waitFor({ timeout: 10_000 });
      await shot('07-ladder-order');
    });
    await step('drag an own order to another row', async () => {
      const marker = page.locator('[data-testid=own-order]').first();
      const fromPrice = await marker.locator('xpath=..').getAttribute('data-price');
      const moved = (await marker.getAttribute('data-order-ids')) ?? '';
      const target = page.locator('[data-testid=ladder-row]').nth((await rowIndex(page, fromPrice)) + 2);
      const toPrice = await target.getAttribute('data-price');
      const from = await marker.boundingBox();
      const to = await target.locator('.own-buy').boundingBox();
      if (!from || !to) throw new Error('marker or target row not on screen');
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
      await page.mouse.up();
      await page.waitForFunction(
        ([price, old]) =>
          [...document.querySelectorAll('[data-testid=ladder-row]')].some((row) => {
            const own = row.querySelector('[data-testid=own-order]');
            return row.getAttribute('data-price') === price && own !== null && !(own.getAttribute('data-order-ids') ?? '').includes(old ?? '');
          }),
        [toPrice, moved] as const,
        { timeout: 20_000 },
      );
      await shot('07b-moved');
    });
    await step('click an own order to cancel it', async () => {
      const before = await page.getByTestId('open-order-row').count();
      await page.locator('[data-testid=own-order]').first().click();
      await page.waitForFunction((count) => document.querySelectorAll('[data-testid=open-order-row]').length < count, before, { timeout: 20_000 });
    });
    await step('hotkeys: none while typing, post-only toggle, sell at best refused at the confirmation', async () => {
      await page.getByTestId('ticket-quantity').click();
      await page.keyboard.press('Shift+P');
      if ((await page.getByTestId('ticket-type').inputValue()) !== 'Limit') throw new Error('a hotkey fired while typing');
      // The keys went into the field, as they should: put the quantity back.
      await page.getByTestId('ticket-quantity').fill('0.1');
      await page.locator('.ladder-head').click();
      await page.keyboard.press('Shift+P');
      if ((await page.getByTestId('ticket-type').inputValue()) !== 'PostOnly') throw new Error('Shift+P did not switch to post-only');
      await page.keyboard.press('Shift+P');
      const before = await page.getByTestId('open-order-row').count();
      await page.keyboard.press('Shift+S');
      await page.getByTestId('confirm-dialog').waitFor({ timeout: 5000 });
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
      if ((await page.getByTestId('open-order-row').count()) !== before) throw new Error('a refused confirmation still placed an order');
    });
    await step('group the ladder by 10', async () => {
      await page.getByTestId('ladder-precision').selectOption({ label: '10' });
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=ladder-row]')].every((row) => BigInt(row.getAttribute('data-price') ?? '1') % 10_000_000n === 0n), undefined, { timeout: 10_000 });
      await shot('07c-grouped');
    });
    await step('kill switch', async () => {
      await page.getByTestId('ticket-quantity').fill('0.1');
      await page.getByTestId('ticket-price-bid').click();
      await page.getByTestId('ticket-submit').click();
      await confirmIfAsked();
      await page.getByTestId('open-order-row').first().waitFor({ timeout: 20_000 });
      await page.getByTestId('kill-switch').click();
      await page.getByTestId('kill-report').waitFor({ timeout: 20_000 });
      await shot('08-kill-report');
      await page.getByTestId('kill-report-close').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=open-order-row]').length === 0, undefined, { timeout: 20_000 });
    });
    for (const tab of ['journal', 'fills', 'history'] as const) {
      await step(`${tab} tab`, async () => {
        await page.getByTestId(`tab-${tab}`).click();
        await page.waitForTimeout(800);
        await shot(`09-${tab}`);
      });
    }
  } finally {
    if (pageErrors.length > 0) console.log(`page errors:\n${pageErrors.join('\n')}`);
    await browser.close();
    await host.stop();
  }
  return { passed, failed: failed + (pageErrors.length > 0 ? 1 : 0) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  walk().then(
    ({ passed, failed }) => {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed > 0 ? 1 : 0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
