// Candles with uPlot at every resolution of the venue, updating live (subscribeBars), with the
// trader's own fills marked (fills of a fired take-profit or stop-loss labelled TP or SL), and, as
// TradingView draws them, a line per working order of the book and per pending take-profit /
// stop-loss leg (label: side, quantity, price) and the position line at its average entry. An
// order line dragged to a new price is amended (cancel and create in one signed batch, main's
// amendOrder), a leg line is moved (main's moveTrigger, also one batch); both confirmed when
// confirmations are on (naming the book and the signing account) and refused on a book that is not
// live. The drag maps pixels to prices in bigint (chart-geometry.ts) and snaps onto the price step.
// Axes: the market's decimals with thousands separators, a 24-hour clock.
// Studies (studies.ts): a volume pane under the price pane, the session VWAP and two moving
// averages the trader configures (kept by main), from the same bars; the legend shows their exact
// values at the bar under the cursor.
// Click-to-place (chart-click-order.ts): while the window is armed for the book (the ladder's ARM,
// also on the chart), a hover line says the order a click would place ("Buy 0.0100 @ 2,990.00": a
// Limit at the pointer's price on the step, a Buy under the mid and a Sell over it, the ladder's
// Size), and the click places it through the ladder's one-click path and its confirmation.
// Bars stay exact in a signal; uPlot gets numbers through setData once per frame, and the legend
// shows the exact values of the bar under the cursor.
import { ArmToggle } from '../../components/ArmToggle';
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, type Component } from 'solid-js';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { RESOLUTIONS, type BarsFrame, type BarView, type Resolution } from '../../../../shared/ipc/views';
import type { PositionView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { formatDateTime } from '../../format/time';
import { shortId } from '../../format/units';
import { createFreshness, FreshnessBadge, marketSource } from '../../lib/freshness';
import { retryWhileNotReady, type RetryHandle } from '../../lib/retry';
import { accountText } from '../positions/positions-model';
import { createPositionBrackets, createProtectiveStops, createTriggerSnapshot } from '../triggers';
import { barOpenTime, barsToColumns, chartTimeRange, mergeBars, priceRange, studyColumn, toDrawingNumber, volumeColumns } from './bars-model';
import { DEFAULT_CHART_STUDIES } from '../../../../shared/chart/chart-studies';
import { averageLabel, studyValues, vwapSession } from './studies';
import { createVolumePane } from './volume-pane';
import { StudiesControl } from './StudiesControl';
import { chartClickPlan, type ChartClickPlan } from './chart-click-order';
import { createBookFeed } from '../market-data/book-feed';
import { bookRules } from '../../stores/turbo-store';
import type { TicketContext } from '../ticket/ticket-model';
import { dragPrice, offsetOfPrice, priceAtOffset, priceAxisLabels, priceIncrements, priceScale, snapToTick, timeAxisLabels, type PriceScale } from './chart-geometry';
import { priceTick } from '../../../../shared/market/tick';
import { AlertMenu, type AlertMenuAt } from '../alerts/AlertMenu';
import { keepUnchanged, legLines, lineAt, orderLines, positionLine, sameLine, withAlgoTags, type ChartLine } from './chart-lines';
import { createAlgoSource } from '../algos/algo-data';
import { childTags } from '../algos/algo-figures';
import './chart.css';
import { MarketName } from '../markets/MarketName';

const COUNT_BACK = 600;
/** The position line is read again after each fill, and this often for its P&L (each read costs REST reads per book). */
/** How long a successful amend or move stays written over the chart. */
const OUTCOME_SHOWN_MS = 20_000;
let chartSerial = 0;

interface FillMark {
  readonly x: number;
  readonly y: number;
  readonly side: 'Buy' | 'Sell';
  /** The fill of a fired leg: labelled TP or SL beside its triangle. */
  readonly leg: 'TP' | 'SL' | null;
}

/** A line as drawn: its price as a drawing number, colour, dash, and the bounds a leg may fill within. */
interface LineStroke {
  readonly y: number;
  readonly tone: ChartLine['tone'];
  readonly dashed: boolean;
  readonly dragging: boolean;
  readonly band: { readonly min: number; readonly max: number } | null;
}

/** The first and second moving average, and the VWAP (dashed). */
const STUDY_COLOURS = { averages: ['#a78bfa', '#f472b6'] as const, vwap: '#e2e8f0' } as const;
/** The price axis's width for its labels (tabular digits, about 7 px each), shared with the volume pane. */
const axisWidthFor = (labels: readonly string[]) => 18 + 7 * Math.max(6, ...labels.map((label) => label.length));

const TONE_COLOURS = { tp: '#2fbf71', sl: '#e5484d', buy: '#38bdf8', sell: '#f59e0b', long: '#a3b1c2', short: '#a3b1c2' } as const;

function candlePlugin(getFills: () => readonly FillMark[], getLines: () => readonly LineStroke[], onDraw: () => void): uPlot.Plugin {
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
        // Orders, legs and the position: a line across the plot (dashed for the position and for a
        // leg waiting for its order to fill), and the bounds a bounded leg executes within, shaded.
        const left = plot.bbox.left;
        const right = plot.bbox.left + plot.bbox.width;
        for (const leg of getLines()) {
          const y = Math.round(plot.valToPos(leg.y, 'y', true)) + 0.5;
          if (leg.band) {
            const top = plot.valToPos(leg.band.max, 'y', true);
            const bottom = plot.valToPos(leg.band.min, 'y', true);
            context.fillStyle = leg.tone === 'tp' ? 'rgba(47, 191, 113, 0.07)' : 'rgba(229, 72, 77, 0.07)';
            context.fillRect(left, Math.min(top, bottom), plot.bbox.width, Math.abs(bottom - top));
          }
          context.strokeStyle = TONE_COLOURS[leg.tone];
          context.lineWidth = (leg.dragging ? 2 : 1) * devicePixelRatio;
          context.setLineDash(leg.dashed ? [6 * devicePixelRatio, 4 * devicePixelRatio] : []);
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
  const bridge = useBridge();
  const [resolution, setResolution] = createSignal<Resolution>('1m');
  const [bars, setBars] = createSignal<readonly BarView[]>([]);
  const [hover, setHover] = createSignal<number | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const key = `chart-${++chartSerial}`;
  let pending: readonly BarView[] = [];
  let subscriptionId: string | null = null;
  let retry: RetryHandle | null = null;
  let plot: uPlot | null = null;
  let volumePlot: uPlot | null = null;
  let box: HTMLDivElement | undefined;
  // The top of uPlot's wrap in px from the chart box's top. It moves only when the box's layout
  // does: measured when a plot is made and when the box resizes (a ResizeObserver callback runs
  // after layout, so its read forces none), never on a draw.
  const [wrapTop, setWrapTop] = createSignal<number | null>(null);
  const measureWrap = () => {
    const wrap = plot?.over.parentElement;
    setWrapTop(wrap && box ? wrap.getBoundingClientRect().top - box.getBoundingClientRect().top : null);
  };
  let volumeBox: HTMLDivElement | undefined;
  /** The price axis's width as drawn last (CSS px), for the volume pane's axis. */
  let priceAxisWidth = axisWidthFor([]);

  // Studies from the same bars as the candles: exact values per bar, the moving averages as set in main.
  const studySettings = () => terminal.store.state.settings?.chartStudies ?? DEFAULT_CHART_STUDIES;
  const averages = () => studySettings().averages;
  const studies = createMemo(() => studyValues(props.market, bars(), resolution(), averages()));

  // What is drawn besides the bars: working orders, pending legs and the position of the account
  // that signs on this book (the trading account, or on a Turbo book the selected Turbo Account).
  const triggers = createTriggerSnapshot(bridge);
  const protective = createProtectiveStops(bridge);
  const brackets = createPositionBrackets(bridge);
  const tradingAccount = () => terminal.store.state.account?.tradeAccount?.tradeAccountId ?? null;
  const signingAccount = () => (props.turbo ? (terminal.turboBooks.view()?.tradingAs ?? tradingAccount()) : tradingAccount());
  onMount(() => onCleanup(terminal.positions.use()));
  const positions = (): readonly PositionView[] => terminal.positions.view()?.positions ?? [];

  /** A drag in progress (or a dropped line waiting for its confirmation and main's answer). */
  const [drag, setDrag] = createSignal<{ key: string; from: bigint; to: bigint; startY: number; sending: boolean } | null>(null);
  /** The last drag's outcome, shown over the chart: the new order id, a refusal, or why nothing was sent. */
  const [outcome, setOutcome] = createSignal<{ ok: boolean; text: string; code: string; newId: string | null; source?: 'click' } | null>(null);
  // Working orders of the algorithms main runs, tagged with their parent.
  const algos = createAlgoSource(bridge);
  const algoChildren = createMemo(() => childTags(algos.algos()));
  // Orders, legs and the position are apart: the position line follows the mark (every book
  // update and the mark's clock), the order lines only the orders. An unchanged line stays the
  // same object, so its element's effects do not re-run (with 500 orders resting, rebuilding every
  // line on each mark was most of a loaded page's script).
  const orderLinesNow = createMemo((previous: ChartLine[]) => keepUnchanged(previous, withAlgoTags(orderLines(props.market, props.turbo, terminal.store.state.openOrders), algoChildren())), []);
  const legLinesNow = createMemo(
    (previous: ChartLine[]) =>
      keepUnchanged(
        previous,
        legLines(props.market, props.turbo, triggers(), terminal.store.state.openOrders, terminal.store.state.fills, new Map([...brackets().flatMap((bracket) => bracket.legIds.map((id) => [id, 'position' as const] as const)), ...protective().map((stop) => [stop.triggerId, stop.distance === null ? ('break-even' as const) : ('trailing' as const)] as const)])),
      ),
    [],
  );
  const positionLineNow = createMemo(() => positionLine(props.market, props.turbo, signingAccount(), positions(), (one) => terminal.marks.figures(one)), null, { equals: (left, right) => left === right || (left !== null && right !== null && sameLine(left, right)) });
  const placedLines = createMemo((): ChartLine[] => {
    const position = positionLineNow();
    return [...orderLinesNow(), ...legLinesNow(), ...(position ? [position] : [])];
  });
  /** The lines as shown: a dragged one at the price under the pointer. */
  const lines = createMemo((): ChartLine[] => {
    const current = drag();
    if (current === null) return placedLines();
    return placedLines().map((line) => (line.key === current.key ? lineAt(props.market, line, current.to) : line));
  });
  const lineKeys = createMemo(() => lines().map((line) => line.key), undefined, { equals: (a, b) => a.length === b.length && a.every((id, index) => id === b[index]) });
  // By key, built once per change of the lines (a find per line per change was quadratic in the orders resting).
  const lineByKey = createMemo(() => new Map(lines().map((line) => [line.key, line] as const)));
  const lineOf = (key: string): ChartLine | null => lineByKey().get(key) ?? null;
  const drawing = (raw: bigint) => toDrawingNumber(raw, props.market.quote.decimals);
  const strokes = (): LineStroke[] =>
    lines().map((line) => ({ y: drawing(line.price), tone: line.tone, dashed: line.dashed, dragging: drag()?.key === line.key, band: line.band ? { min: drawing(line.band.min), max: drawing(line.band.max) } : null }));
  /** Prices the y axis keeps in view besides the bars: the lines where they are (not where a drag is). */
  const keptPrices = createMemo(() => placedLines().map((line) => drawing(line.price)), undefined, { equals: (a, b) => a.length === b.length && a.every((price, index) => price === b[index]) });

  // Orders that were fired legs, by the order they became: their fills are labelled.
  const firedLegs = createMemo(() => {
    const fired = new Map<string, 'TP' | 'SL'>();
    for (const leg of triggers().recent) if (leg.firedOrderId) fired.set(leg.firedOrderId, leg.role === 'take-profit' ? 'TP' : 'SL');
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
      volumePlot?.destroy();
      volumePlot = null;
    }
    pending = frame.reset ? frame.bars : mergeBars(pending.length > 0 ? pending : bars(), frame.bars, COUNT_BACK * 2);
    terminal.frames.schedule(key, () => {
      setBars(pending);
      pending = [];
    });
  };
  const stop = bridge.onBars((frame) => {
    if (frame.subscriptionId === subscriptionId) accept(frame);
    else if (subscriptionId === null && early.length < 16) early.push(frame);
  });

  createEffect(
    on(
      () => `${props.market.market_id}|${props.turbo}|${resolution()}`,
      () => {
        retry?.stop();
        if (subscriptionId) void bridge.unsubscribe({ subscriptionId });
        subscriptionId = null;
        early.length = 0;
        pending = [];
        setBars([]);
        setLoaded(false);
        const chosen = resolution();
        retry = retryWhileNotReady(
          () => bridge.subscribeBars({ marketId: props.market.market_id, ...(props.turbo ? { turbo: true } : {}), resolution: chosen, countBack: COUNT_BACK }),
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

  // The start of the bar the current time falls in (seconds), on the window's clock; a new bar's time
  // redraws the axes even when no trade came.
  const currentBarStart = () => barOpenTime(terminal.clock.now(), resolution());
  onMount(() => {
    let last = currentBarStart();
    const timer = setInterval(() => {
      const now = currentBarStart();
      if (now !== last && plot) {
        plot.setData(plot.data);
        volumePlot?.setData(volumePlot.data);
      }
      last = now;
    }, 5_000);
    onCleanup(() => clearInterval(timer));
  });

  /** Both panes' time range (seconds): from the first bar to the bar of the current time. */
  const timeRangeNow = (): [number, number] => chartTimeRange(bars()[0]?.time ?? 0, bars().at(-1)?.time ?? 0, terminal.clock.now(), resolution());
  /** The price and volume panes share their cursor. */
  const syncKey = `${key}-panes`;

  // The labels uPlot drew last on each axis (its canvas has no text to read), for data-axis-* attributes.
  const axisLabels = { prices: [] as string[], times: [] as string[] };
  // uPlot is created with the first bars (its axes cannot lay out an empty range) and then fed
  // with setData; an empty series (a new market loading) keeps the previous drawing until data comes.
  const createPlot = (element: HTMLDivElement, data: uPlot.AlignedData) => {
    const market = props.market;
    const created = new uPlot(
      {
        width: element.clientWidth || 600,
        height: Math.max(120, element.clientHeight || 300),
        legend: { show: false },
        cursor: { points: { show: false }, drag: { x: true, y: false }, sync: { key: syncKey, setSeries: false } },
        scales: {
          // From the bars themselves: uPlot widens a single bar's x range to 1000 days on a seconds scale.
          // It runs to the bar of the current time, so a book with no trade for a while shows the gap
          // up to now instead of ending at its last trade as if that were the present.
          x: { time: true, range: timeRangeNow },
          y: { range: (_plot, min, max) => priceRange(min, max, keptPrices()) },
        },
        axes: [
          // One time format: a 24-hour clock (dates where a day starts), never uPlot's 12-hour default.
          { stroke: '#7d8896', grid: { stroke: '#1a2029' }, ticks: { stroke: '#222a35' }, space: 80, values: (_plot, splits) => (axisLabels.times = timeAxisLabels(splits)) },
          {
            stroke: '#7d8896',
            grid: { stroke: '#1a2029' },
            ticks: { stroke: '#222a35' },
            // Gridlines on whole multiples of the price step (never a finer split than the market quotes).
            incrs: priceIncrements(market),
            // Wide enough for the longest price label of this market (tabular digits, about 7 px each).
            size: (_plot, values) => {
              const width = axisWidthFor(values ?? []);
              if (width !== priceAxisWidth) {
                priceAxisWidth = width;
                // The volume pane's plotting area starts where the price pane's does.
                queueMicrotask(() => volumePlot?.setSize({ width: volumePlot.width, height: volumePlot.height }));
              }
              return width;
            },
            // The market's decimals with thousands separators, as every price of the terminal.
            values: (_plot, splits) => (axisLabels.prices = priceAxisLabels(market, splits)),
          },
        ],
        series: [
          {},
          { label: 'open', show: false },
          { label: 'high', stroke: 'transparent', points: { show: false } },
          { label: 'low', stroke: 'transparent', points: { show: false } },
          { label: 'close', show: false },
          { label: 'volume', show: false },
          { label: 'average 1', stroke: STUDY_COLOURS.averages[0], width: 1.25, points: { show: false } },
          { label: 'average 2', stroke: STUDY_COLOURS.averages[1], width: 1.25, points: { show: false } },
          { label: 'vwap', stroke: STUDY_COLOURS.vwap, width: 1, dash: [4, 3], points: { show: false } },
        ],
        hooks: {
          setCursor: [(current) => setHover(current.cursor.idx ?? null)],
          // A zoom of the price pane's time range is the volume pane's too.
          setScale: [
            (current, scaleKey) => {
              if (scaleKey !== 'x' || !volumePlot) return;
              const x = current.scales['x'];
              if (x?.min != null && x.max != null) volumePlot.setScale('x', { min: x.min, max: x.max });
            },
          ],
        },
        plugins: [candlePlugin(fillMarks, strokes, () => queueMicrotask(() => setDrawn((count) => count + 1)))],
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
    const observer = new ResizeObserver(() => {
      measureWrap();
      plot?.setSize({ width: element.clientWidth, height: Math.max(120, element.clientHeight) });
    });
    observer.observe(element);
    onCleanup(() => observer.disconnect());
  });
  onMount(() => {
    if (!volumeBox) return;
    const element = volumeBox;
    const observer = new ResizeObserver(() => volumePlot?.setSize({ width: element.clientWidth, height: Math.max(40, element.clientHeight) }));
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
        volumePlot?.destroy();
        volumePlot = null;
      },
      { defer: true },
    ),
  );

  createEffect(() => {
    const current = bars();
    if (current.length === 0 || !box) return;
    const decimals = props.market.quote.decimals;
    const values = studies();
    const data = [...barsToColumns(current, decimals, props.market.base.decimals), studyColumn(values.averages[0], decimals), studyColumn(values.averages[1], decimals), studyColumn(values.vwap, decimals)] as unknown as uPlot.AlignedData;
    if (plot) plot.setData(data);
    else {
      plot = createPlot(box, data);
      measureWrap();
    }
    if (!volumeBox) return;
    const volumes = volumeColumns(current, props.market.base.decimals);
    if (volumePlot) volumePlot.setData(volumes as unknown as uPlot.AlignedData);
    else volumePlot = createVolumePane(volumeBox, volumes, { timeRange: timeRangeNow, axisWidth: () => priceAxisWidth, syncKey, onHover: setHover });
  });
  // Redraw when own fills change (the marks) or a line moves, without new bars; a line placed or
  // gone may change the price range, which setData recomputes.
  createEffect(on([fillMarks, lines], () => plot?.redraw(false), { defer: true }));
  createEffect(
    on(
      keptPrices,
      () => {
        if (plot) plot.setData(plot.data);
      },
      { defer: true },
    ),
  );

  /**
   * The plot's price scale now (exact ends), for pixel to price and back; null before the first
   * draw. Computed once per draw, not once per line reading it: with a hundred and fifty orders
   * resting, every line's label computed the scale and measured the plot (below) on each draw. A
   * draw that kept the scale tells no line to move (each line's place reads it).
   */
  const scale = createMemo(
    (): PriceScale | null => {
      drawn();
      if (!plot) return null;
      const y = plot.scales['y'];
      return priceScale(y?.min, y?.max, plot.bbox.height / devicePixelRatio, props.market.quote.decimals);
    },
    null,
    { equals: (left, right) => left === right || (left !== null && right !== null && left.top === right.top && left.bottom === right.bottom && left.height === right.height) },
  );
  /**
   * The plotting area's top in px from the chart box's top: the top of uPlot's wrap (measured,
   * below) plus the offset uPlot gave its plotting area on its last draw (its own style, read
   * without layout). Measured per draw it forced a layout on each: with orders being placed on a
   * page with a hundred resting, those reads were 0.8 s of a 22 s profile (and two reads per line
   * per draw before that).
   */
  const plotTop = createMemo((): number | null => {
    drawn();
    const wrap = wrapTop();
    if (!plot || wrap === null) return null;
    return wrap + (Number.parseFloat(plot.over.style.top) || 0);
  });
  // The context menu at a height of the plot sets an alert at that price (snapped to the step).
  const [alertAt, setAlertAt] = createSignal<AlertMenuAt | null>(null);
  const openAlertMenu = (event: MouseEvent) => {
    const current = scale();
    if (!current || !plot) return;
    event.preventDefault();
    const y = event.clientY - plot.over.getBoundingClientRect().top;
    if (y < 0 || y > current.height) return;
    setAlertAt({ x: event.clientX, y: event.clientY, price: snapToTick(priceAtOffset(current, y), priceTick(props.market)) });
  };
  /** Where the plotting area starts (right of the price axis), in CSS px from the chart box's left. */
  const plotLeft = (): number => {
    drawn();
    return plot ? plot.bbox.left / devicePixelRatio : 0;
  };
  /**
   * Where a line's label goes, in px from the top of the chart box: on its line, or held at the
   * plot's edge when the line is off it (a label being dragged must stay under the pointer's capture).
   */
  const lineTop = (line: ChartLine): { top: number; off: boolean } | null => {
    const current = scale();
    const offset = plotTop();
    if (!current || offset === null) return null;
    const y = offsetOfPrice(current, line.price);
    const clamped = Math.min(Math.max(y, 0), current.height);
    return { top: Math.round(offset + clamped), off: clamped !== y };
  };

  // ---- dragging a line to amend ------------------------------------------------------------------
  // Refused on a book that is not live: the trader must see the book the new price is set against.
  const bookFreshness = createFreshness(terminal.freshness, (view) => [marketSource(view, props.market.market_id, props.turbo, 'book')]);
  const notLive = (): string | null =>
    bookFreshness.live() ? null : `Not amended: the ${props.market.base.symbol}/${props.market.quote.symbol} ${props.turbo ? 'Turbo' : 'Canonical'} book is ${bookFreshness.label()}; drag again when it is live.`;
  const signerText = (account: string) => {
    const trading = tradingAccount() ?? '';
    const owner = account === '' ? trading : account;
    return accountText({ account: owner, accountKind: owner === trading ? 'trading' : 'turbo-account' });
  };
  let dragKeyCleanup: (() => void) | null = null;
  const releaseKeys = () => {
    dragKeyCleanup?.();
    dragKeyCleanup = null;
  };
  onCleanup(releaseKeys);
  const startDrag = (line: ChartLine, event: PointerEvent) => {
    if (event.button !== 0 || !line.draggable || drag() !== null) return;
    event.preventDefault();
    const refusal = notLive();
    if (refusal !== null) {
      setOutcome({ ok: false, text: refusal, code: 'BOOK_NOT_LIVE', newId: null });
      return;
    }
    if (!plot) return;
    setOutcome(null);
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    // Escape cancels the drag (the label keeps no focus while the pointer holds it: listen on the window).
    const onKey = (key: KeyboardEvent) => {
      if (key.key !== 'Escape') return;
      key.preventDefault();
      cancelDrag();
    };
    window.addEventListener('keydown', onKey, true);
    dragKeyCleanup = () => window.removeEventListener('keydown', onKey, true);
    setDrag({ key: line.key, from: placedLines().find((placed) => placed.key === line.key)?.price ?? line.price, to: line.price, startY: event.clientY, sending: false });
  };
  const moveDrag = (event: PointerEvent) => {
    const current = drag();
    const now = scale();
    if (current === null || current.sending || now === null) return;
    setDrag({ ...current, to: dragPrice(props.market, now, current.from, current.startY, event.clientY) });
  };
  const endDrag = async () => {
    releaseKeys();
    const current = drag();
    if (current === null || current.sending) return;
    const placed = placedLines().find((line) => line.key === current.key);
    if (placed === undefined || current.to === current.from) {
      setDrag(null);
      return;
    }
    const refusal = notLive();
    if (refusal !== null) {
      setDrag(null);
      setOutcome({ ok: false, text: refusal, code: 'BOOK_NOT_LIVE', newId: null });
      return;
    }
    // The line stays at its new price while the confirmation is open and main answers.
    setDrag({ ...current, sending: true });
    try {
      if (placed.kind === 'order') {
        const order = terminal.store.state.openOrders.find((candidate) => candidate.orderId === placed.id);
        if (order === undefined) {
          setOutcome({ ok: false, text: 'Not amended: the order is no longer open.', code: 'ORDER_NOT_OPEN', newId: null });
          return;
        }
        const result = await terminal.trading.amend(props.market, order, { price: current.to }, signerText(order.account));
        if (result === null) setOutcome({ ok: false, text: 'Amend not confirmed: nothing was sent.', code: 'NOT_CONFIRMED', newId: null });
        else if (!result.ok) setOutcome({ ok: false, text: `Amend refused (${result.code}): ${result.message}`, code: result.code, newId: null });
        else {
          const newId = result.value.orders[0]?.orderId ?? null;
          setOutcome({
            ok: true,
            code: '',
            newId,
            text: `Amended to ${formatPrice(props.market, current.to)}: ${newId ? `new order ${shortId(newId)}` : 'filled at once'} replaces ${shortId(order.orderId)}`,
          });
        }
      } else if (placed.kind === 'leg') {
        const leg = triggers().pending.find((candidate) => candidate.triggerId === placed.id);
        if (leg === undefined) {
          setOutcome({ ok: false, text: 'Not moved: the leg is no longer pending.', code: 'TRIGGER_NOT_FOUND', newId: null });
          return;
        }
        const signer = signerText(props.turbo ? (terminal.turboBooks.view()?.tradingAs ?? '') : '');
        const result = await terminal.trading.moveLeg(props.market, leg, current.to, signer);
        if (result === null) setOutcome({ ok: false, text: 'Move not confirmed: nothing was sent.', code: 'NOT_CONFIRMED', newId: null });
        else if (!result.ok) setOutcome({ ok: false, text: `Leg not moved (${result.code}): ${result.message}`, code: result.code, newId: null });
        else {
          const moved = result.value.triggers.find((candidate) => candidate.role === leg.role && candidate.triggerPrice === current.to) ?? result.value.triggers[0];
          setOutcome({ ok: true, code: '', newId: moved?.triggerId ?? null, text: `Moved to ${formatPrice(props.market, current.to)}: new leg ${moved ? shortId(moved.triggerId) : '(not reported)'} replaces ${shortId(leg.triggerId)}` });
        }
      }
    } finally {
      setDrag(null);
    }
  };
  // ---- click-to-place ------------------------------------------------------------------------------
  // The window's one arming (the ladder's, stores/arming-store), the ladder's Size of this book, and
  // the best bid and ask from a one-level book of the chart's own.
  const armScope = () => ({ marketId: props.market.market_id, turbo: props.turbo });
  const armed = () => terminal.arming.armed(armScope());
  // Another book or market: the arming of the one that left is dropped (as the ladder does).
  createEffect(
    on(armScope, (_next, previous) => {
      if (previous !== undefined && terminal.arming.armed(previous)) terminal.arming.disarm(`the chart left ${previous.turbo ? 'the Turbo book' : 'the book'} it was armed for`);
    }),
  );
  const bookName = () => `${props.market.base.symbol}/${props.market.quote.symbol} (${props.turbo ? 'Turbo' : 'Canonical'} book)`;
  const sizeText = () => terminal.ladderSizes.text(props.market.market_id, props.turbo);
  const feed = createBookFeed(bridge, terminal.frames, () => ({ marketId: props.market.market_id, turbo: props.turbo, precision: priceTick(props.market), levels: 1 }));
  const liveFrame = () => (feed.frame()?.state === 'live' && bookFreshness.live() ? feed.frame() : null);
  const ticketContext = (): TicketContext | null => {
    const rules = bookRules(terminal.store.state.markets, props.market, props.turbo, props.turbo ? terminal.turboBooks.row(props.market.market_id) : null);
    if (rules === null) return null;
    const balances = terminal.store.state.balances;
    return {
      market: rules,
      turbo: props.turbo,
      maxOrderQuantity: terminal.store.state.settings?.maxOrderQuantity[props.market.market_id] ?? null,
      bestBid: liveFrame()?.bids[0]?.price ?? null,
      bestAsk: liveFrame()?.asks[0]?.price ?? null,
      availableQuote: props.turbo ? null : (balances.find((balance) => balance.assetId === props.market.quote.asset)?.unlocked ?? null),
      availableBase: props.turbo ? null : (balances.find((balance) => balance.assetId === props.market.base.asset)?.unlocked ?? null),
    };
  };
  const planAt = (price: bigint): ChartClickPlan =>
    chartClickPlan(price, { armed: armed(), bookLive: liveFrame() !== null, bookLabel: feed.frame()?.state === 'live' || feed.frame() === null ? bookFreshness.label() : 'resyncing', bookName: bookName(), sizeText: sizeText(), ticket: ticketContext() });
  /** The pointer over the plot (CSS px from its top), or null when it is elsewhere. */
  const [pointerY, setPointerY] = createSignal<number | null>(null);
  const plotOffset = (clientY: number): number | null => {
    const current = scale();
    if (!current || !plot) return null;
    const y = clientY - plot.over.getBoundingClientRect().top;
    return y < 0 || y > current.height ? null : y;
  };
  /** What a click would place where the pointer is: shown on the chart while armed. */
  const hoverPlan = createMemo((): { plan: ChartClickPlan; top: number } | null => {
    const y = pointerY();
    const current = scale();
    if (y === null || current === null || !armed() || drag() !== null || !plot || !box) return null;
    const plan = planAt(priceAtOffset(current, y));
    const offset = plot.over.getBoundingClientRect().top - box.getBoundingClientRect().top;
    const top = offset + offsetOfPrice(current, plan.price);
    return { plan, top: Math.round(top) };
  });
  /** The last click's order as sent to main (for the trader sessions and e2e: what the exchange must show). */
  const [placedByClick, setPlacedByClick] = createSignal<{ side: string; price: bigint; quantity: bigint } | null>(null);
  let pressedAt: { x: number; y: number } | null = null;
  const placeAtPointer = async (event: MouseEvent) => {
    const pressed = pressedAt;
    pressedAt = null;
    if (event.button !== 0 || pressed === null || Math.hypot(event.clientX - pressed.x, event.clientY - pressed.y) > 3) return;
    // Lines, their labels and the outcome have gestures of their own.
    if ((event.target as HTMLElement | null)?.closest('.chart-line, .chart-outcome, .alert-menu')) return;
    const y = plotOffset(event.clientY);
    const current = scale();
    if (y === null || current === null || drag() !== null) return;
    // The order the hover line shows is the order the click places (a click's coordinates are
    // whole pixels, the pointer's that drew the line may not be).
    const plan = hoverPlan()?.plan ?? planAt(priceAtOffset(current, y));
    setPlacedByClick(null);
    if (!plan.ok) {
      setOutcome({ ok: false, text: plan.reason, code: plan.code, newId: null, source: 'click' });
      return;
    }
    setOutcome(null);
    setPlacedByClick({ side: plan.side, price: plan.price, quantity: plan.quantity });
    const result = await terminal.trading.place(props.market, plan.evaluation.request, "the chart (click-to-place, the ladder's Size)", [...plan.evaluation.warnings]);
    if (result === null) setOutcome({ ok: false, text: 'Order not confirmed: nothing was sent.', code: 'NOT_CONFIRMED', newId: null, source: 'click' });
    else if (!result.ok) setOutcome({ ok: false, text: `Order refused (${result.code}): ${result.message}`, code: result.code, newId: null, source: 'click' });
    else {
      const newId = result.value.orders[0]?.orderId ?? null;
      setOutcome({ ok: true, code: '', newId, text: `Placed: ${plan.label}${newId ? ` (order ${shortId(newId)})` : ''}`, source: 'click' });
    }
  };

  // A refusal for a book that was not live goes when the book is live again.
  createEffect(() => {
    if (bookFreshness.live() && outcome()?.code === 'BOOK_NOT_LIVE') setOutcome(null);
  });
  // A success reads for a while and goes; a refusal stays until closed or the next drag.
  createEffect(
    on(outcome, (shown) => {
      if (shown === null || !shown.ok) return;
      const timer = setTimeout(() => setOutcome((current) => (current === shown ? null : current)), OUTCOME_SHOWN_MS);
      onCleanup(() => clearTimeout(timer));
    }),
  );
  function cancelDrag() {
    releaseKeys();
    if (drag()?.sending === false) setDrag(null);
  }

  onCleanup(() => {
    stop();
    retry?.stop();
    terminal.frames.cancel(key);
    if (subscriptionId) void bridge.unsubscribe({ subscriptionId });
    plot?.destroy();
    volumePlot?.destroy();
  });

  /** The bar the legend shows: under the cursor, else the last. */
  const shownIndex = (): number | null => {
    const list = bars();
    const index = hover();
    if (index !== null && list[index]) return index;
    return list.length > 0 ? list.length - 1 : null;
  };
  const shown = () => {
    const index = shownIndex();
    return index === null ? undefined : bars()[index];
  };
  /** A study's exact value at the legend's bar, formatted as the market's prices ("—" before it is defined). */
  const studyText = (values: readonly (bigint | null)[]): { text: string; raw: string } => {
    const index = shownIndex();
    const value = index === null ? null : (values[index] ?? null);
    return value === null ? { text: '—', raw: '' } : { text: formatPrice(props.market, value), raw: value.toString() };
  };

  return (
    <section class="panel" data-testid="chart-panel" data-market-id={props.market.market_id} data-book={props.turbo ? 'turbo' : 'canonical'} data-freshness={freshness.state()}>
      <header class="panel-head">
        <h2>Chart</h2>
        <span class="muted">
          <MarketName market={props.market} />
        </span>
        <FreshnessBadge mark={freshness} testId="chart-freshness" />
        <div class="spacer" />
        <ArmToggle armed={armed()} testId="chart-arm" title="Click-to-place is off until armed (one arming with the ladder's). When armed, a click on the chart places a Limit at that price with the ladder's Size: under the market a buy, over it a sell. Changing book, market, network or account, or the kill switch, disarms." onToggle={() => (armed() ? terminal.arming.disarm('disarmed on the chart') : terminal.arming.arm(armScope()))} />
        <label class="field-inline chart-size" title={`What a click on the chart, a click on the ladder and the buy/sell hotkeys trade, in ${props.market.base.symbol} (the ladder's Size of this book)`}>
          <span>Size</span>
          <input data-testid="chart-size" class="num" inputmode="decimal" size={7} value={sizeText()} onInput={(event) => terminal.ladderSizes.set(props.market.market_id, props.turbo, event.currentTarget.value)} />
          <span class="muted">{props.market.base.symbol}</span>
        </label>
        <StudiesControl studies={studySettings()} colours={STUDY_COLOURS.averages} />
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
      <div class="chart-legend chart-study-legend fresh-dim">
        <Show when={shown()}>
          <span class="chart-study-values" data-testid="chart-study-values">
            <For each={[0, 1] as const}>
              {(index) => {
                const value = () => studyText(studies().averages[index]);
                return (
                  <span class="chart-study" data-testid={`chart-study-average-${index + 1}`} data-label={averageLabel(averages()[index])} data-raw={value().raw}>
                    <span class="chart-study-swatch" style={{ background: STUDY_COLOURS.averages[index] }} />
                    {averageLabel(averages()[index])} <b>{value().text}</b>
                  </span>
                );
              }}
            </For>
            <span class="chart-study" data-testid="chart-study-vwap" data-session={vwapSession(resolution())} data-raw={studyText(studies().vwap).raw} title={`Volume-weighted average of the bars' typical price (high + low + close) / 3, from 00:00 of the ${vwapSession(resolution())} session`}>
              <span class="chart-study-swatch dashed" style={{ background: STUDY_COLOURS.vwap }} />
              VWAP ({vwapSession(resolution())}) <b>{studyText(studies().vwap).text}</b>
            </span>
          </span>
        </Show>
      </div>
      <div class="chart-area">
        <div
          class="chart-box fresh-dim"
          data-testid="chart"
          data-legs={lines().filter((line) => line.kind === 'leg').length}
          data-orders={lines().filter((line) => line.kind === 'order').length}
          data-position={lines().some((line) => line.kind === 'position') ? 'true' : 'false'}
          data-book-live={bookFreshness.live() ? 'true' : 'false'}
          data-fill-marks={fillMarks().length}
          data-axis-prices={(drawn(), axisLabels.prices.join(' | '))}
          data-axis-times={(drawn(), axisLabels.times.join(' | '))}
          data-leg-fill-marks={fillMarks().filter((mark) => mark.leg !== null).length}
          data-armed={armed() ? 'true' : 'false'}
          data-placed-side={placedByClick()?.side ?? ''}
          data-placed-price={placedByClick()?.price.toString() ?? ''}
          data-placed-quantity={placedByClick()?.quantity.toString() ?? ''}
          classList={{ 'click-armed': armed() }}
          ref={(element) => (box = element)}
          onContextMenu={openAlertMenu}
          onPointerMove={(event) => setPointerY(plotOffset(event.clientY))}
          onPointerLeave={() => setPointerY(null)}
          onPointerDown={(event) => {
            pressedAt = event.button === 0 ? { x: event.clientX, y: event.clientY } : null;
          }}
          onClick={(event) => void placeAtPointer(event)}
        >
          <Show when={hoverPlan()}>
            {(hover) => (
              <div
                class="chart-place-hover"
                classList={{ buy: hover().plan.ok && (hover().plan as { side: string }).side === 'Buy', sell: hover().plan.ok && (hover().plan as { side: string }).side === 'Sell', refused: !hover().plan.ok }}
                data-testid="chart-place-hover"
                data-ok={hover().plan.ok ? 'true' : 'false'}
                data-side={hover().plan.ok ? (hover().plan as { side: string }).side : ''}
                data-price={hover().plan.price.toString()}
                data-quantity={hover().plan.ok ? (hover().plan as { quantity: bigint }).quantity.toString() : ''}
                style={{ top: `${hover().top}px`, '--plot-left': `${plotLeft()}px` }}
              >
                <span class="chart-place-label">{hover().plan.ok ? (hover().plan as { label: string }).label : (hover().plan as { hint: string }).hint}</span>
              </div>
            )}
          </Show>
          <Show when={alertAt()}>
            {(at) => <AlertMenu market={props.market} turbo={props.turbo} at={at()} current={{ bid: null, ask: null, last: bars().at(-1)?.close ?? null }} onClose={() => setAlertAt(null)} />}
          </Show>
          <div class="chart-legs chart-lines" data-testid="chart-lines" style={{ '--plot-left': `${plotLeft()}px` }}>
            <For each={lineKeys()}>
              {(lineKey) => {
                // Per line: its object (re-rendered only when it is another one: keepUnchanged) and
                // its place (each draw re-reads it, the element moves only when it changed).
                const keyed = createMemo(() => lineOf(lineKey));
                const placed = createMemo(
                  () => {
                    const current = keyed();
                    return current === null ? null : lineTop(current);
                  },
                  null,
                  { equals: (left, right) => left === right || (left !== null && right !== null && left.top === right.top && left.off === right.off) },
                );
                return (
                  <Show when={keyed()}>
                    {(line) => (
                      <Show when={placed()}>
                        {(place) => {
                          const dragging = () => drag()?.key === lineKey;
                          const moved = () => {
                            const current = drag();
                            return current !== null && current.key === lineKey && current.to !== current.from ? current.from : null;
                          };
                          return (
                            <div
                              class={`chart-line ${line().kind} ${line().tone}`}
                              classList={{ 'off-plot': place().off, dragging: dragging(), 'chart-leg': line().kind === 'leg' }}
                              data-testid={line().kind === 'leg' ? 'chart-leg' : line().kind === 'order' ? 'chart-order' : 'chart-position'}
                              data-kind={line().kind}
                              data-price={line().price.toString()}
                              // Each attribute on its own (absent: undefined), not spread: a spread
                              // element re-assigned every prop of every line on each draw.
                              data-trigger-id={line().kind === 'leg' ? line().id : undefined}
                              data-role={line().kind === 'leg' ? (line().tone === 'tp' ? 'take-profit' : 'stop-loss') : undefined}
                              data-order-id={line().kind === 'order' ? line().id : undefined}
                              data-side={line().kind === 'order' ? line().side : undefined}
                              data-quantity={line().kind === 'order' ? (line().quantity?.toString() ?? '') : undefined}
                              data-algo-id={line().algo?.id}
                              data-algo-tag={line().algo?.tag}
                              data-account={line().figures ? line().id : undefined}
                              data-size={line().figures?.size.toString()}
                              data-unrealized={line().figures ? (line().figures!.unrealized?.toString() ?? '') : undefined}
                              data-stale={line().figures ? (line().figures!.stale ?? '') : undefined}
                              data-mark-side={line().figures ? (line().figures!.markSide ?? '') : undefined}
                              data-pnl-unit={line().figures?.unit}
                              style={{ top: `${place().top}px` }}
                            >
                              <span
                                class={`chart-line-label ${line().tone}`}
                                classList={{ draggable: line().draggable, dashed: line().dashed, sending: dragging() && drag()?.sending === true }}
                                data-testid={line().kind === 'leg' ? 'trigger-marker' : 'chart-line-label'}
                                title={line().draggable ? `${line().label} — drag to ${line().kind === 'order' ? 'amend the price' : 'move the trigger'} (Esc cancels)` : line().algo ? `${line().label} — an order of ${line().algo!.tag}, which main follows: change it under Working algorithms` : line().label}
                                tabIndex={line().draggable ? 0 : -1}
                                onPointerDown={(event) => startDrag(line(), event)}
                                onPointerMove={moveDrag}
                                onPointerUp={() => void endDrag()}
                                onPointerCancel={cancelDrag}
                                onKeyDown={(event) => {
                                  if (event.key === 'Escape') cancelDrag();
                                }}
                              >
                                <Show when={line().draggable}>
                                  <span class="chart-line-handle" aria-hidden="true">
                                    ⋮
                                  </span>
                                </Show>
                                {line().label}
                                <Show when={moved()}>
                                  {(from) => (
                                    <span class="muted" data-testid={line().kind === 'leg' ? 'trigger-marker-from' : 'chart-line-from'}>
                                      {' '}
                                      (from {formatPrice(props.market, from())})
                                    </span>
                                  )}
                                </Show>
                              </span>
                            </div>
                          );
                        }}
                      </Show>
                    )}
                  </Show>
                );
              }}
            </For>
          </div>
        </div>
        <div class="chart-volume fresh-dim" data-testid="chart-volume" ref={(element) => (volumeBox = element)} />
        <Show when={outcome()}>
          {(shownOutcome) => (
            <div
              class="chart-outcome"
              classList={{ error: !shownOutcome().ok }}
              data-testid={shownOutcome().source === 'click' ? (shownOutcome().ok ? 'chart-place-result' : 'chart-place-error') : shownOutcome().ok ? 'chart-amend-result' : 'chart-line-error'}
              data-ok={shownOutcome().ok ? 'true' : 'false'}
              data-code={shownOutcome().code}
              data-new-id={shownOutcome().newId ?? ''}
              style={{ left: `${plotLeft() + 8}px` }}
              role="status"
            >
              <span>{shownOutcome().text}</span>
              <button type="button" class="link" data-testid="chart-outcome-close" title="Dismiss" onClick={() => setOutcome(null)}>
                ×
              </button>
            </div>
          )}
        </Show>
      </div>
    </section>
  );
};
