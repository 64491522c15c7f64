// The desk the four-window bench and the soak run: the real app through the browser host (the
// build, real main services, the embedded sandbox) with the sandbox's maker at ten times its usual
// rate of takes, an account onboarded through the page, and four Chromium pages on the same host
// and feed: two ladders and the chart, each a panel window main opened (openPanelWindow, as the
// detach button asks) and loaded in a page of its own, and the main window, which keeps the tape
// (with the ticket and blotter beside it; a panel kind in a window of its own leaves main). All
// four show the same market.
import type { BrowserContext, Page } from 'playwright-core';
import type { Market } from '../shared/market/market';
import { ensureBuilt } from '../scripts/build-stamp.mjs';
import { openTerminal, type OpenTerminal } from '../test/support/open-terminal';
import { value } from '../test/support/terminal-page';

/** The sandbox's usual takes per second per market (docs/sandbox.md `--maker-rate`). */
export const USUAL_MAKER_RATE = 2;
export const MAKER_RATE = 10 * USUAL_MAKER_RATE;

export type WindowName = 'ladder 1' | 'ladder 2' | 'chart' | 'tape (main window)';

export interface DeskWindow {
  readonly name: WindowName;
  readonly page: Page;
}

export interface FourWindows {
  readonly terminal: OpenTerminal;
  readonly market: Market;
  readonly windows: readonly DeskWindow[];
  close(): Promise<void>;
}

const PANEL_SIZE = { width: 900, height: 760 } as const;

/**
 * A panel window main opened, loaded in a browser context of its own. Headless Chromium draws only
 * the front page of a context at the display's rate: the others got an animation frame every
 * 100–200 ms (measured on this desk: the front page 16.7 ms, and bringToFront moved the 16.7 ms to
 * another page), so they measured a throttled page, not ours. A context per window draws each
 * window as its own window is drawn on a desktop.
 */
async function openPanel(terminal: OpenTerminal, panel: 'ladder' | 'chart' | 'tape', ready: string, initScript: string | undefined): Promise<Page> {
  const opened = value(await terminal.api.openPanelWindow({ panel, size: PANEL_SIZE }));
  if (opened.url === null) throw new Error(`four windows: main gave no page for the ${panel} window`);
  const context: BrowserContext = await terminal.browser.newContext({ viewport: PANEL_SIZE });
  if (initScript !== undefined) await context.addInitScript({ content: initScript });
  const page = await context.newPage();
  await page.goto(opened.url);
  await page.locator(`[data-testid=panel-window][data-panel=${panel}]`).waitFor({ timeout: 30_000 });
  await page.locator(ready).first().waitFor({ timeout: 60_000, state: 'attached' });
  return page;
}

/**
 * Build when sources changed, start the host with the maker at `makerRate` takes a second per
 * market, onboard, and open the four windows. `hostNodeArgs`: Node flags for the host process
 * (the soak's --expose-gc); `hostArgs`: more host flags; `initScript`: a script every page runs
 * before the app's own (the main window is reloaded for it after onboarding).
 */
export async function openFourWindows(
  options: { makerRate?: number; hostNodeArgs?: string; hostArgs?: readonly string[]; initScript?: string; log?: (line: string) => void } = {},
): Promise<FourWindows> {
  const log = options.log ?? (() => undefined);
  if (!ensureBuilt({ log })) throw new Error('four windows: the build failed; the host serves the built app');
  const previousNodeArgs = process.env.LT_HOST_NODE_ARGS;
  if (options.hostNodeArgs !== undefined) process.env.LT_HOST_NODE_ARGS = options.hostNodeArgs;
  let terminal: OpenTerminal;
  try {
    terminal = await openTerminal({
      host: { args: ['--sandbox-maker-profile', 'realistic', '--sandbox-maker-rate', String(options.makerRate ?? MAKER_RATE), ...(options.hostArgs ?? [])] },
      bridge: true,
      onboard: true,
      book: true,
      funds: true,
    });
  } finally {
    if (previousNodeArgs === undefined) delete process.env.LT_HOST_NODE_ARGS;
    else process.env.LT_HOST_NODE_ARGS = previousNodeArgs;
  }
  try {
    const markets = await terminal.markets();
    const main = terminal.page;
    if (options.initScript !== undefined) {
      await terminal.context.addInitScript({ content: options.initScript });
      await main.reload();
    }
    await main.locator('[data-testid=ladder][data-freshness=live]').first().waitFor({ timeout: 60_000, state: 'attached' });
    const marketId = await main.getByTestId('ladder').first().getAttribute('data-market-id');
    const market = markets.find((candidate) => candidate.market_id === marketId) ?? markets[0]!;
    const liveRow = '[data-testid=ladder][data-freshness=live] [data-testid=ladder-row].best-bid';
    const ladder1 = await openPanel(terminal, 'ladder', liveRow, options.initScript);
    const ladder2 = await openPanel(terminal, 'ladder', liveRow, options.initScript);
    const chart = await openPanel(terminal, 'chart', '[data-testid=chart-panel]', options.initScript);
    await main.locator('[data-testid=tape][data-freshness=live]').waitFor({ timeout: 60_000, state: 'attached' });
    return {
      terminal,
      market,
      windows: [
        { name: 'ladder 1', page: ladder1 },
        { name: 'ladder 2', page: ladder2 },
        { name: 'chart', page: chart },
        { name: 'tape (main window)', page: main },
      ],
      close: () => terminal.close(),
    };
  } catch (error) {
    await terminal.close();
    throw error;
  }
}
