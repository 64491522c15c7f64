// Driving the app's page in Chromium the way a trader does, for the end-to-end suites: onboarding
// through account setup, the confirmation dialog, screenshots per suite, and the sandbox's control
// surface (its URL read from main through the bridge, as the app knows it).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { TerminalApi } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import { SCREENSHOT_DIR } from './chromium';

export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

/** The page's document as functions sent to the page see it (test files compile without the DOM library). */
interface PageElement {
  getAttribute(name: string): string | null;
  readonly textContent: string | null;
}
declare const document: { querySelector(selector: string): PageElement | null };

export function stepDone(page: Page, id: string, timeout = 30_000): Promise<unknown> {
  return page.waitForFunction((wanted) => document.querySelector(`[data-testid=onboarding-step-${wanted}]`)?.getAttribute('data-state') === 'done', id, { timeout });
}

/** Accept the order confirmation when the settings ask for one (waiting `timeout` ms for it to show). */
export async function confirmIfAsked(page: Page, timeout = 3000): Promise<void> {
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor({ timeout }).catch(() => undefined);
  if (await dialog.count()) await page.getByTestId('confirm-accept').click();
}

/** A USDC price as the terminal shows it, "3,003.18", in raw quote units (6 decimals). */
export function rawUsdcPrice(text: string): bigint {
  const match = /([\d,]+)\.(\d{2})/.exec(text);
  if (!match) throw new Error(`no price in ${JSON.stringify(text)}`);
  return BigInt(match[1]!.replaceAll(',', '')) * 1_000_000n + BigInt(match[2]!) * 10_000n;
}

export type SetupStep = 'owner' | 'account' | 'funds' | 'whitelist' | 'session';

/** Run these steps of account setup in order (the page shows account setup), skipping those done or not needed. */
export async function runSetup(page: Page, steps: readonly SetupStep[]): Promise<void> {
  await page.getByTestId('onboarding').waitFor({ timeout: 30_000 });
  const buttons: Record<SetupStep, string> = {
    owner: 'onboarding-create-key',
    account: 'onboarding-create-account',
    funds: 'onboarding-mint',
    whitelist: 'onboarding-whitelist',
    session: 'onboarding-create-session',
  };
  for (const step of steps) {
    const state = await page.getByTestId(`onboarding-step-${step}`).getAttribute('data-state');
    if (state === 'done' || state === 'not-needed') continue;
    await page.getByTestId(buttons[step]).click();
    await stepDone(page, step);
  }
}

/** From an empty keychain: owner key, trading account, test funds, whitelisting, session; back to the workspace. */
export async function onboard(page: Page): Promise<void> {
  await runSetup(page, ['owner', 'account', 'funds', 'whitelist', 'session']);
  await page.getByTestId('close-setup').click();
  await page.getByTestId('workspace').waitFor({ timeout: 30_000 });
}

/**
 * Wait until the ticket shows funds to trade with (the faucet's mint has reached the account's
 * balances): a buy is refused before signing while nothing is available, as a trader would see.
 */
export async function waitForFunds(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(() => /[1-9]/.test(document.querySelector('[data-testid=ticket-available]')?.textContent ?? ''), undefined, { timeout });
}

/** Wait until the ladder shows its book: a best-bid row (the maker's quotes reached the window). */
export async function waitForBook(page: Page, timeout = 60_000): Promise<void> {
  await page.locator('[data-testid=ladder-row].best-bid').first().waitFor({ timeout });
}

/** Screenshots of one suite under test-results/screenshots/<suite>/<name>.png. */
export function screenshots(page: () => Page, suite: string): (name: string) => Promise<string> {
  const directory = join(SCREENSHOT_DIR, suite);
  mkdirSync(directory, { recursive: true });
  return async (name) => {
    const path = join(directory, `${name}.png`);
    await page().screenshot({ path });
    return path;
  };
}

/** The sandbox's control surface (`--sandbox-control`), at the URL main reports for the active network. */
export interface SandboxControl {
  readonly url: string;
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  get(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

export async function sandboxControl(api: TerminalApi): Promise<SandboxControl> {
  const networks = value(await api.listNetworks({}));
  const url = networks.find((network) => network.active)?.restUrl;
  if (!url) throw new Error('the active network has no REST address (is the sandbox running?)');
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { url, post: (path, body) => call('POST', path, body), get: (path) => call('GET', path) };
}

/** The maker posts a fresh full book and holds it still: what a test trades against is known. */
export async function pinMaker(control: SandboxControl): Promise<void> {
  const answer = await control.post('/control/maker', { pinned: true });
  if (answer.status !== 200) throw new Error(`pinning the sandbox's maker: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/** Poll `probe` until it returns something truthy. */
export async function until<T>(probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
