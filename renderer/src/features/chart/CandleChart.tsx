// Candles with uPlot at every resolution of the venue, updating live (subscribeBars), with the
// trader's own fills marked. Bars stay exact in a signal; uPlot gets numbers through setData once
// per frame, and the legend shows the exact values of the bar under the cursor.
import { createEffect, createSignal, For, on, onCleanup, Show, type Component } from 'solid-js';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { RESOLUTIONS, type BarsFrame, type BarView, type Resolution } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../app/terminal-context';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { formatDateTime } from '../../format/time';
import { retryWhileNotReady, type RetryHandle } from '../../lib/retry';
import { barsToColumns, mergeBars, resolutionSeconds, timeRange, toDrawingNumber } from './bars-model';

const COUNT_BACK = 600;
let chartSerial = 0;

interface FillMark {
  readonly x: number;
  readonly y: number;
  readonly side: 'Buy' | 'Sell';
}

function candlePlugin(getFills: () => readonly FillMark[]): uPlot.Plugin {
  return {
    hooks: {
      draw: (plot: uPlot) => {
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
        // Own fills: a triangle under the price for buys, over it for sells.
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

  const fills = (): FillMark[] =>
    terminal.store.state.fills
      .filter((fill) => fill.marketId === props.market.market_id)
      .map((fill) => ({ x: fill.time / 1000, y: toDrawingNumber(fill.price, props.market.quote.decimals), side: fill.side }));

  // Frames that arrive before subscribeBars's reply names their subscription (bounded).
  const early: BarsFrame[] = [];
  const accept = (frame: BarsFrame) => {
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
        scales: { x: { time: true, range: (_plot, min, max) => timeRange(min, max, resolutionSeconds(resolution())) } },
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
        plugins: [candlePlugin(fills)],
      },
      data,
      element,
    );
    const observer = new ResizeObserver(() => created.setSize({ width: element.clientWidth, height: Math.max(120, element.clientHeight) }));
    observer.observe(element);
    onCleanup(() => observer.disconnect());
    return created;
  };

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
  // Redraw when own fills change (the marks), without new bars.
  createEffect(on(() => terminal.store.state.fills.length, () => plot?.redraw(false), { defer: true }));

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
    <section class="panel" data-testid="chart-panel">
      <header class="panel-head">
        <h2>Chart</h2>
        <span class="muted">
          {props.market.base.symbol}/{props.market.quote.symbol}
        </span>
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
      <div class="chart-legend" data-testid="chart-legend">
        <Show when={shown()} fallback={<span>{problem() ?? 'Waiting for bars…'}</span>}>
          {(bar) => (
            <span>
              {formatDateTime(bar().time)} O <b>{formatPrice(props.market, bar().open)}</b> H <b>{formatPrice(props.market, bar().high)}</b> L{' '}
              <b>{formatPrice(props.market, bar().low)}</b> C <b>{formatPrice(props.market, bar().close)}</b> V <b>{formatQuantity(props.market, bar().volume)}</b>
            </span>
          )}
        </Show>
      </div>
      <div class="chart-box" data-testid="chart" ref={(element) => (box = element)} />
    </section>
  );
};
