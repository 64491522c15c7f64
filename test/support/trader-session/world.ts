// The world a random trader session runs in: the real browser host (real main services, real
// keychain in its own D-Bus session, the embedded sandbox with its market maker and control
// surface), Debian's Chromium on the app's page, a bridge client for set-up reads, and an account
// onboarded through the page. Shared by the e2e test (test/e2e/trader-session.test.ts) and the long
// run (bench/trader-session.ts).
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Market } from '../../../shared/market/market';
import type { BridgeClient } from '../bridge-client';
import { confirmWithHostCode, type RunningHost } from '../browser-host';
import { openTerminal } from '../open-terminal';
import { until, value, type SandboxControl } from '../terminal-page';

/** An address nothing listens on: the "other network" a trader switches to and back from. */
export const UNREACHABLE_REST = 'http://127.0.0.1:9';

export interface World {
  readonly host: RunningHost;
  readonly bridge: BridgeClient;
  readonly browser: Browser;
  readonly context: BrowserContext;
  page: Page;
  readonly control: SandboxControl;
  readonly markets: readonly Market[];
  tradeAccountId: string;
  /**
   * The Turbo Account the trader opened a session on and trades Turbo books as (null without one,
   * or once an exchange restart forgot it).
   */
  turboAccountId: string | null;
  readonly pageErrors: string[];
  /** Lines of what the session did, for a failure's report. */
  readonly log: string[];
  stop(): Promise<void>;
}

export interface WorldOptions {
  /** Register a Turbo Account through the Margin panel, open a prepaid session and trade Turbo books as it. */
  readonly turboAccount?: boolean;
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const terminal = await openTerminal({ control: true, onboard: true });
  const { host, bridge, browser, context, page, pageErrors, control } = terminal;
  try {
    const markets = await terminal.markets();
    // A step waits for what it needs with its own deadlines; an element that is not there (an order
    // that filled, a result not shown) must not hold a step for Playwright's default 30 s.
    context.setDefaultTimeout(10_000);
    context.setDefaultNavigationTimeout(60_000);
    // Orders go out without the confirmation step (the dialog is still accepted where it shows).
    // Turning confirmations off is itself confirmed with the code the host prints on its terminal.
    value(await confirmWithHostCode(host, (confirmationCode) => bridge.api.updateSettings({ confirmOrders: false, ...(confirmationCode === undefined ? {} : { confirmationCode }) })));
    // A second network the trader can switch to: configured, but nothing answers there.
    // (A new network address is confirmed the same way; plaintext is allowed on loopback only.)
    value(await confirmWithHostCode(host, (confirmationCode) => bridge.api.configureNetwork({ networkId: 'devnet', restUrl: UNREACHABLE_REST, wsUrl: 'ws://127.0.0.1:9', faucetUrl: null, ...(confirmationCode === undefined ? {} : { confirmationCode }) })));
    const account = value(await bridge.api.getAccountState({}));
    if (!account.tradeAccount) throw new Error('onboarding left no trading account');
    const turboAccountId = options.turboAccount ? await openTurboAccount(page) : null;
    return {
      host,
      bridge,
      browser,
      context,
      page,
      control,
      markets,
      tradeAccountId: account.tradeAccount.tradeAccountId,
      turboAccountId,
      pageErrors,
      log: [],
      stop: terminal.close,
    };
  } catch (error) {
    await terminal.close(); // nothing of a half-made world outlives the failure
    throw error;
  }
}

/** The embedded sandbox's process id: the child of the host's process group that runs the sandbox (built, or sandbox/cli.ts from source). */
export function sandboxPid(host: RunningHost): number | null {
  const group = host.child.pid;
  if (group === undefined) return null;
  const listing = execFileSync('ps', ['-o', 'pid=,args=', '-g', String(group)], { encoding: 'utf8' });
  for (const line of listing.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (match?.[2] !== undefined && /out\/main\/sandbox\.js|sandbox\/cli\.ts/.test(match[2]) && !match[2].includes('ps -o')) return Number(match[1]);
  }
  return null;
}

/**
 * As a trader does in the Margin panel (test/e2e/margin.test.ts): register a Turbo Account (the
 * trading session is recreated to name it), open a prepaid one-week session on tier 2, and select
 * it, so Turbo-book orders are signed as the Turbo Account. Returns its id.
 */
export async function openTurboAccount(page: Page): Promise<string> {
  await page.getByTestId('tab-margin').click();
  await page.getByTestId('margin-panel').waitFor({ timeout: 30_000 });
  await page.getByTestId('margin-manager-register').click({ timeout: 30_000 });
  await until(async () => (await page.getByTestId('margin-account').count()) === 1, 'the Turbo Account to be registered', 60_000);
  const card = page.getByTestId('margin-account');
  const account = (await card.getAttribute('data-account')) ?? '';
  await card.getByTestId('margin-open-tier').selectOption('2');
  await card.getByTestId('margin-open-period').selectOption('Week');
  await card.getByTestId('margin-open-submit').click({ timeout: 30_000 });
  await until(async () => (await card.getAttribute('data-session')) === 'active', 'the Turbo session to open', 60_000);
  // The box shows main's selection, which arrives after the click: click, then wait for main to say so.
  await until(
    async () => {
      if ((await card.getAttribute('data-selected')) === 'true') return true;
      const box = card.getByTestId('margin-account-select');
      if (!(await box.isChecked())) await box.click({ timeout: 3000 }).catch(() => undefined);
      return false;
    },
    'the Turbo Account to be selected',
    30_000,
  );
  await page.getByTestId('tab-orders').click();
  return account;
}
