// The app shell in Chromium over the browser host: the top bar keeps to one line from 1280 px to
// 1920 px (measured), and narrower it wraps without losing the kill switch, the connection or the
// session; a watch-only owner's setup leads to the session request for the offline signer; the
// new panels (Margin, Stops, Funds) leave the main window for windows of their own and come back.
// Screenshots: test-results/screenshots/shell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { addressOf } from '../../shared/crypto/address';
import { generatePrivateKey, publicKeyOf } from '../../shared/crypto/keys';
import { randomBytes } from 'node:crypto';
import type { RunningHost } from '../support/browser-host';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { runSetup, screenshots, stepDone } from '../support/terminal-page';

interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}
interface PageElement {
  getBoundingClientRect(): Box;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly clientHeight: number;
}
declare const document: { querySelector(selector: string): PageElement | null };
declare const window: { readonly innerWidth: number; readonly innerHeight: number };

/** The top bar's overflow and where the controls that must always show are. */
function measureTopBar(page: Page) {
  return page.evaluate(() => {
    const bar = document.querySelector('[data-testid=topbar]')!;
    const inView = (selector: string) => {
      const box = document.querySelector(selector)?.getBoundingClientRect();
      return box !== undefined && box.left >= 0 && box.right <= window.innerWidth && box.top >= 0 && box.bottom <= window.innerHeight;
    };
    return {
      overflow: bar.scrollWidth - bar.clientWidth,
      height: bar.clientHeight,
      kill: inView('[data-testid=kill-switch]'),
      connection: inView('[data-testid=connection]'),
      session: inView('[data-testid=session-expiry]'),
    };
  });
}

