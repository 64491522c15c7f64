// One seeded random trader session: fast-check picks sequences of trader actions, runs each on
// the app in Chromium, and the oracle checks the screen after every step. A failing sequence is
// shrunk to a short one and reported with its seed and path (replay: the same seed and path).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { SCREENSHOT_DIR } from '../chromium';
import { value } from '../terminal-page';
import { BLOTTER_TABS, DETACHABLE, dockPanel, initialModel, runOracle, setUpAgain, toWorkspace, traderCommands, type Model, type Real } from './commands';
import { Truth } from './truth';
import { algoChildIds } from './steps/algos';
import type { Market } from '../../../shared/market/market';
import type { World } from './world';

/** The page's document as functions sent to the page see it (test files compile without the DOM library). */
declare const document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

export interface SessionOptions {
  readonly seed: number;
  readonly numRuns: number;
  readonly maxCommands: number;
  /** How long a panel may take to show the truth before it must be marked. */
  readonly boundMs: number;
  readonly restart: boolean;
  /** Pick the actions with a contract on the exchange more often (a short run meets more of them). */
  readonly favourContracts?: boolean;
  /** Replay one failing case: the `path` fast-check printed with the seed. */
  readonly path?: string;
  readonly print?: (line: string) => void;
  /**
   * Start no new run after this long (ms), shrinking included: the report then has the shortest
   * sequence found so far. A sequence already running is finished, never cut off mid-step (an
   * interrupted sequence would go on acting on the page while the next one starts).
   */
  readonly timeLimitMs?: number;
  /** Shrink a failure for at most this long (ms) after it was first seen. */
  readonly shrinkLimitMs?: number;
  /** A fixed list of steps instead of the generator's (a probe of one scenario, repeated numRuns times). */
  readonly commands?: readonly fc.AsyncCommand<Model, Real, false>[];
}

export interface SessionResult {
  /** Steps run, the replays of shrinking included. */
  readonly steps: number;
  /** Steps run before the first failure (all of them when none failed). */
  readonly cleanSteps: number;
  readonly runs: number;
  /** fast-check's report (seed, path, shrunk counterexample, the error) when a sequence failed. */
  readonly failure: string | null;
}

