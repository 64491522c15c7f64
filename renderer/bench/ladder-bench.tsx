// The ladder benchmark page: replays precomputed book frames (500 levels a side) at a fixed rate
// into either the real Ladder component (mode=ours) or the naive peer (mode=naive), and measures
// the page's script time per animation frame and the frames missed at 60 Hz.
// A missed frame is the ladder's when the page's own main-thread work in that interval (script
// in deliveries and animation-frame callbacks, plus the style, layout and paint that follow each
// frame's callbacks, timed to the first task after the frame) reached half a frame; otherwise the
// machine missed it with the page nearly idle (a shared two-core VM), which the idle mode shows.
// Frames are generated before the measurement starts, so the simulation's own cost is not counted.
import { render } from 'solid-js/web';
import type { TerminalApi } from '../../shared/ipc/contract';
import type { BookFrame } from '../../shared/ipc/views';
import { priceTick } from '../../shared/market/tick';
import { createSimulatedTerminal, SIMULATED_MARKETS } from './simulated-terminal';
import { createTerminal } from '../src/app/create-terminal';
import { BridgeContext } from '../src/stores/bridge-context';
import { TerminalContext } from '../src/stores/terminal-context';
import { Ladder } from '../src/features/ladder/Ladder';
import { createFrameScheduler } from '../src/lib/frame-scheduler';
import { createNaiveLadder, type NaiveExtras } from './naive-ladder';
import type { Market } from '../../shared/market/market';
import '../src/styles.css';

export interface LadderBenchResult {
  readonly mode: string;
  readonly rows: number;
  readonly levelsPerSide: number;
  readonly updates: number;
  readonly frames: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly skippedFrames: number;
  /** Frames missed while the page's own work in that interval reached half a frame. */
  readonly skippedWithOwnWork: number;
  /** The page's own main-thread work per frame interval (script + rendering), ms. */
  readonly workP99: number;
  readonly workMax: number;
  /** The largest own work seen in an interval that missed frames. */
  readonly workInSkippedMax: number;
  readonly longTasks: number;
  readonly firstFrameRows: number;
}

declare global {
  interface Window {
    __benchResult?: LadderBenchResult;
    __benchError?: string;
    /** Set when the measured replay starts (after precomputing and the warm-up): a profiler starts here. */
    __benchMeasuring?: boolean;
  }
}

const FRAME_MS = 1000 / 60;
const DISTINCT_FRAMES = 1_200;

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

