// The one way an end-to-end suite starts the app: the real browser host (real main services, its
// embedded sandbox, a keychain in its own D-Bus session or none at all), Debian's Chromium on the
// app's page unless asked for none, and as asked a bridge client, the sandbox's control surface, a
// pinned maker, onboarding through the page and waits for the ladder's book and the ticket's funds.
// Every wait is on a condition. `close()` stops whatever was started; a failure part-way stops it too before rethrowing.
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
  /** Launch Chromium and open the page (default); `false` starts the host (and a bridge if asked) only. */
  readonly browser?: boolean;
  /** Go to the app's page once it is open (default); `false` leaves the page blank for the test to load. */
  readonly navigate?: boolean;
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
  /** The running host (a new one after `restartHost`). */
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
  /**
   * Stop the host (or kill it, `crash`) and start it again on the same data directory and options,
   * the browser kept open; `whileDown` runs in between. The bridge and control surface reconnect.
   */
  restartHost(how?: { readonly crash?: boolean; readonly whileDown?: () => Promise<void> }): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_VIEWPORT = { width: 1600, height: 1000 } as const;
/** Playwright's own default, for suites that measure windows at it. */
export const CHROMIUM_DEFAULT_VIEWPORT = { width: 1280, height: 720 } as const;

export async function openTerminal(options: OpenTerminalOptions = {}): Promise<OpenTerminal> {
  let host: RunningHost | undefined;
  let bridge: BridgeClient | undefined;
  let control: SandboxControl | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    bridge?.close();
    await browser?.close().catch(() => undefined);
    await host?.stop();
  };
  const hostOptions = options.host ?? {};
  const wantsControl = options.control === true || options.maker === 'pinned';
  const wantsBridge = options.bridge === true || wantsControl;
  const args = wantsControl ? ['--sandbox-control', ...(hostOptions.args ?? [])] : hostOptions.args;
  const boot = async (dataDir: string | undefined) => {
    host = await startHost({ ...hostOptions, ...(dataDir === undefined ? {} : { dataDir }), ...(args === undefined ? {} : { args }) });
    if (wantsBridge) bridge = await connectBridge(host);
  };
  try {
    await boot(hostOptions.dataDir);
    const pageErrors: string[] = [];
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    if (options.browser !== false) {
      browser = await launchChromium();
      context = await browser.newContext({ viewport: options.viewport ?? DEFAULT_VIEWPORT });
      page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(String(error)));
      if (options.navigate !== false) await page.goto(host!.url);
    }
    if (wantsControl) control = await sandboxControl(bridge!.api);
    if (options.maker === 'pinned') await pinMaker(control!);
    const needPage = (): Page => {
      if (!page) throw new Error('openTerminal was asked for no browser ({ browser: false })');
      return page;
    };
    if (options.onboard) await onboard(needPage());
    if (options.book) await waitForBook(needPage());
    if (options.funds) await waitForFunds(needPage());
    const launched = browser;
    const opened = context;
    const needBridge = (): BridgeClient => {
      if (!bridge) throw new Error('openTerminal was not asked for a bridge ({ bridge: true } or { control: true })');
      return bridge;
    };
    return {
      get host() {
        return host!;
      },
      get browser() {
        if (!launched) throw new Error('openTerminal was asked for no browser ({ browser: false })');
        return launched;
      },
      get context() {
        if (!opened) throw new Error('openTerminal was asked for no browser ({ browser: false })');
        return opened;
      },
      get page() {
        return needPage();
      },
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
      restartHost: async (how = {}) => {
        const { dataDir } = host!;
        bridge?.close();
        bridge = undefined;
        if (how.crash) await host!.crash();
        else await host!.stop();
        host = undefined;
        await how.whileDown?.();
        await boot(dataDir);
        if (wantsControl) control = await sandboxControl(bridge!.api);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