export async function runTraderSession(world: World, options: SessionOptions): Promise<SessionResult> {
  mkdirSync(join(SCREENSHOT_DIR, 'trader-session'), { recursive: true });
  const turboRows = (await (await fetch(`${world.control.url}/v1/markets?turbo=true`)).json()) as { markets?: { market_id: string; min_order: string | number; dust: string | number }[] };
  const turboMarkets = (turboRows.markets ?? []).map((row) => row.market_id);
  const turboBooks = new Map<string, Market>();
  for (const row of turboRows.markets ?? []) {
    const market = world.markets.find((candidate) => candidate.market_id === row.market_id);
    if (market) turboBooks.set(row.market_id, { ...market, min_order: BigInt(row.min_order), dust: BigInt(row.dust) });
  }
  let steps = 0;
  let runs = 0;
  let cleanSteps: number | null = null;
  const started = Date.now();
  let deadline = options.timeLimitMs === undefined ? Infinity : started + options.timeLimitMs;
  const real: Real = {
    world,
    // The children of main's execution algorithms are left out of the other steps' postconditions
    // (steps/algos.ts checks them); the oracle reads everything.
    truth: new Truth(world.control.url, world.markets, () => algoChildIds(world)),
    boundMs: options.boundMs,
    turboMarkets,
    turboBooks,
    popups: new Map(),
    marksShot: new Set(),
    step: (line) => {
      steps++;
      world.log.push(line);
      options.print?.(`  step ${steps}: ${line}`);
    },
    failed: (line, error) => {
      if (cleanSteps === null) {
        cleanSteps = steps - 1;
        if (options.shrinkLimitMs !== undefined) deadline = Math.min(deadline, Date.now() + options.shrinkLimitMs);
      }
      firstFailures.push(`after: ${world.log.join(' → ')}\n${String(error instanceof Error ? error.message : error)}`);
      options.print?.(`  FAILED at "${line}": ${String(error instanceof Error ? error.message : error)}`);
    },
  };
  const firstFailures: string[] = [];

  /** Every run starts from the same screen: the sandbox, no faults, no detached windows, a fresh page. */
  const setup = async (): Promise<{ model: Model; real: Real }> => {
    runs++;
    options.print?.(`run ${runs}`);
    await world.control.post('/control/faults/clear', {});
    for (const kind of DETACHABLE) if (real.popups.has(kind)) await dockPanel(real, kind);
    const networks = value(await world.bridge.api.listNetworks({}));
    const sandbox = networks.find((network) => network.kind === 'sandbox')!;
    if (!sandbox.active) value(await world.bridge.api.selectNetwork({ networkId: sandbox.id }));
    await world.page.reload();
    await world.page.getByTestId('topbar').waitFor({ timeout: 60_000 });
    // An exchange that restarted forgot the account: set it up again, as the trader would.
    const account = value(await world.bridge.api.getAccountState({}));
    if (!account.canTrade) {
      await setUpAgain(real);
      world.tradeAccountId = value(await world.bridge.api.getAccountState({})).tradeAccount?.tradeAccountId ?? world.tradeAccountId;
    }
    await toWorkspace(real);
    await world.page.getByTestId('workspace').waitFor({ timeout: 60_000 });
    // The app remembers the market and the book across reloads: start each run on the first
    // market's canonical book, so a run (and its shrunk replay) does not depend on the one before.
    const first = world.markets[0]!;
    if ((await world.page.getByTestId('ladder').getAttribute('data-market-id', { timeout: 30_000 })) !== first.market_id) {
      await world.page.getByTestId('market-selector').click();
      await world.page.locator(`[data-testid=market-menu] [data-testid=market-row][data-market-id="${first.market_id}"]`).click();
    }
    if ((await world.page.getByTestId('market-bar').getAttribute('data-book')) === 'turbo') await world.page.getByTestId('turbo-toggle-canonical').click();
    await world.page.waitForFunction((id) => document.querySelector('[data-testid=ladder]')?.getAttribute('data-market-id') === id, first.market_id, { timeout: 30_000 });
    world.log.length = 0;
    const model = initialModel();
    const marketId = await world.page.getByTestId('ladder').getAttribute('data-market-id', { timeout: 30_000 });
    model.marketIndex = Math.max(0, world.markets.findIndex((market) => market.market_id === marketId));
    model.turbo = (await world.page.getByTestId('market-bar').getAttribute('data-book')) === 'turbo';
    const tab = await world.page.getByTestId('blotter').getAttribute('data-tab');
    if ((BLOTTER_TABS as readonly (string | null)[]).includes(tab)) model.tab = tab as Model['tab'];
    lastModel = model;
    return { model, real };
  };
  let lastModel: Model = initialModel();

  const generated = options.commands === undefined ? traderCommands(world.markets, { restart: options.restart, maxCommands: options.maxCommands, ...(options.favourContracts === undefined ? {} : { favourContracts: options.favourContracts }) }) : fc.constant(options.commands);
  const property = fc.asyncProperty(generated, async (commands) => {
    // Out of time: this run (or shrink candidate) passes without acting, so the check ends soon.
    if (Date.now() > deadline) return;
    await fc.asyncModelRun(setup, commands);
    // The last step's outcome, once more after a pause: nothing may drift away from the truth.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    try {
      await runOracle(lastModel, real);
    } catch (error) {
      real.failed('the pause after the last step', error);
      throw error;
    }
  });
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: options.numRuns,
    ...(options.path === undefined ? {} : { path: options.path, endOnFailure: true }),
  });
  const report = details.failed ? `${fc.defaultReportMessage(details) ?? 'failed'}\nfirst failure, before shrinking:\n${firstFailures[0] ?? '(none)'}` : null;
  return { steps, runs, cleanSteps: cleanSteps ?? steps, failure: report };
}
