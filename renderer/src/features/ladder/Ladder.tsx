// The depth ladder (DOM): a fixed price column with bid and ask sizes, own orders, volume at price,
// best bid, best ask and the last trade on their rows. Click-to-trade is off until armed; a click
// in the bid column buys at the row's price, in the ask column sells (the size in the ladder's
// own Size field and presets, the ticket's order type; never the ticket's quantity); a click on an own order cancels it,
// a drag amends it (cancel and create in one signed batch, on a live book only). Take-profit and
// stop-loss legs of the book are marked on their rows; dragging a marker moves the leg.
// Grouping starts at the market's tick; a recenter puts the inside market in the middle and, when
// the spread is wider than the ladder, leaves out the empty middle of the spread (ladder-layout
// `insideView`). It never moves by itself while held, under the pointer, during a drag or while a
// dialog is open. The best bid and ask are pinned to the edge whenever they are not on a row shown.
// Cumulative depth is a toggle; the account's recent fills, the position's average entry and the
// P&L of the position at each row's price are shown on the rows.
// Rows are drawn at most once per animation frame, into cells keyed by price (row-cells.ts).
import { createTextCache } from '../../format/text-cache';
import { ArmToggle } from '../../components/ArmToggle';
import { batch, createEffect, createMemo, createRenderEffect, createSignal, For, on, onCleanup, onMount, Show, untrack, type Component } from 'solid-js';
import { parseUnits } from '../../../../shared/encoding/units';
import type { FlowWindow, OrderView, PositionView } from '../../../../shared/ipc/views';
import { ORDER_KIND_TABLE } from '../../../../shared/market/order-kinds';
import type { Side } from '../../../../shared/market/order-type';
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import { CLOSE_PERCENTS } from '../../../../shared/positions/close-plan';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { editableQuantity, formatPrice, formatQuantity } from '../../format/market-format';
import { formatUnits } from '../../format/units';
import { bookRules } from '../../stores/turbo-store';
import { createFreshness, FreshnessBadge, marketSource } from '../../lib/freshness';
import { createBookFeed } from '../market-data/book-feed';
import { createTriggerOverlay, rowOf, TriggerMarker, triggerLines } from '../triggers';
import { accountText, bookText, entryText, pnlText, pnlUnitText, sizeText as fixedSize } from '../positions/positions-model';
import { clickPrice, insideView, ladderPrecisionOptions, mayAutoRecenter, needsRecenter, rowIndexer, rowPriceOf, viewRows, type LadderView } from './ladder-layout';
import { bookHealth, bookPnlAt, bookPosition, bookUnrealized, buildLadderFrame, sameIds, type LadderRow } from './ladder-model';
import { ladderPresets, withPreset } from './ladder-size';
import { oneClickOrder } from './one-click-order';
import { largeLotOf, OrderFlowControls } from './OrderFlowControls';
import { createRowCells } from './row-cells';
import { writeRow, type RowElements, type RowText } from './row-writer';
import { TurboDepthCell, TurboDepthHead, TurboDepthToggle, turboDepthOn } from './TurboDepthColumn';
import { createTurboDepthOverlay } from './turbo-depth-source';
import './ladder.css';
import { marketName } from '../markets/market-label';
import { AlertMenu, type AlertMenuAt } from '../alerts/AlertMenu';
import { createAlgoSource } from '../algos/algo-data';
import { childTags, tagsOf } from '../algos/algo-figures';
import { ChaseMenuItems } from '../algos/ChaseMenuItems';
import '../algos/algos.css';

export const LADDER_ROW_HEIGHT = 18;
/** Auto-recenter when the inside market comes within this many rows of the top or bottom. */
export const RECENTER_MARGIN_ROWS = 4;
const NO_LEGS: readonly string[] = [];
/** Own fills younger than this are highlighted on their rows. */
export const OWN_FILLS_RECENT_MS = 30 * 60_000;

function sameView(left: LadderView, right: LadderView | null): boolean {
  if (right === null || left.kind !== right.kind) return false;
  if (left.kind === 'centre') return right.kind === 'centre' && left.centre === right.centre;
  return right.kind === 'split' && left.askRow === right.askRow && left.bidRow === right.bidRow;
}

/** A modal dialog of this window is open (confirmation, kill report, host code…): the ladder holds still. */
function dialogOpen(): boolean {
  return typeof document !== 'undefined' && document.querySelector('[aria-modal="true"], [role="alertdialog"]') !== null;
}


interface DragState {
  readonly side: Side;
  readonly orderIds: readonly string[];
  readonly fromRow: bigint;
  overRow: bigint | null;
}

export interface LadderProps {
  readonly market: Market;
  readonly turbo: boolean;
  /** Fixed row count (benchmarks); by default the ladder fills its panel. */
  readonly rows?: number;
}