/** The ladder's Σ toggle, clicked once the ladder has drawn its toolbar. */
async function switchCumulativeOn(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const button = document.querySelector<HTMLButtonElement>('[data-testid="ladder-cumulative"]');
    if (button) {
      if (button.getAttribute('aria-pressed') !== 'true') button.click();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the ladder drew no cumulative toggle');
}

/** What the real ladder reads beside the book, read once for the naive peer (which draws the same columns). */
async function naiveExtras(api: TerminalApi, market: Market): Promise<NaiveExtras> {
  const orders = await api.getOrders({});
  const positions = await api.getPositions({});
  const depth = await api.watchTurboDepth({ marketId: market.market_id, step: priceTick(market) });
  if (!orders.ok || !positions.ok || !depth.ok) throw new Error('the simulated terminal gave no orders, positions or Turbo depth');
  return {
    cumulative: true,
    ownOrders: orders.value.open.filter((order) => order.marketId === market.market_id).map((order) => ({ orderId: order.orderId, marketId: order.marketId, side: order.side, price: order.price, remaining: order.quantity - order.filled })),
    ownFills: orders.value.fills.filter((fill) => fill.marketId === market.market_id).map((fill) => ({ side: fill.side, price: fill.price, quantity: fill.quantity })),
    positions: positions.value.positions.filter((position) => position.marketId === market.market_id && !position.turbo),
    turboDepth: new Map(depth.value.rows.map((row) => [row.price.toString(), row])),
  };
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const requested = params.get('mode');
  // idle: the same replay with nothing drawing it, to see what the machine alone costs.
  const mode = requested === 'naive' || requested === 'idle' ? requested : 'ours';
  const seconds = Number(params.get('seconds') ?? '10');
  const rate = Number(params.get('rate') ?? '100');
  // rows=fit (the default): the ladder sizes itself to its body as the app's does (a row per 18 px
  // of the page's height, every one on screen). rows=N: the ladder holds N rows, and the page is as
  // tall as they are; the rows off screen are skipped by the browser and not written (Ladder.tsx).
  const rowsParam = params.get('rows') ?? 'fit';
  const fit = rowsParam === 'fit';
  const rowCount = fit ? 0 : Number(rowsParam);
  // Every column and mark the ladder has (the worst case, measured by default): cumulative depth,
  // own orders on both sides, recent fills, a position (P&L column and entry mark), the last
  // trade's size, order flow and the Turbo depth column. columns=default: the plain book only;
  // columns=pnl or columns=turbo: every column but the Turbo depth or the P&L (the ladder's four widths).
  const columns = params.get('columns') ?? 'all';
  const everyColumn = columns !== 'default';
  const warmupMs = 1000;
  const market = SIMULATED_MARKETS[0]!;

  // 1. Precompute the frames.
  const simulation = createSimulatedTerminal({ seed: 11, depth: 500, onboarded: everyColumn, everyColumn });
  const frames: BookFrame[] = [];
  simulation.api.onBook((frame) => frames.push(frame));
  await simulation.api.subscribeBook({ marketId: market.market_id, precision: priceTick(market), levels: 500 });
  await Promise.resolve();
  const total = Math.ceil(((seconds * 1000 + warmupMs) / 1000) * rate) + 1;
  // At most DISTINCT_FRAMES are kept and replayed in turn: 500 levels a side is a thousand
  // objects a frame, and holding ten thousand frames (1,000 updates/s) made the page itself spend
  // its time in the heap, idle mode included. Frame n + DISTINCT_FRAMES is frame n again.
  while (frames.length < Math.min(total, DISTINCT_FRAMES)) simulation.step();

  // 2. Instrumented replay: time spent delivering each frame, and in animation-frame callbacks.
  let busy = 0;
  // The page's own work, script and rendering, since the last frame monitor call.
  let work = 0;
  let lastCallbackEnd = 0;
  const bookListeners = new Set<(frame: BookFrame) => void>();
  const replayApi: TerminalApi = {
    ...simulation.api,
    subscribeBook: () => Promise.resolve({ ok: true, value: { subscriptionId: 'replay' } }),
    updateBookView: () => Promise.resolve({ ok: true, value: null }),
    ...(columns === 'pnl' ? { getTurboMarkets: () => Promise.resolve({ ok: true as const, value: { networkId: 'sandbox', markets: [], tradingAs: null } }) } : {}),
    ...(columns === 'turbo' ? { getPositions: () => Promise.resolve({ ok: true as const, value: { positions: [], asOf: 0, problems: [] } }) } : {}),
    unsubscribe: () => Promise.resolve({ ok: true, value: null }),
    onBook: (listener) => {
      bookListeners.add(listener);
      return () => bookListeners.delete(listener);
    },
  };
  const deliver = (frame: BookFrame) => {
    const started = performance.now();
    for (const listener of bookListeners) listener({ ...frame, subscriptionId: 'replay' });
    const spent = performance.now() - started;
    busy += spent;
    work += spent;
  };

  const root = document.getElementById('root')!;
  root.style.height = fit ? '100vh' : `${rowCount * 18 + 120}px`;
  if (mode === 'ours') {
    const scheduler = createFrameScheduler((callback) =>
      requestAnimationFrame((time) => {
        const started = performance.now();
        callback(time);
        lastCallbackEnd = performance.now();
        busy += lastCallbackEnd - started;
        work += lastCallbackEnd - started;
      }),
    );
    const terminal = createTerminal(replayApi, () => Promise.resolve(false), scheduler);
    render(
      () => (
        <BridgeContext.Provider value={replayApi}>
          <TerminalContext.Provider value={terminal}>
            <div class="panel ladder-panel" style={{ height: '100%' }}>
              <Ladder market={market} turbo={false} {...(fit ? {} : { rows: rowCount })} />
            </div>
          </TerminalContext.Provider>
        </BridgeContext.Provider>
      ),
      root,
    );
    if (everyColumn) await switchCumulativeOn();
  } else if (mode === 'naive') {
    const container = document.createElement('div');
    container.className = `panel ladder-panel ladder${everyColumn ? ' with-pnl with-turbo-depth' : ''}`;
    root.append(container);
    // Fitted, the peer draws as many rows as the page's height holds, like ours (naiveRows: ours' count).
    const naiveRows = fit ? Number(params.get('naiveRows') ?? Math.floor(innerHeight / 18)) : rowCount;
    const draw = createNaiveLadder(container, market, naiveRows, everyColumn ? await naiveExtras(simulation.api, market) : null);
    bookListeners.add(draw);
  }

  // 3. Let the page settle, then replay at the rate while a frame monitor records timestamps.
  let longTasks = 0;
  try {
    new PerformanceObserver((list) => {
      longTasks += list.getEntries().length;
    }).observe({ type: 'longtask', buffered: false });
  } catch {
    // Long tasks are not reported by every engine; frame gaps still are.
  }

  await new Promise((resolve) => setTimeout(resolve, 300));
  const perFrame: number[] = [];
  const perInterval: number[] = [];
  const stamps: number[] = [];
  let measuring = false;
  let emitted = 0;
  const start = performance.now();
  // The first task after a frame's callbacks runs once its style, layout and paint are done.
  const afterFrame = new MessageChannel();
  let monitorEnd = 0;
  afterFrame.port1.onmessage = () => {
    work += Math.max(0, performance.now() - Math.max(monitorEnd, lastCallbackEnd));
  };
  const monitor = (time: number) => {
    if (measuring) {
      perFrame.push(busy);
      perInterval.push(work);
      stamps.push(time);
    }
    busy = 0;
    work = 0;
    monitorEnd = performance.now();
    afterFrame.port2.postMessage(null);
    if (performance.now() - start < warmupMs + seconds * 1000) requestAnimationFrame(monitor);
  };
  requestAnimationFrame(monitor);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - start;
      if (!measuring && elapsed >= warmupMs) {
        measuring = true;
        window.__benchMeasuring = true;
        longTasks = 0;
      }
      const due = Math.min(total, Math.floor((elapsed * rate) / 1000) + 1);
      while (emitted < due) deliver(frames[emitted++ % frames.length]!);
      if (elapsed >= warmupMs + seconds * 1000) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  await new Promise((resolve) => setTimeout(resolve, 100));

  let skipped = 0;
  let skippedWithOwnWork = 0;
  let workInSkippedMax = 0;
  for (let index = 1; index < stamps.length; index++) {
    const gap = stamps[index]! - stamps[index - 1]!;
    if (gap > FRAME_MS * 1.5) {
      const missed = Math.round(gap / FRAME_MS) - 1;
      skipped += missed;
      // The page's own work between the two frames (perInterval[index]), or in the next
      // interval, which holds this frame's callbacks when they ran after the monitor's: the
      // larger of the two, so that a doubt counts against the ladder.
      const own = Math.max(perInterval[index]!, perInterval[index + 1] ?? 0);
      workInSkippedMax = Math.max(workInSkippedMax, own);
      if (own >= FRAME_MS / 2) skippedWithOwnWork += missed;
    }
  }
  const sorted = [...perFrame].sort((a, b) => a - b);
  const sortedWork = [...perInterval].sort((a, b) => a - b);
  window.__benchResult = {
    mode,
    rows: document.querySelectorAll('.ladder-row').length,
    levelsPerSide: 500,
    updates: emitted,
    frames: perFrame.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? 0,
    skippedFrames: skipped,
    skippedWithOwnWork,
    workP99: percentile(sortedWork, 0.99),
    workMax: sortedWork[sortedWork.length - 1] ?? 0,
    workInSkippedMax,
    longTasks,
    firstFrameRows: document.querySelectorAll('.ladder-row').length,
  };
}

main().catch((error: unknown) => {
  window.__benchError = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
});
