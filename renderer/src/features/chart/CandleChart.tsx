// Candles with uPlot at every resolution of the venue, updating live (subscribeBars), with the
// trader's own fills marked (fills of a fired take-profit or stop-loss labelled TP or SL) and the
// pending legs of the book drawn as lines, each with a marker that drags it to a new trigger price.
// Bars stay exact in a signal; uPlot gets numbers through setData once per frame, and the legend
// shows the exact values of the bar under the cursor.
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, type Component } from 'solid-js';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { RESOLUTIONS, type BarsFrame, type BarView, type Resolution } from '../../../../shared/ipc/views';
import { parseUnits } from '../../../../shared/encoding/units';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../app/terminal-context';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { formatDateTime } from '../../format/time';
import { createFreshness, FreshnessBadge, marketSource } from '../../lib/freshness';
import { retryWhileNotReady, type RetryHandle } from '../../lib/retry';
import { createTriggerOverlay, TriggerMarker, triggerLines, type TriggerLine } from '../triggers';
import { barsToColumns, mergeBars, priceRange, resolutionSeconds, timeRange, toDrawingNumber } from './bars-model';

const COUNT_BACK = 600;
let chartSerial = 0;

interface FillMark {
  readonly x: number;
  readonly y: number;
  readonly side: 'Buy' | 'Sell';
  /** The fill of a fired leg: labelled TP or SL beside its triangle. */
  readonly leg: 'TP' | 'SL' | null;
}

/** A leg's line as drawn: its price as a drawing number, colour, and the bounds it may fill within. */
interface LegStroke {
  readonly y: number;
  readonly tone: 'tp' | 'sl';
  readonly armed: boolean;
  readonly band: { readonly min: number; readonly max: number } | null;
}

const TONE_COLOURS = { tp: '#2fbf71', sl: '#e5484d' } as const;

function candlePlugin(getFills: () => readonly FillMark[], getLegs: () => readonly LegStroke[], onDraw: () => void): uPlot.Plugin {
  return {
    hooks: {
      draw: (plot: uPlot) => {
        onDraw();
        const context = plot.ctx;
        const data = plot.data as unknown as number[][] | null;
        if (!data) return;
        const [xs, opens, highs, lows, closes] = data;
        if (!xs || !opens || !highs || !lows || !closes || xs.length === 0) return;
        const first = plot.series[0]?.idxs?.[0] ?? 0;
        const last = plot.series[0]?.idxs?.[1] ?? xs.length - 1;
        const visible = Math.max(1, last - first + 1);
        const width = Math.max(1, Math.min(14, (plot.bbox.width / visible) * 0.7));
        context.save();
        for (let index = first; index <= last; index++) {
          const x = Math.round(plot.valToPos(xs[index]!, 'x', true));
          const open = plot.valToPos(opens[index]!, 'y', true);
          const close = plot.valToPos(closes[index]!, 'y', true);
          const high = plot.valToPos(highs[index]!, 'y', true);
          const low = plot.valToPos(lows[index]!, 'y', true);
          const up = closes[index]! >= opens[index]!;
          context.strokeStyle = context.fillStyle = up ? '#2fbf71' : '#e5484d';
          context.beginPath();
          context.moveTo(x + 0.5, high);
          context.lineTo(x + 0.5, low);
          context.stroke();
          const top = Math.min(open, close);
          context.fillRect(Math.round(x - width / 2), top, Math.round(width), Math.max(1, Math.abs(close - open)));
        }
        // Pending legs: a line across the plot (dashed while it waits for its order to fill), and the
        // bounds a bounded leg executes within, shaded.
        const left = plot.bbox.left;
        const right = plot.bbox.left + plot.bbox.width;
        for (const leg of getLegs()) {
          const y = Math.round(plot.valToPos(leg.y, 'y', true)) + 0.5;
          if (leg.band) {
            const top = plot.valToPos(leg.band.max, 'y', true);
            const bottom = plot.valToPos(leg.band.min, 'y', true);
            context.fillStyle = leg.tone === 'tp' ? 'rgba(47, 191, 113, 0.07)' : 'rgba(229, 72, 77, 0.07)';
            context.fillRect(left, Math.min(top, bottom), plot.bbox.width, Math.abs(bottom - top));
          }
          context.strokeStyle = TONE_COLOURS[leg.tone];
          context.lineWidth = devicePixelRatio;
          context.setLineDash(leg.armed ? [] : [6 * devicePixelRatio, 4 * devicePixelRatio]);
          context.beginPath();
          context.moveTo(left, y);
          context.lineTo(right, y);
          context.stroke();
        }
        context.setLineDash([]);
        // Own fills: a triangle under the price for buys, over it for sells; a fired leg's fill says TP or SL.
        context.font = `${10 * devicePixelRatio}px sans-serif`;
        context.textAlign = 'center';
        for (const fill of getFills()) {
          const x = plot.valToPos(fill.x, 'x', true);
          const y = plot.valToPos(fill.y, 'y', true);
          if (x < plot.bbox.left || x > plot.bbox.left + plot.bbox.width) continue;
          context.fillStyle = fill.side === 'Buy' ? '#7dd3fc' : '#fbbf24';
          context.beginPath();
          const size = 6 * devicePixelRatio;
          if (fill.side === 'Buy') {
            context.moveTo(x, y + 2);
            context.lineTo(x - size / 2, y + size + 2);
            context.lineTo(x + size / 2, y + size + 2);
          } else {
            context.moveTo(x, y - 2);
            context.lineTo(x - size / 2, y - size - 2);
            context.lineTo(x + size / 2, y - size - 2);
          }
          context.fill();
          if (fill.leg) {
            context.fillStyle = fill.leg === 'TP' ? TONE_COLOURS.tp : TONE_COLOURS.sl;
            const labelY = fill.side === 'Buy' ? y + size + 14 * devicePixelRatio : y - size - 6 * devicePixelRatio;
            context.fillText(fill.leg, x, labelY);
          }
        }
        context.restore();
      },
    },
  };
}

