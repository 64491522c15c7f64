// The set-up every end-to-end suite of the main window shares: the real browser host (real main
// services, its embedded sandbox, a keychain in its own D-Bus session or none at all), Debian's
// Chromium on the app's page, and as asked a bridge client, the sandbox's control surface, a pinned maker, onboarding
// through the page and waits for the ladder's book and the ticket's funds. Every wait is on a
// condition. `close()` stops whatever was started; a failure part-way stops it too before rethrowing.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TerminalApi } from '../../shared/ipc/contract';
import type { Market } from '../../shared/market/market';
import { connectBridge, type BridgeClient } from './bridge-client';
import { startHost, type RunningHost } from './browser-host';
import { launchChromium } from './chromium';
import { onboard, pinMaker, sandboxControl, until, waitForBook, waitForFunds, type SandboxControl } from './terminal-page';

export interface OpenTerminalOptions {
  /** startHost's options: a data directory or keyring directory to reuse, no keychain at all, extra CLI flags. */
  readonly host?: Parameters<typeof startHost>[0];
  /** Start the sandbox with its control surface (`--sandbox-control`) and read it (implies `bridge`). */
  readonly control?: boolean;
  /**
   * 'pinned': the sandbox's maker posts a fresh full book and holds it (`POST /control/maker`), so
   * fills do not depend on its timers under load (implies `control`).
   */
  readonly maker?: 'pinned';
  /** Connect a bridge client from Node (the same frames, token and origin checks as the page's). */
  readonly bridge?: boolean;
  /** The page's viewport (also the default of windows the page opens); 1600 × 1000 unless given. */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Onboard through the page from an empty keychain (owner key … session) and return to the workspace. */
  readonly onboard?: boolean;
  /** Wait until the ladder shows its book (a best-bid row). */
  readonly book?: boolean;
  /** Wait until the ticket shows funds to trade with (the faucet's mint reached the balances). */
  readonly funds?: boolean;
}

export interface OpenTerminal {
  readonly host: RunningHost;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught errors of the page, in order; suites assert it stays empty. */
  readonly pageErrors: string[];
  /** The bridge client (asked for with `bridge` or `control`; throws otherwise). */
  readonly bridge: BridgeClient;
  readonly api: TerminalApi;
  /** The sandbox's control surface (asked for with `control`; throws otherwise). */
  readonly control: SandboxControl;
  /** The exchange's markets as main lists them, once it lists any. */
  markets(): Promise<Market[]>;
  close(): Promise<void>;
}

export const DEFAULT_VIEWPORT = { width: 1600, height: 1000 } as const;

export async function openTerminal(options: OpenTerminalOptions = {}): Promise<OpenTerminal> {
  let host: RunningHost | undefined;
  let bridge: BridgeClient | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    bridge?.close();
    await browser?.close().catch(() => undefined);
    await host?.stop();
  };
  try {
    const hostOptions = options.host ?? {};
    const wantsControl = options.control === true || options.maker === 'pinned';
    const args = wantsControl ? ['--sandbox-control', ...(hostOptions.args ?? [])] : hostOptions.args;
    host = await startHost({ ...hostOptions, ...(args === undefined ? {} : { args }) });
    if (options.bridge || wantsControl) bridge = await connectBridge(host);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: options.viewport ?? DEFAULT_VIEWPORT });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    await page.goto(host.url);
    const control = wantsControl && bridge ? await sandboxControl(bridge.api) : undefined;
    if (options.maker === 'pinned') await pinMaker(control!);
    if (options.onboard) await onboard(page);
    if (options.book) await waitForBook(page);
    if (options.funds) await waitForFunds(page);
    const connected = bridge;
    const needBridge = (): BridgeClient => {
      if (!connected) throw new Error('openTerminal was not asked for a bridge ({ bridge: true } or { control: true })');
      return connected;
    };
    return {
      host,
      browser,
      context,
      page,
      pageErrors,
      get bridge() {
        return needBridge();
      },
      get api() {
        return needBridge().api;
      },
      get control() {
        if (!control) throw new Error('openTerminal was not asked for the sandbox control surface ({ control: true })');
        return control;
      },
      markets: () =>
        until(async () => {
          const listed = await needBridge().api.listMarkets({});
          return listed.ok && listed.value.markets.length > 0 ? [...listed.value.markets] : null;
        }, 'the markets'),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