describe.sequential('the app shell in Chromium', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let context: BrowserContext;
  let page: Page;
  const shot = screenshots(() => page, 'shell');

  beforeAll(async () => {
    terminal = await openTerminal({ host: { args: ['--sandbox-control'] } });
    ({ host, context, page } = terminal);
  });

  afterAll(() => terminal?.close());

  it('keeps the top bar on one line from 1280 to 1920 px; narrower it wraps, kill switch, connection and session always in view', async () => {
    await page.getByTestId('close-setup').click();
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    for (const width of [1280, 1440, 1600, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(async () => (await measureTopBar(page)).overflow).toBeLessThanOrEqual(0);
      const bar = await measureTopBar(page);
      expect(bar, `${width} px`).toMatchObject({ kill: true, connection: true, session: true });
      expect(bar.height, `${width} px: one line`).toBeLessThan(44);
      await shot(`01-workspace-${width}`);
    }
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect.poll(async () => (await measureTopBar(page)).overflow).toBeLessThanOrEqual(0);
    expect(await measureTopBar(page)).toMatchObject({ kill: true, connection: true, session: true });
    // The drawers open below the bar however tall it is.
    await page.getByTestId('open-funds').click();
    const drawerTop = await page.getByTestId('funds-drawer').boundingBox();
    const barBox = await page.getByTestId('topbar').boundingBox();
    expect(drawerTop!.y).toBeGreaterThanOrEqual(barBox!.y + barBox!.height - 1);
    await shot('02-narrow-1024-funds');
    await page.getByTestId('funds-close').click();
    // The menu of the rest: fill sound and settings.
    await page.getByTestId('more-menu').click();
    await page.getByTestId('sound-toggle').waitFor();
    await shot('03-more-menu');
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings').waitFor();
    // Turning order confirmations off weakens a safety setting: the page asks for the code the host
    // printed on its own terminal (read here from the host's output, as the trader reads it there).
    const since = host.output.length;
    await page.getByTestId('settings-confirm').uncheck();
    await page.getByTestId('host-code-dialog').waitFor();
    const { code, printed } = await host.confirmationCode(since);
    expect(printed).toContain('Confirm every order: on → off');
    await shot('03b-settings-host-code');
    await page.getByTestId('host-code-input').fill(code);
    await page.getByTestId('host-code-submit').click();
    await expect.poll(() => page.getByTestId('settings-confirm').isChecked()).toBe(false);
    await expect.poll(() => page.getByTestId('host-code-dialog').count()).toBe(0);
    // Turning them back on tightens: no code.
    await page.getByTestId('settings-confirm').check();
    await expect.poll(() => page.getByTestId('settings-confirm').isChecked()).toBe(true);
    expect(await page.getByTestId('host-code-dialog').count()).toBe(0);
    await page.getByTestId('settings-close').click();
    await page.setViewportSize({ width: 1600, height: 1000 });
  });

  it('a watch-only owner: setup leads to the session request for the offline signer', async () => {
    const address = addressOf(publicKeyOf(generatePrivateKey((length) => new Uint8Array(randomBytes(length)))), 'ledger');
    await page.getByTestId('open-setup').click();
    await page.getByTestId('owner-mode-watch').click();
    await page.getByTestId('owner-watch-address').fill(address);
    await page.getByTestId('onboarding-watch-only').click();
    await stepDone(page, 'owner');
    await runSetup(page, ['account', 'funds', 'whitelist']);
    await page.getByTestId('watch-only-session').waitFor({ timeout: 20_000 });
    await page.getByTestId('session-request-form').waitFor();
    await page.getByTestId('session-prepare').click();
    await expect.poll(() => page.getByTestId('pending-request-state').first().textContent(), { timeout: 20_000 }).toBe('AWAITING SIGNATURE');
    await page.getByTestId('import-signature-text').waitFor();
    await page.getByTestId('watch-only-session').scrollIntoViewIfNeeded();
    await shot('04-watch-only-session-request');
    await page.getByTestId('close-setup').click();
    const bar = await measureTopBar(page);
    expect(bar.overflow).toBeLessThanOrEqual(0);
    expect(bar).toMatchObject({ kill: true, connection: true, session: true });
  });

  it('detaches the Margin, Stops and Funds panels into windows of their own and docks them back', async () => {
    await page.locator('[data-testid=ladder-row].best-bid').waitFor({ timeout: 30_000 });
    const detach = async (kind: string, open: () => Promise<void>): Promise<Page> => {
      await open();
      const [popup] = await Promise.all([context.waitForEvent('page', { timeout: 15_000 }), page.getByTestId(`detach-${kind}`).click()]);
      await popup.setViewportSize({ width: 1000, height: 760 });
      await popup.waitForLoadState();
      await expect.poll(() => popup.getByTestId('panel-window').getAttribute('data-panel'), { timeout: 20_000 }).toBe(kind);
      await expect.poll(() => page.getByTestId(`detached-${kind}`).count(), { timeout: 15_000 }).toBe(1);
      return popup;
    };
    const dock = async (window: Page, kind: string) => {
      const closed = window.waitForEvent('close', { timeout: 15_000 });
      await window.getByTestId('dock-window').click();
      await closed;
      await expect.poll(() => page.getByTestId(`detached-${kind}`).count(), { timeout: 15_000 }).toBe(0);
    };

    const margin = await detach('margin', () => page.getByTestId('tab-margin').click());
    await margin.getByTestId('margin-manager').waitFor({ timeout: 20_000 });
    await shot('05-main-with-margin-detached');
    await screenshots(() => margin, 'shell')('06-margin-window');
    await dock(margin, 'margin');
    await page.getByTestId('margin-panel').waitFor();

    const stops = await detach('stops', () => page.getByTestId('tab-stops').click());
    await stops.getByTestId('stop-form').waitFor({ timeout: 20_000 });
    await shot('07-main-with-stops-detached');
    await screenshots(() => stops, 'shell')('08-stops-window');
    await dock(stops, 'stops');
    await page.getByTestId('stop-form').waitFor();

    const funds = await detach('funds', () => page.getByTestId('open-funds').click());
    await funds.getByTestId('funds-panel').waitFor({ timeout: 20_000 });
    await funds.getByTestId('deposit-instructions').waitFor({ timeout: 20_000 });
    await shot('09-main-with-funds-detached');
    await screenshots(() => funds, 'shell')('10-funds-window');
    await dock(funds, 'funds');
    await page.getByTestId('funds-panel').waitFor();
    await page.getByTestId('funds-close').click();
  });
});