export const CandleChart: Component<{ market: Market; turbo: boolean }> = (props) => {
  const terminal = useTerminal();
  const [resolution, setResolution] = createSignal<Resolution>('1m');
  const [bars, setBars] = createSignal<readonly BarView[]>([]);
  const [hover, setHover] = createSignal<number | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const key = `chart-${++chartSerial}`;
  let pending: readonly BarView[] = [];
  let subscriptionId: string | null = null;
  let retry: RetryHandle | null = null;
  let plot: uPlot | null = null;
  let box: HTMLDivElement | undefined;

  // The legs of this book: lines from the account's legs (the dragged one at its new price).
  const overlay = createTriggerOverlay(terminal.api, { market: () => props.market, turbo: () => props.turbo });
  const legIds = createMemo(() => overlay.lines().map((line) => line.triggerId), undefined, { equals: (a, b) => a.length === b.length && a.every((id, index) => id === b[index]) });
  const legLine = (triggerId: string): TriggerLine | null => overlay.lines().find((line) => line.triggerId === triggerId) ?? null;
  const drawing = (raw: bigint) => toDrawingNumber(raw, props.market.quote.decimals);
  const legs = (): LegStroke[] =>
    overlay.lines().map((line) => ({ y: drawing(line.price), tone: line.tone, armed: line.armed, band: line.band ? { min: drawing(line.band.min), max: drawing(line.band.max) } : null }));
  /** Prices the y axis keeps in view besides the bars: the legs where they were placed (not where a drag is). */
  const legPrices = createMemo(() => triggerLines(overlay.snapshot(), props.market, props.turbo).map((line) => drawing(line.price)));

  // Orders that were fired legs, by the order they became: their fills are labelled.
  const firedLegs = createMemo(() => {
    const fired = new Map<string, 'TP' | 'SL'>();
    for (const leg of overlay.snapshot().recent) if (leg.firedOrderId) fired.set(leg.firedOrderId, leg.role === 'take-profit' ? 'TP' : 'SL');
    return fired;
  });
  const fillMarks = createMemo((): FillMark[] =>
    terminal.store.state.fills
      .filter((fill) => fill.marketId === props.market.market_id)
      .map((fill) => ({ x: fill.time / 1000, y: drawing(fill.price), side: fill.side, leg: firedLegs().get(fill.orderId) ?? null })),
  );
  // Bumped on every draw: the leg markers follow the plot's scale.
  const [drawn, setDrawn] = createSignal(0);

  // Frames that arrive before subscribeBars's reply names their subscription (bounded).
  const early: BarsFrame[] = [];
  /** A frame of the current subscription arrived (its history); until then the chart is loading. */
  const [loaded, setLoaded] = createSignal(false);
  const freshness = createFreshness(
    terminal.freshness,
    (view) => [marketSource(view, props.market.market_id, props.turbo, 'trades')],
    () => (loaded() ? null : { state: 'resyncing', detail: 'loading the history' }),
  );
  const accept = (frame: BarsFrame) => {
    setLoaded(true);
    // A reset without bars clears the drawing (main sends one when the network goes away).
    if (frame.reset && frame.bars.length === 0) {
      plot?.destroy();
      plot = null;
    }
    pending = frame.reset ? frame.bars : mergeBars(pending.length > 0 ? pending : bars(), frame.bars, COUNT_BACK * 2);
    terminal.frames.schedule(key, () => {
      setBars(pending);
      pending = [];
    });
  };
  const stop = terminal.api.onBars((frame) => {
    if (frame.subscriptionId === subscriptionId) accept(frame);
    else if (subscriptionId === null && early.length < 16) early.push(frame);
  });

  createEffect(
    on(
      () => `${props.market.market_id}|${props.turbo}|${resolution()}`,
      () => {
        retry?.stop();
        if (subscriptionId) void terminal.api.unsubscribe({ subscriptionId });
        subscriptionId = null;
        early.length = 0;
        pending = [];
        setBars([]);
        setLoaded(false);
        const chosen = resolution();
        retry = retryWhileNotReady(
          () => terminal.api.subscribeBars({ marketId: props.market.market_id, ...(props.turbo ? { turbo: true } : {}), resolution: chosen, countBack: COUNT_BACK }),
          (result) => {
            setProblem(result.ok ? null : result.message);
            if (!result.ok) return;
            subscriptionId = result.value.subscriptionId;
            for (const frame of early.splice(0)) if (frame.subscriptionId === subscriptionId) accept(frame);
          },
        );
      },
    ),
  );

  // uPlot is created with the first bars (its axes cannot lay out an empty range) and then fed
  // with setData; an empty series (a new market loading) keeps the previous drawing until data comes.
  const createPlot = (element: HTMLDivElement, data: uPlot.AlignedData) => {
    const decimals = Math.max(0, Math.min(props.market.quote.max_precision, props.market.quote.decimals));
    const created = new uPlot(
      {
        width: element.clientWidth || 600,
        height: Math.max(120, element.clientHeight || 300),
        legend: { show: false },
        cursor: { points: { show: false }, drag: { x: true, y: false } },
        scales: {
          // From the bars themselves: uPlot widens a single bar's x range to 1000 days on a seconds scale.
          x: { time: true, range: () => timeRange((bars()[0]?.time ?? 0) / 1000, (bars().at(-1)?.time ?? 0) / 1000, resolutionSeconds(resolution())) },
          y: { range: (_plot, min, max) => priceRange(min, max, legPrices()) },
        },
        axes: [
          { stroke: '#7d8896', grid: { stroke: '#1a2029' }, ticks: { stroke: '#222a35' }, space: 80 },
          {
            stroke: '#7d8896',
            grid: { stroke: '#1a2029' },
            ticks: { stroke: '#222a35' },
            // Wide enough for the longest price label of this market (tabular digits, about 7 px each).
            size: (_plot, values) => 18 + 7 * Math.max(6, ...(values ?? []).map((value) => value.length)),
            values: (_plot, splits) => splits.map((value) => value.toFixed(decimals)),
          },
        ],
        series: [
          {},
          { label: 'open', show: false },
          { label: 'high', stroke: 'transparent', points: { show: false } },
          { label: 'low', stroke: 'transparent', points: { show: false } },
          { label: 'close', show: false },
          { label: 'volume', show: false },
        ],
        hooks: { setCursor: [(current) => setHover(current.cursor.idx ?? null)] },
        plugins: [candlePlugin(fillMarks, legs, () => queueMicrotask(() => setDrawn((count) => count + 1)))],
      },
      data,
      element,
    );
    return created;
  };
  // The plot follows its box (window resizes, panels docked or detached). Observed for the
  // chart's whole life: the plot itself is made again with each market.
  onMount(() => {
    if (!box) return;
    const element = box;
    const observer = new ResizeObserver(() => plot?.setSize({ width: element.clientWidth, height: Math.max(120, element.clientHeight) }));
    observer.observe(element);
    onCleanup(() => observer.disconnect());
  });

  createEffect(
    on(
      () => `${props.market.market_id}|${resolution()}`,
      () => {
        // Axis decimals belong to the market: a new market gets a new plot.
        plot?.destroy();
        plot = null;
      },
      { defer: true },
    ),
  );

  createEffect(() => {
    const current = bars();
    if (current.length === 0 || !box) return;
    const data = barsToColumns(current, props.market.quote.decimals, props.market.base.decimals) as unknown as uPlot.AlignedData;
    if (plot) plot.setData(data);
    else plot = createPlot(box, data);
  });
  // Redraw when own fills change (the marks) or a leg moves, without new bars; a leg placed or gone
  // may change the price range, which setData recomputes.
  createEffect(on([fillMarks, overlay.lines], () => plot?.redraw(false), { defer: true }));
  createEffect(
    on(
      legPrices,
      () => {
        if (plot) plot.setData(plot.data);
      },
      { defer: true },
    ),
  );

  /**
   * Where a leg's marker goes, in px from the top of the chart box: on its line, or held at the
   * plot's edge when the line is off it (a marker being dragged must stay under the pointer's capture).
   */
  const legTop = (line: TriggerLine): { top: number; off: boolean } | null => {
    drawn();
    if (!plot || !box) return null;
    const over = plot.over.getBoundingClientRect();
    const offset = over.top - box.getBoundingClientRect().top;
    const y = plot.valToPos(drawing(line.price), 'y');
    if (!Number.isFinite(y)) return null;
    const clamped = Math.min(Math.max(y, 0), over.height);
    return { top: Math.round(offset + clamped), off: clamped !== y };
  };
  /** The price under the pointer, on the quote's raw units (exact from the decimal text). */
  const priceAt = (clientY: number): bigint | null => {
    if (!plot) return null;
    const value = plot.posToVal(clientY - plot.over.getBoundingClientRect().top, 'y');
    if (!Number.isFinite(value) || value <= 0) return null;
    const parsed = parseUnits(value.toFixed(props.market.quote.decimals), props.market.quote.decimals, 'price');
    return parsed.ok ? parsed.value : null;
  };

  onCleanup(() => {
    stop();
    retry?.stop();
    terminal.frames.cancel(key);
    if (subscriptionId) void terminal.api.unsubscribe({ subscriptionId });
    plot?.destroy();
  });

  const shown = () => {
    const list = bars();
    const index = hover();
    return index !== null && list[index] ? list[index] : list[list.length - 1];
  };

  return (
    <section class="panel" data-testid="chart-panel" data-freshness={freshness.state()}>
      <header class="panel-head">
        <h2>Chart</h2>
        <span class="muted">
          {props.market.base.symbol}/{props.market.quote.symbol}
        </span>
        <FreshnessBadge mark={freshness} testId="chart-freshness" />
        <div class="spacer" />
        <div class="tabs resolutions" data-testid="chart-resolutions">
          <For each={RESOLUTIONS}>
            {(value) => (
              <button type="button" classList={{ on: resolution() === value }} data-testid={`resolution-${value}`} onClick={() => setResolution(value)}>
                {value}
              </button>
            )}
          </For>
        </div>
      </header>
      <div class="chart-legend fresh-dim" data-testid="chart-legend">
        <Show when={shown()} fallback={<span>{problem() ?? 'Waiting for bars…'}</span>}>
          {(bar) => (
            <span>
              {formatDateTime(bar().time)} O <b>{formatPrice(props.market, bar().open)}</b> H <b>{formatPrice(props.market, bar().high)}</b> L{' '}
              <b>{formatPrice(props.market, bar().low)}</b> C <b>{formatPrice(props.market, bar().close)}</b> V <b>{formatQuantity(props.market, bar().volume)}</b>
            </span>
          )}
        </Show>
      </div>
      <div
        class="chart-box fresh-dim"
        data-testid="chart"
        data-legs={legIds().length}
        data-fill-marks={fillMarks().length}
        data-leg-fill-marks={fillMarks().filter((mark) => mark.leg !== null).length}
        ref={(element) => (box = element)}
      >
        <div class="chart-legs" data-testid="chart-legs">
          <For each={legIds()}>
            {(triggerId) => (
              <Show when={legLine(triggerId)}>
                {(line) => (
                  <Show when={legTop(line())}>
                    {(place) => (
                      <div class="chart-leg" classList={{ 'off-plot': place().off }} data-testid="chart-leg" data-trigger-id={triggerId} data-role={line().role} style={{ top: `${place().top}px` }}>
                        <TriggerMarker overlay={overlay} line={line()} market={props.market} priceAt={priceAt} />
                      </div>
                    )}
                  </Show>
                )}
              </Show>
            )}
          </For>
        </div>
        <Show when={overlay.failure()}>
          {(failure) => (
            <div class="chart-leg-error error" data-testid="chart-leg-error" data-code={failure().code}>
              Leg not moved: {failure().message}
            </div>
          )}
        </Show>
      </div>
    </section>
  );
};
