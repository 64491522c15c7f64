// First run on a machine with no OS keychain (the host started with no D-Bus session, so no Secret
// Service answers): setup says in plain words what is missing and the exact commands that fix it
// on this OS (Debian here: apt-get), and a watch-only owner (no key stored) still works: it is
// registered and its account is read. Screenshot in test-results/screenshots/first-run.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from '../support/chromium';
import type { RunningHost } from '../support/browser-host';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';

describe.sequential('first run without an OS keychain', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    terminal = await openTerminal({ host: { keyring: false }, viewport: { width: 1400, height: 1000 } });
    ({ host, page, pageErrors } = terminal);
  }, 120_000);

  afterAll(() => terminal?.close());

  it('says what is missing and the exact command that fixes it on this OS', async () => {
    const callout = page.getByTestId('keychain-unavailable');
    await callout.waitFor({ timeout: 30_000 });
    const text = (await callout.textContent()) ?? '';
    expect(text).toMatch(/No OS keychain/);
    expect(text).toMatch(/Secret Service/);
    expect(text).toMatch(/never written in plain text/);
    const commands = await page.getByTestId('keychain-command').allTextContents();
    expect(commands[0]).toBe('sudo apt-get install gnome-keyring libsecret-1-0 dbus-user-session');
    expect(commands.some((command) => command.includes('gnome-keyring-daemon --unlock'))).toBe(true);
    // Creating or importing a key is not offered: there is nowhere safe to keep it.
    expect(await page.getByTestId('owner-mode-create').count()).toBe(0);
    expect(await page.getByTestId('owner-mode-import').count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'first-run', '01-no-keychain.png') });
  });

  it('still registers a watch-only owner and reads its account', async () => {
    const address = `0x${'3c'.repeat(32)}`;
    await page.getByTestId('owner-watch-address').fill(address);
    await page.getByTestId('onboarding-watch-only').click();
    const step = page.getByTestId('onboarding-step-owner');
    await expect.poll(() => step.getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
    expect((await step.textContent()) ?? '').toContain(address.slice(0, 10));
    // Its (absent) trade account is looked up on the exchange: the next step is offered.
    await page.getByTestId('onboarding-create-account').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'first-run', '02-watch-only.png') });
    expect(host.output.join('\n')).toMatch(/No OS keychain/);
    expect(pageErrors).toEqual([]);
  });
});