export const Ladder: Component<LadderProps> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const tick = createMemo(() => priceTick(props.market));
  const options = createMemo(() => ladderPrecisionOptions(tick()));
  // The finest rows the market offers: its tick, or the depth stream's grouping where that is coarser.
  const finest = () => options()[0] ?? tick();
  const [precision, setPrecision] = createSignal<bigint>(finest());
  const [rowCount, setRowCount] = createSignal(props.rows ?? 40);
  const [view, setView] = createSignal<LadderView | null>(null);
  const [hold, setHold] = createSignal(false);
  const [pointerOver, setPointerOver] = createSignal(false);
  const [cumulative, setCumulative] = createSignal(false);
  const [flowWindow, setFlowWindow] = createSignal<FlowWindow>('session');
  // One arming per window (stores/arming-store): for this market and book, dropped on a change of
  // either, of network or account, and after the kill switch; the buy/sell hotkeys obey it too.
  const scope = () => ({ marketId: props.market.market_id, turbo: props.turbo });
  const armed = () => terminal.arming.armed(scope());
  const setArmed = (on: boolean) => (on ? terminal.arming.arm(scope()) : terminal.arming.disarm('disarmed on the ladder'));
  const [hint, setHint] = createSignal<string | null>(null);
  const [drag, setDrag] = createSignal<DragState | null>(null);
  const cells = createRowCells();
  // The optional Turbo depth column: main reads and groups it while on (display only, never per frame).
  const turboDepthShown = () => turboDepthOn(terminal.store.state.settings) && terminal.turboBooks.row(props.market.market_id)?.hasTurboBook === true;
  const turboDepth = createTurboDepthOverlay(bridge, () => (turboDepthShown() ? { marketId: props.market.market_id, step: precision() } : null));
  let barScale: bigint | undefined;

  // Another book or market: the arming of the one that left is dropped (never carried over).
  createEffect(
    on(scope, (_next, previous) => {
      if (previous !== undefined && terminal.arming.armed(previous)) terminal.arming.disarm(`the ladder left ${previous.turbo ? 'the Turbo book' : 'the book'} it was armed for`);
    }),
  );

  // A new market starts at its finest rows (its tick), recentred on its inside market.
  createEffect(
    on(
      () => props.market.market_id,
      () =>
        batch(() => {
          setPrecision(finest());
          setView(null);
          setHold(false);
        }),
      { defer: true },
    ),
  );

  const rowPrices = createMemo(() => {
    const current = view();
    return current === null ? [] : viewRows(current, precision(), rowCount());
  });
  const centre = () => {
    const rows = rowPrices();
    return rows.length === 0 ? null : (rows[Math.floor(rows.length / 2)] as bigint);
  };

  // The inside price as last drawn: how far the trader has scrolled away from it decides how many levels to ask for.
  const [insidePrice, setInsidePrice] = createSignal<bigint | null>(null);
  const levels = createMemo(() => {
    // Ask for what is shown plus the rows between the centre and the inside market when scrolled away.
    const middle = centre();
    let away = 0;
    const best = insidePrice();
    if (middle !== null && best !== null) {
      const distance = (middle > best ? middle - best : best - middle) / precision();
      away = distance > 500n ? 500 : Number(distance);
    }
    return Math.min(500, Math.max(1, rowCount() + away + 10));
  });

  const feed = createBookFeed(bridge, terminal.frames, () => ({
    marketId: props.market.market_id,
    turbo: props.turbo,
    precision: precision(),
    levels: levels(),
    flowWindow: flowWindow(),
  }));

  const frame = () => {
    const current = feed.frame();
    return current && current.precision === precision() ? current : null;
  };
  // How current the book is: main's word on its depth stream and connection, aged here, and what
  // the frames say (resyncing, crossed, not arrived yet). Clicks trade only on a live book.
  const freshness = createFreshness(
    terminal.freshness,
    (view) => [marketSource(view, props.market.market_id, props.turbo, 'book')],
    () => {
      const current = frame();
      if (!current) return { state: 'resyncing', detail: 'waiting for the book' };
      const own = bookHealth(current, false);
      return own === 'live' ? null : { state: 'resyncing', detail: own === 'crossed' ? 'the book arrived crossed' : 'rebuilding the book' };
    },
  );
  const health = () => {
    const current = frame();
    return current ? bookHealth(current, freshness.state() === 'disconnected') : null;
  };
  const clickable = () => armed() && freshness.live();
  // Anything but a live, uncrossed book on a working stream: no level is shown or traded from.
  const resyncing = () => {
    const current = health();
    return current !== null && current !== 'live';
  };
  const bestBid = () => (resyncing() ? null : (frame()?.bids[0]?.price ?? null));
  const bestAsk = () => (resyncing() ? null : (frame()?.asks[0]?.price ?? null));

  // Trigger legs of this book, placed on the rows their trigger prices fall in. A dragged leg stays
  // on its row (its marker says where it goes) and the row it would land on is outlined.
  const overlay = createTriggerOverlay(bridge, { market: () => props.market, turbo: () => props.turbo });
  const legsByRow = createMemo(() => {
    const rows = new Map<string, string[]>();
    const step = precision();
    for (const line of triggerLines(overlay.snapshot(), props.market, props.turbo)) {
      const key = rowOf(line.price, step).toString();
      const list = rows.get(key);
      if (list) list.push(line.triggerId);
      else rows.set(key, [line.triggerId]);
    }
    return rows;
  });
  const legLine = (triggerId: string) => overlay.lines().find((line) => line.triggerId === triggerId) ?? null;
  const legTarget = createMemo(() => {
    const dragging = overlay.dragging();
    return dragging === null || dragging.to === dragging.from ? null : rowOf(dragging.to, precision()).toString();
  });
  const rowPriceAt = (clientY: number): bigint | null => {
    if (!body) return null;
    const index = Math.floor((clientY - body.getBoundingClientRect().top) / LADDER_ROW_HEIGHT);
    return rowPrices()[index] ?? null;
  };

  // Working orders of the algorithms main runs, tagged with their parent beside the order.
  const algos = createAlgoSource(bridge);
  const algoChildren = createMemo(() => childTags(algos.algos()));
  const AlgoTags = (tagProps: { orderIds: readonly string[] }) => {
    const tags = () => tagsOf(tagProps.orderIds, algoChildren());
    return (
      <Show when={tags().length > 0}>
        <span
          class="ladder-algo-tags"
          data-testid="ladder-algo-tag"
          data-tags={tags().map((tag) => tag.tag).join(',')}
          title={`Your order here belongs to ${tags().map((tag) => tag.tag).join(', ')}: main runs it; change it under Working algorithms`}
          onMouseDown={(event) => event.stopPropagation()}
        >
          <For each={tags()}>{(tag) => <span class="algo-child-tag">{tag.compact}</span>}</For>
        </span>
      </Show>
    );
  };

  const ownOrders = createMemo(() =>
    terminal.store.state.openOrders
      .filter((order) => order.marketId === props.market.market_id && order.turbo === props.turbo)
      .map((order) => ({ orderId: order.orderId, marketId: order.marketId, side: order.side, price: order.price, remaining: order.quantity - order.filled })),
  );

  // Recenter on the first frame, and whenever the inside market nears an edge or leaves the rows
  // shown, unless the ladder may not move now (held, under the pointer, dragging, a dialog open).
  createEffect(() => {
    const current = frame();
    if (!current || health() !== 'live') return;
    const step = precision();
    const present = view();
    const bid = current.bids[0]?.price ?? null;
    const ask = current.asks[0]?.price ?? null;
    setInsidePrice(bid ?? ask);
    // The signals first (so the effect keeps tracking them), the document's dialogs only when a
    // recentre is due: a query of the whole page on every frame cost a fifth of the ladder's script.
    const auto = mayAutoRecenter({ held: hold(), pointerOver: pointerOver(), dialogOpen: false, dragging: drag() !== null || overlay.dragging() !== null });
    if (present === null || (auto && needsRecenter({ rows: rowPrices(), step, bestBid: bid, bestAsk: ask, margin: RECENTER_MARGIN_ROWS }) && !dialogOpen())) {
      const next = insideView(bid, ask, step, untrack(rowCount), current.lastTrade?.price ?? null);
      if (next !== null && !sameView(next, present)) setView(next);
    }
  });

  // The account's own fills of this book, recent ones only (re-read every minute as they age).
  const [minute, setMinute] = createSignal(0);
  onMount(() => {
    const timer = setInterval(() => setMinute((value) => value + 1), 60_000);
    onCleanup(() => clearInterval(timer));
  });
  const ownFills = createMemo(() => {
    minute();
    const since = terminal.clock.now() - OWN_FILLS_RECENT_MS;
    return terminal.store.state.fills
      .filter((fill) => fill.marketId === props.market.market_id && fill.turbo === props.turbo && fill.time >= since)
      .map((fill) => ({ side: fill.side, price: fill.price, quantity: fill.quantity }));
  });

  // The position of this book from main's positions service (average cost from the fills), read on
  // every order or fill change; its unrealized P&L at the window's one mark (the live book's exit
  // price), the figure the Positions panel and the chart show too.
  onMount(() => onCleanup(terminal.positions.use()));
  const positions = (): readonly PositionView[] => terminal.positions.view()?.positions ?? [];
  const position = createMemo(() => bookPosition(positions(), props.market.market_id, props.turbo));
  // The position the foot's close buttons act on: the book's one position, or the signing account's of several.
  const toolPosition = createMemo((): PositionView | null => {
    const current = position();
    if (current === null) return null;
    if (current.open.length === 1) return current.open[0]!;
    const trading = terminal.store.state.account?.tradeAccount?.tradeAccountId ?? null;
    const signer = props.turbo ? (terminal.turboBooks.view()?.tradingAs ?? trading) : trading;
    return current.open.find((one) => one.account === signer) ?? null;
  });
  const [closing, setClosing] = createSignal(false);
  // Each asks its own confirmation (trading-actions) and is refused by main as the Positions panel's buttons are.
  const positionTool = async (action: () => Promise<unknown>) => {
    setClosing(true);
    try {
      await action();
    } finally {
      setClosing(false);
      void terminal.positions.refresh();
    }
  };
  const unrealized = createMemo(() => {
    const current = position();
    return current === null ? null : bookUnrealized(current.open, (one) => terminal.marks.figures(one), { baseDecimals: props.market.base.decimals, priceTick: tick() });
  });

  createEffect(() => {
    const current = frame();
    const prices = rowPrices();
    const live = current !== null && health() === 'live';
    const next = buildLadderFrame({
      rows: prices,
      step: precision(),
      marketId: props.market.market_id,
      // While resyncing no level is shown: a stale or crossed book must never be traded from.
      bids: live ? current.bids : [],
      asks: live ? current.asks : [],
      volumeAtPrice: live ? current.volumeAtPrice : [],
      flowAtPrice: live ? current.flowAtPrice : [],
      largeLot: largeLotOf(terminal.store.state.settings, props.market.market_id),
      lastTrade: live ? current.lastTrade : null,
      ownOrders: ownOrders(),
      cumulative: cumulative(),
      ownFills: ownFills(),
      entryPrice: position()?.entry ?? null,
      barScale,
      previous: cells.current,
    });
    barScale = next.barScale;
    cells.apply(next.rows);
  });

  // An explicit recenter (button, hotkey, a pinned best price) moves the ladder even under the pointer.
  const recenter = () => {
    setHold(false);
    const current = frame();
    const next = insideView(bestBid(), bestAsk(), precision(), rowCount(), current?.lastTrade?.price ?? null);
    if (next !== null) setView(next);
  };

  createEffect(
    on(
      terminal.ladderCommand,
      (command) => {
        if (command?.kind === 'recenter') recenter();
      },
      { defer: true },
    ),
  );

  let body: HTMLDivElement | undefined;
  onMount(() => {
    if (props.rows !== undefined || !body) return;
    const observer = new ResizeObserver(() => {
      const height = body?.clientHeight ?? 0;
      setRowCount(Math.max(5, Math.floor(height / LADDER_ROW_HEIGHT)));
    });
    observer.observe(body);
    onCleanup(() => observer.disconnect());
  });

  const onWheel = (event: WheelEvent) => {
    event.preventDefault();
    const middle = centre();
    if (middle === null) return;
    const notches = Math.sign(event.deltaY) * (event.shiftKey ? 10 : 2);
    // Scrolling by hand holds the ladder where the trader put it until recentred.
    setHold(true);
    const next = middle - BigInt(notches) * precision();
    setView({ kind: 'centre', centre: next > precision() ? next : precision() });
  };

  const flashHint = (text: string) => {
    setHint(text);
    window.setTimeout(() => setHint((current) => (current === text ? null : current)), 2500);
  };

  // The size a click and the buy/sell hotkeys trade: the ladder's own Size field for this market
  // and book (never the ticket's quantity). A fresh market and book starts at the smallest size its
  // book accepts (its own row on a Turbo book); a field the trader cleared stays empty.
  const rules = () => bookRules(terminal.store.state.markets, props.market, props.turbo, props.turbo ? terminal.turboBooks.row(props.market.market_id) : null);
  const referencePrice = () => bestAsk() ?? bestBid() ?? position()?.entry ?? null;
  const sizes = createMemo(() => ladderPresets(terminal.store.state.settings?.quantityPresets[props.market.market_id], rules() ?? props.market, referencePrice()));
  const sizeText = () => terminal.ladderSizes.text(props.market.market_id, props.turbo);
  const setSizeText = (text: string) => terminal.ladderSizes.set(props.market.market_id, props.turbo, text);
  const sizeValue = createMemo(() => {
    const text = sizeText().trim();
    if (text === '') return null;
    const parsed = parseUnits(text, props.market.base.decimals, 'Size');
    return parsed.ok ? parsed.value : null;
  });
  createEffect(() => {
    // Only once the book's rules and a price are known: a default from a guess could be dust.
    if (rules() === null || referencePrice() === null) return;
    const first = sizes().presets.find((preset) => preset >= sizes().minimum);
    if (first !== undefined) terminal.ladderSizes.offerDefault(props.market.market_id, props.turbo, editableQuantity(props.market, first));
  });
  const savePreset = async () => {
    const size = sizeValue();
    const settings = terminal.store.state.settings;
    if (size === null || size <= 0n || !settings) {
      flashHint('Type a size to keep it as a preset');
      return;
    }
    const presets: Record<string, bigint[]> = {};
    for (const [marketId, list] of Object.entries(settings.quantityPresets)) presets[marketId] = [...list];
    presets[props.market.market_id] = withPreset(sizes().configured ? sizes().presets : [], size);
    const result = await bridge.updateSettings({ quantityPresets: presets });
    if (result.ok) {
      terminal.store.setSettings(result.value);
      flashHint(`${formatQuantity(props.market, size)} ${props.market.base.symbol} kept as a preset for ${pair()}`);
    } else terminal.store.notify('error', `Preset not saved (${result.code}): ${result.message}`);
  };

  const placeAt = (side: Side, row: bigint) => {
    const book = rules();
    if (!armed()) {
      flashHint('Arm the ladder to trade by clicking');
      return;
    }
    if (resyncing() || !freshness.live()) {
      flashHint(`The book is ${freshness.label()}: clicks are ignored until it is live`);
      return;
    }
    if (book === null) {
      flashHint("The Turbo book's rules are not loaded yet; clicks are ignored until they are");
      return;
    }
    const settings = terminal.store.state.settings;
    const balances = terminal.store.state.balances;
    const order = oneClickOrder(
      { side, price: clickPrice(side, row, tick()), sizeText: sizeText(), ticketKind: terminal.tickets.draft(props.market.market_id).kind },
      {
        market: book,
        turbo: props.turbo,
        maxOrderQuantity: settings?.maxOrderQuantity[props.market.market_id] ?? null,
        bestBid: bestBid(),
        bestAsk: bestAsk(),
        availableQuote: props.turbo ? null : (balances.find((balance) => balance.assetId === props.market.quote.asset)?.unlocked ?? null),
        availableBase: props.turbo ? null : (balances.find((balance) => balance.assetId === props.market.base.asset)?.unlocked ?? null),
      },
    );
    if (!order.evaluation.ok) {
      flashHint(order.evaluation.message);
      terminal.store.notify('error', `Ladder ${side.toLowerCase()} not sent: ${order.evaluation.message}`);
      return;
    }
    if (order.note !== null) flashHint(order.note);
    void terminal.trading.place(props.market, order.evaluation.request, "the ladder (its Size field)", [...(order.note === null ? [] : [order.note]), ...order.evaluation.warnings]);
  };

  // The context menu of a row sets an alert at its price: its own gesture, never a trading click.
  const [alertAt, setAlertAt] = createSignal<AlertMenuAt | null>(null);

  const startDrag = (event: MouseEvent, side: Side, row: LadderRow) => {
    // Only the main button drags an order: a right click opens the row's alert menu instead.
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    const ownIds = side === 'Buy' ? row.ownBuyIds : row.ownSellIds;
    // Main follows and amends an algorithm's children itself: a hand-made move would replace one behind its back.
    const orderIds = ownIds.filter((orderId) => !algoChildren().has(orderId));
    if (orderIds.length < ownIds.length) flashHint(`${tagsOf(ownIds, algoChildren()).map((tag) => tag.tag).join(', ')}: change it under Working algorithms`);
    if (orderIds.length === 0) return;
    setDrag({ side, orderIds: [...orderIds], fromRow: row.price, overRow: row.price });
  };

  // Who signs an amend of this order: the trading account, or the Turbo Account that owns it.
  const signerOf = (order: OrderView) => {
    const trading = terminal.store.state.account?.tradeAccount?.tradeAccountId ?? '';
    const account = order.account === '' ? trading : order.account;
    return accountText({ account, accountKind: account === trading ? 'trading' : 'turbo-account' });
  };
  const [lastAmend, setLastAmend] = createSignal<{ readonly oldId: string; readonly newId: string | null } | null>(null);

  const finishDrag = (row: bigint | null) => {
    const current = drag();
    setDrag(null);
    if (!current || row === null) return;
    if (row === current.fromRow) {
      for (const orderId of current.orderIds) void terminal.trading.cancel(props.market, orderId, props.turbo);
      return;
    }
    if (!armed()) {
      flashHint('Arm the ladder to move orders by dragging');
      return;
    }
    if (resyncing() || !freshness.live()) {
      flashHint(`The book is ${freshness.label()}: orders are not moved until it is live`);
      terminal.store.notify('warning', `Order not moved: the ${bookText(props.turbo)} book of ${pair()} is ${freshness.label()}; drag again once it is live.`);
      return;
    }
    const price = clickPrice(current.side, row, tick());
    for (const orderId of current.orderIds) {
      const order = terminal.store.state.openOrders.find((candidate) => candidate.orderId === orderId);
      if (!order) continue;
      void terminal.trading.amend(props.market, order, { price }, signerOf(order)).then((result) => {
        if (result?.ok) setLastAmend({ oldId: orderId, newId: result.value.orders[0]?.orderId ?? null });
      });
    }
  };

  onMount(() => {
    const cancelDrag = () => setDrag(null);
    window.addEventListener('mouseup', cancelDrag);
    onCleanup(() => window.removeEventListener('mouseup', cancelDrag));
  });

  const pair = () => `${marketName(props.market, terminal.store.state.markets?.markets ?? [])}${props.turbo ? ' (Turbo book)' : ''}`;
  const short = (id: string) => `${id.slice(0, 8)}…${id.slice(-4)}`;
  const stepLabel = (step: bigint) => formatUnits(step, props.market.quote.decimals);
  // Sizes with the base's meaningful decimals, always the same number, so a column lines up on the point.
  // Row sizes repeat from frame to frame: formatted once per value (bounded), not on every redraw.
  const sizeCache = createMemo(() => {
    const market = props.market;
    return createTextCache((quantity: bigint) => fixedSize(market, quantity));
  });
  const signClass = (text: string) => ({ up: text.startsWith('+'), down: text.startsWith('-') });
  const hiddenRows = createMemo(() => {
    const rows = rowPrices();
    let hidden = 0n;
    for (let index = 1; index < rows.length; index++) hidden += (rows[index - 1]! - rows[index]!) / precision() - 1n;
    return hidden;
  });
  const ownFillTitle = (row: LadderRow) => {
    const parts: string[] = [];
    if (row.ownBought > 0n) parts.push(`bought ${formatQuantity(props.market, row.ownBought)}`);
    if (row.ownSold > 0n) parts.push(`sold ${formatQuantity(props.market, row.ownSold)}`);
    return parts.length === 0 ? undefined : `Your fills here in the last ${OWN_FILLS_RECENT_MS / 60_000} minutes: ${parts.join(', ')} ${props.market.base.symbol}`;
  };
  // How a row's figures read, for writeRow: a new one (another market) rewrites every cell.
  const rowText = createMemo((): RowText => {
    const cache = sizeCache();
    const symbol = props.market.base.symbol;
    const sized = (quantity: bigint) => (quantity > 0n ? cache(quantity) : '');
    return {
      size: sized,
      own: (count, quantity) => (count > 0 ? `${count > 1 ? `${count}× ` : ''}${cache(quantity)}` : ''),
      ownFillTitle,
      flowTitle: (row) => (row.volume > 0n ? `Bought by takers ${sized(row.bought)}, sold by takers ${sized(row.sold)} ${symbol}` : undefined),
    };
  });
  // P&L of the position if it were closed at the row's price (the foot's computation at the row's price).
  const rowPnl = (price: bigint) => {
    const current = position();
    if (!current || current.entry === null) return null;
    return bookPnlAt(current.open, price, props.market.base.decimals);
  };
  // The best bid and ask when no row shown holds them (scrolled away, or left out): pinned to an edge.
  const pinned = createMemo(() => {
    const rows = rowPrices();
    const current = frame();
    if (rows.length === 0 || !current || resyncing()) return { top: [], bottom: [] };
    const indexOf = rowIndexer(rows, precision());
    const top: { side: 'ask' | 'bid'; price: bigint; quantity: bigint }[] = [];
    const bottom: { side: 'ask' | 'bid'; price: bigint; quantity: bigint }[] = [];
    const ask = current.asks[0];
    const bid = current.bids[0];
    if (ask && indexOf(rowPriceOf('Sell', ask.price, precision())) < 0) (ask.price < (rows[rows.length - 1] as bigint) ? bottom : top).push({ side: 'ask', price: ask.price, quantity: ask.quantity });
    if (bid && indexOf(rowPriceOf('Buy', bid.price, precision())) < 0) (bid.price > (rows[0] as bigint) ? top : bottom).push({ side: 'bid', price: bid.price, quantity: bid.quantity });
    return { top, bottom };
  });
  const Pinned = (pinProps: { at: 'top' | 'bottom' }) => (
    <Show when={pinned()[pinProps.at].length > 0}>
      <div class={`ladder-pinned ladder-pinned-${pinProps.at}`} data-testid={`ladder-pinned-${pinProps.at}`} title="Not on the rows shown: click to recenter" onClick={recenter}>
        <For each={pinned()[pinProps.at]}>
          {(best) => (
            <span class={`pin pin-${best.side}`} data-testid={`ladder-pinned-${best.side}`} data-price={best.price.toString()}>
              {best.side === 'ask' ? 'Best ask' : 'Best bid'} <b class="num">{formatPrice(props.market, best.price)}</b> <span class="num">{fixedSize(props.market, best.quantity)}</span> {pinProps.at === 'top' ? '▲' : '▼'}
            </span>
          )}
        </For>
      </div>
    </Show>
  );

  return (
    <div
      class="ladder"
      classList={{ armed: armed(), dragging: drag() !== null || overlay.dragging() !== null, 'with-pnl': position() !== null, 'with-turbo-depth': turboDepthShown() }}
      data-testid="ladder"
      data-market-id={props.market.market_id}
      data-book={props.turbo ? 'turbo' : 'canonical'}
      data-armed={armed() ? 'true' : 'false'}
      data-freshness={freshness.state()}
      data-clickable={clickable() ? 'true' : 'false'}
      data-precision={precision().toString()}
      data-layout={view()?.kind ?? 'none'}
      data-pointer-over={pointerOver() ? 'true' : 'false'}
      data-cumulative={cumulative() ? 'true' : 'false'}
      onMouseEnter={() => setPointerOver(true)}
      onMouseLeave={() => setPointerOver(false)}
    >
      <div class="ladder-toolbar">
        <ArmToggle armed={armed()} testId="ladder-arm" title="Click-to-trade and the buy/sell hotkeys are off until armed. When armed, a click in the bid column buys and in the ask column sells, at the row's price, with the size in the ladder's Size field and the ticket's order type. Changing book, market, network or account, or the kill switch, disarms." onToggle={() => setArmed(!armed())} />
        <label class="field-inline" title="Rows merge this many price steps (the market's tick at first). Bids merge down to the row price, asks up to it.">
          <span>Group</span>
          <select data-testid="ladder-precision" value={precision().toString()} onChange={(event) => {
              const step = BigInt(event.currentTarget.value);
              batch(() => {
                setPrecision(step);
                setView(null);
              });
            }}>
            <For each={options()}>{(step) => <option value={step.toString()}>{stepLabel(step)}</option>}</For>
          </select>
        </label>
        <button type="button" classList={{ on: cumulative() }} data-testid="ladder-cumulative" aria-pressed={cumulative()} title="Cumulative depth: each row shows everything bid at its price or above, or offered at its price or below" onClick={() => setCumulative(!cumulative())}>
          Σ
        </button>
        <button type="button" classList={{ on: hold() }} data-testid="ladder-hold" aria-pressed={hold()} title="Hold freezes the ladder: no automatic recentering (it never recenters by itself while the pointer is over it or a dialog is open)" onClick={() => setHold(!hold())}>
          Hold
        </button>
        <button type="button" data-testid="ladder-recenter" title={`Recenter on the inside market (${terminal.store.state.settings?.hotkeys.recenter ?? 'Space'})`} onClick={recenter}>
          Center
        </button>
        <FreshnessBadge mark={freshness} testId="ladder-freshness" />
        <span class="ladder-hint" data-testid="ladder-hint">{hint() ?? ''}</span>
      </div>
      <div class="ladder-sizebar">
        <label class="field-inline" title={`What a click on the ladder and the buy/sell hotkeys trade, in ${props.market.base.symbol}: this field only (the ticket's quantity is its own). The smallest size this book accepts now is ${formatQuantity(props.market, sizes().minimum)} ${props.market.base.symbol}.`}>
          <span>Size</span>
          <input
            data-testid="ladder-size"
            class="num"
            classList={{ invalid: sizeText().trim() !== '' && sizeValue() === null }}
            inputmode="decimal"
            placeholder={`min ${editableQuantity(props.market, sizes().minimum)}`}
            value={sizeText()}
            onInput={(event) => setSizeText(event.currentTarget.value)}
          />
          <span class="muted">{props.market.base.symbol}</span>
        </label>
        <div class="ladder-presets" data-testid="ladder-presets" data-configured={sizes().configured ? 'true' : 'false'} data-minimum={sizes().minimum.toString()}>
          <For each={sizes().presets}>
            {(preset) => (
              <button
                type="button"
                class="num"
                classList={{ on: sizeValue() === preset }}
                data-testid="ladder-size-preset"
                disabled={preset < sizes().minimum}
                title={
                  preset < sizes().minimum
                    ? `Below the smallest size this book accepts now (${formatQuantity(props.market, sizes().minimum)} ${props.market.base.symbol}: dust threshold, size step and minimum order value): not offered`
                    : sizes().configured
                      ? 'Your preset (Settings or +)'
                      : `Default: the smallest size this book accepts (above the dust threshold ${formatQuantity(props.market, (rules() ?? props.market).dust)} ${props.market.base.symbol}, worth at least ${formatUnits((rules() ?? props.market).min_order, props.market.quote.decimals)} ${props.market.quote.symbol}) and its multiples`
                }
                onClick={() => setSizeText(editableQuantity(props.market, preset))}
              >
                {formatQuantity(props.market, preset)}
              </button>
            )}
          </For>
          <button type="button" data-testid="ladder-size-save" title={`Keep this size as a preset for ${props.market.base.symbol}/${props.market.quote.symbol} (saved in your settings)`} onClick={() => void savePreset()}>
            +
          </button>
        </div>
        <OrderFlowControls market={props.market} window={flowWindow()} onWindow={setFlowWindow} />
        <TurboDepthToggle market={props.market} overlay={turboDepth} />
      </div>
      <Show when={!armed() && terminal.arming.lastDisarm()}>
        <div class="disarmed-note muted" data-testid="ladder-disarmed-note">
          Disarmed: {terminal.arming.lastDisarm()}
        </div>
      </Show>
      <Show when={armed()}>
        <div class="armed-banner" data-testid="ladder-armed-banner">
          ARMED · <span data-testid="ladder-armed-size">{sizeText().trim() || '—'}</span> {props.market.base.symbol}{' '}
          {ORDER_KIND_TABLE[terminal.tickets.draft(props.market.market_id).kind].takesPrice ? terminal.tickets.draft(props.market.market_id).kind : 'Limit'} · clicks and{' '}
          {terminal.store.state.settings?.hotkeys.buyAtBest ?? 'Shift+B'}/{terminal.store.state.settings?.hotkeys.sellAtBest ?? 'Shift+S'} trade {pair()}
          {props.turbo ? ' (Turbo book)' : ''} · buys at the row price, sells at the row price
        </div>
      </Show>
      <div class="ladder-head">
        <span>Buys</span>
        <span class="num">{cumulative() ? 'Σ Bid' : 'Bid'}</span>
        <span class="num">Price</span>
        <span class="num">{cumulative() ? 'Σ Ask' : 'Ask'}</span>
        <span>Sells</span>
        <span class="num" title="The last trade's size, on the row it printed at (highlighted when it is a large lot)">Last</span>
        <span class="num" title={`Volume traded at each price over the flow window (${flowWindow()}): the bar's green part bought by takers (lifting offers), its red part sold by takers (hitting bids)`}>Flow</span>
        <Show when={turboDepthShown()}>
          <TurboDepthHead />
        </Show>
        <Show when={position()}>
          <span class="num" title={`P&L of the position if closed at the row's price, ${props.market.quote.symbol}: fees paid included, the closing order's fee not`}>P&amp;L</span>
        </Show>
      </div>
      <div class="ladder-body fresh-dim" ref={(element) => (body = element)} onWheel={onWheel} onMouseLeave={() => drag() && setDrag({ ...drag()!, overRow: null })}>
        <For each={cells.list()}>
          {(cell) => {
            const row = cell.latest;
            const pnl = createMemo(() => rowPnl(cell.price()));
            const entry = createMemo(() => cell.marks().entry);
            const ownIds = createMemo(() => [...cell.marks().ownBuyIds, ...cell.marks().ownSellIds], [], { equals: sameIds });
            // The cells the row's figures change are written by writeRow (one computation per row,
            // only what changed); the JSX holds the structure, the handlers and what other signals drive.
            const bid = document.createTextNode('');
            const ask = document.createTextNode('');
            const flow = document.createTextNode('');
            const elements: Partial<Record<keyof RowElements, HTMLElement>> = {};
            const view = (
            <div
              class="ladder-row"
              ref={(element) => (elements.row = element)}
              classList={{
                'drop-target': drag()?.overRow === cell.price() || legTarget() === cell.key(),
                'has-legs': legsByRow().has(cell.key()),
              }}
              data-testid="ladder-row"
              data-price={cell.key()}
              onMouseEnter={() => {
                const current = drag();
                if (current) setDrag({ ...current, overRow: cell.price() });
              }}
              onMouseUp={() => drag() && finishDrag(cell.price())}
              onContextMenu={(event) => {
                event.preventDefault();
                setAlertAt({ x: event.clientX, y: event.clientY, price: cell.price() });
              }}
            >
              <span class="own own-buy" ref={(element) => (elements.ownBuy = element)} data-side="Buy" onMouseDown={(event) => startDrag(event, 'Buy', row())} />
              <span class="bid num" data-testid="bid-cell" onMouseDown={(event) => event.button === 0 && placeAt('Buy', cell.price())}>
                <i class="bar" ref={(element) => (elements.bidBar = element)} />
                {bid}
              </span>
              <span class="price num" data-testid="price-cell" ref={(element) => (elements.price = element)}>{formatPrice(props.market, cell.price())}</span>
              <span class="ask num" data-testid="ask-cell" onMouseDown={(event) => event.button === 0 && placeAt('Sell', cell.price())}>
                <i class="bar" ref={(element) => (elements.askBar = element)} />
                {ask}
              </span>
              <span class="own own-sell" ref={(element) => (elements.ownSell = element)} data-side="Sell" onMouseDown={(event) => startDrag(event, 'Sell', row())} />
              <span class="last-size num" ref={(element) => (elements.lastSize = element)} />
              <span class="volume num" ref={(element) => (elements.volume = element)}>
                <i class="flow-bar flow-sold" ref={(element) => (elements.soldBar = element)} />
                <i class="flow-bar flow-bought" ref={(element) => (elements.boughtBar = element)} />
                {flow}
              </span>
              <Show when={turboDepthShown()}>
                <TurboDepthCell market={props.market} overlay={turboDepth} priceKey={cell.key()} />
              </Show>
              <Show when={position()}>
                <span class="pnl num" data-testid="pnl-cell" data-raw={entry() || pnl() === null ? '' : pnl()!.toString()} classList={entry() || pnl() === null ? {} : signClass(pnlText(props.market, pnl()!))}>
                  {entry() ? <span data-testid="entry-marker" title={`Average entry ${entryText(props.market, position()!.entry ?? 0n)} ${props.market.quote.symbol}`}>◆ entry</span> : pnl() === null ? '' : pnlText(props.market, pnl()!)}
                </span>
              </Show>
              <AlgoTags orderIds={ownIds()} />
              <Show when={legsByRow().get(cell.key())}>
                {(legs) => (
                  <span class="ladder-legs" onMouseDown={(event) => event.stopPropagation()}>
                    <For each={legs() ?? NO_LEGS}>
                      {(triggerId) => <Show when={legLine(triggerId)}>{(line) => <TriggerMarker overlay={overlay} line={line()} market={props.market} priceAt={rowPriceAt} />}</Show>}
                    </For>
                  </span>
                )}
              </Show>
            </div>
            );
            let written: LadderRow | undefined;
            let writtenWith: RowText | undefined;
            const all = { ...elements, bid, ask, flow } as RowElements;
            const write = (next: LadderRow, format: RowText) => {
              writeRow(all, format, next, format === writtenWith ? written : undefined);
              written = next;
              writtenWith = format;
            };
            // A row the browser skips (content-visibility: auto, outside the ladder's visible
            // part) is not told of new figures nor written until it is shown again, then with its
            // newest figures: the frame's work follows the rows on screen, not every row the ladder holds.
            elements.row!.addEventListener('contentvisibilityautostatechange', (event) => {
              // Skipped, the row's figures wait in the cell; drawn again, its writer gets the newest.
              cells.setShown(cell, !(event as Event & { skipped: boolean }).skipped);
            });
            // Each changed row is written at once (row-cells: no signal per row); a new format
            // (another market's symbol or sizes) rewrites the row as it is now.
            cell.onRow((next) => write(next, untrack(rowText)));
            createRenderEffect(() => {
              const format = rowText();
              if (format !== writtenWith) write(row(), format);
            });
            return view;
          }}
        </For>
        <Pinned at="top" />
        <Pinned at="bottom" />
        <Show when={alertAt()}>
          {(at) => (
            <AlertMenu market={props.market} turbo={props.turbo} at={at()} current={{ bid: bestBid(), ask: bestAsk(), last: frame()?.lastTrade?.price ?? null }} onClose={() => setAlertAt(null)}>
              <ChaseMenuItems market={props.market} turbo={props.turbo} price={at().price} sizeText={sizeText()} live={freshness.live() && !resyncing()} liveLabel={freshness.label()} onClose={() => setAlertAt(null)} />
            </AlertMenu>
          )}
        </Show>
        <Show when={resyncing()}>
          <div class="ladder-overlay" data-testid="ladder-resyncing" data-reason={health() ?? ''}>
            {freshness.state() === 'disconnected'
              ? `Disconnected${freshness.detail() ? ` (${freshness.detail()})` : ''}: levels are hidden until the book is live again`
              : health() === 'crossed'
              ? 'The book arrived crossed: levels are hidden until main resyncs it'
              : health() === 'stream-down'
                ? 'Market data stream is down: levels are hidden until it reconnects'
                : 'Resyncing the book… levels are hidden until it is live again'}
          </div>
        </Show>
        <Show when={!frame() && !resyncing()}>
          <div class="ladder-overlay muted" data-testid="ladder-waiting">{feed.problem() ? `No book: ${feed.problem()}` : 'Waiting for the book…'}</div>
        </Show>
      </div>
      <div class="ladder-foot">
        <span title="With grouped rows the bid is floored and the ask raised, so the spread shown is at most this wide">
          Spread{precision() > tick() ? ' ≤ ' : ' '}
          <b class="num" data-testid="ladder-spread">{bestBid() !== null && bestAsk() !== null ? formatPrice(props.market, bestAsk()! - bestBid()!) : '—'}</b>
        </span>
        <Show when={hiddenRows() > 0n}>
          <span data-testid="ladder-rows-left-out" title="The spread is wider than the ladder: its empty middle is left out (dashed line) so both sides of the book stay on screen. Scroll to see every row.">
            {hiddenRows().toLocaleString('en-US')} empty rows left out
          </span>
        </Show>
        <Show when={position()}>
          {(current) => (
            <span
              data-testid="ladder-position"
              data-size={current().size.toString()}
              data-unrealized={unrealized()?.unrealized?.toString() ?? ''}
              data-stale={unrealized()?.stale ?? ''}
              data-mark-side={unrealized()?.markSide ?? ''}
              data-pnl-unit={unrealized()?.display.unit ?? ''}
              classList={{ 'fresh-dim': (unrealized()?.stale ?? null) !== null }}
              title={`The position of this book from your fills (average cost); unrealized P&L marked at the ${unrealized()?.markSide ?? 'mark'} (this market's choice, set in Positions for every panel): fees paid included, the closing order's fee not`}
            >
              Pos <b class="num" data-testid="ladder-position-size">{current().size > 0n ? '+' : '-'}{fixedSize(props.market, current().size < 0n ? -current().size : current().size)}</b>
              {current().entry === null ? '' : ` @ ${entryText(props.market, current().entry!)}`}
              {' · uP&L '}
              <b class="num" classList={unrealized()?.unrealized == null ? {} : signClass(pnlText(props.market, unrealized()!.unrealized!))} data-testid="ladder-unrealized">
                {unrealized()?.unrealized == null ? '—' : pnlText(props.market, unrealized()!.unrealized!)}
              </b>
              {' '}
              <span class="num" data-testid="ladder-unrealized-unit">
                {unrealized() ? pnlUnitText(unrealized()!) : ''}
              </span>
              {' @ '}
              <span data-testid="ladder-mark-name">{unrealized()?.markSide ?? '—'}</span>
              <Show when={unrealized()?.stale}>
                {(why) => (
                  <span class="freshness-badge" data-testid="ladder-unrealized-stale" title={why()}>
                    stale
                  </span>
                )}
              </Show>
            </span>
          )}
        </Show>
        <Show when={toolPosition()}>
          {(target) => (
            <span class="ladder-position-tools" data-testid="ladder-position-tools" data-account={target().account}>
              <span title="Close a share with a bounded market order (as Positions' buttons)">Close</span>
              <For each={CLOSE_PERCENTS}>
                {(percent) => (
                  <button type="button" data-testid={`ladder-close-${percent}`} disabled={closing()} onClick={() => void positionTool(() => terminal.trading.closePart(props.market, target(), percent))}>
                    {percent}
                  </button>
                )}
              </For>
              <span title="Close a share by limit: post-only at the best price of the closing side (the best ask of a long, the best bid of a short)">Limit</span>
              <For each={CLOSE_PERCENTS}>
                {(percent) => (
                  <button type="button" data-testid={`ladder-close-limit-${percent}`} disabled={closing()} onClick={() => void positionTool(() => terminal.trading.closeByLimit(props.market, target(), percent))}>
                    {percent}
                  </button>
                )}
              </For>
              <button type="button" data-testid="ladder-reverse" disabled={closing()} title="Reverse: close and open the opposite position of the same size" onClick={() => void positionTool(() => terminal.trading.reverse(props.market, target()))}>
                Rev
              </button>
            </span>
          )}
        </Show>
        <Show when={lastAmend()}>
          {(amend) => (
            <span data-testid="ladder-last-amend" data-new-order-id={amend().newId ?? ''} title={`Order ${amend().oldId} replaced by ${amend().newId ?? '(filled at once)'}`}>
              Amended → <span class="mono">{amend().newId ? short(amend().newId!) : 'filled at once'}</span>
            </span>
          )}
        </Show>
        <Show when={overlay.failure()}>
          {(failure) => (
            <span class="error" data-testid="ladder-leg-error" data-code={failure().code} title={failure().message}>
              Leg not moved: {failure().message}
            </span>
          )}
        </Show>
        <Show when={hold()}>
          <span class="held" data-testid="ladder-held">HOLD</span>
        </Show>
      </div>
    </div>
  );
};
