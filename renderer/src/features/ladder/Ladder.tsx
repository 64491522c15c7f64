// The depth ladder (DOM): a fixed price column with bid and ask sizes, own orders, volume at price,
// best bid, best ask and the last trade on their rows. Click-to-trade is off until armed; a click
// in the bid column buys at the row's price, in the ask column sells (type and size from the
// ticket); a click on an own order cancels it, a drag moves it (cancel and replace). Take-profit and
// stop-loss legs of the book are marked on their rows; dragging a marker moves the leg.
// Rows are drawn at most once per animation frame, into cells keyed by price (row-cells.ts).
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, type Component } from 'solid-js';
import type { OrderTypeKind, Side } from '../../../../shared/market/order-type';
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import { useTerminal } from '../../app/terminal-context';
import { editablePrice, formatPrice, formatQuantity } from '../../format/market-format';
import { formatUnits } from '../../format/units';
import { bookRules } from '../../stores/turbo-store';
import { createFreshness, FreshnessBadge, marketSource } from '../../lib/freshness';
import { createBookFeed } from '../market-data/book-feed';
import { createTriggerOverlay, rowOf, TriggerMarker, triggerLines } from '../triggers';
import { evaluateTicket } from '../ticket/ticket-model';
import { clickPrice, fitPrecision, insideCentre, ladderPrecisionOptions, layoutRows, needsRecenter } from './ladder-layout';
import { bookHealth, buildLadderFrame, type LadderRow } from './ladder-model';
import { createRowCells } from './row-cells';

export const LADDER_ROW_HEIGHT = 18;
/** Auto-recenter when the inside market comes within this many rows of the top or bottom. */
export const RECENTER_MARGIN_ROWS = 4;
const PRICED_KINDS: readonly OrderTypeKind[] = ['Limit', 'Spot', 'PostOnly', 'FillOrKill'];
const NO_LEGS: readonly string[] = [];

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
  const tick = createMemo(() => priceTick(props.market));
  const options = createMemo(() => ladderPrecisionOptions(tick()));
  const [precision, setPrecision] = createSignal<bigint>(tick());
  const [rowCount, setRowCount] = createSignal(props.rows ?? 40);
  const [centre, setCentre] = createSignal<bigint | null>(null);
  const [hold, setHold] = createSignal(false);
  // One arming per window (stores/arming-store): for this market and book, dropped on a change of
  // either, of network or account, and after the kill switch; the buy/sell hotkeys obey it too.
  const scope = () => ({ marketId: props.market.market_id, turbo: props.turbo });
  const armed = () => terminal.arming.armed(scope());
  const setArmed = (on: boolean) => (on ? terminal.arming.arm(scope()) : terminal.arming.disarm('disarmed on the ladder'));
  const [hint, setHint] = createSignal<string | null>(null);
  const [drag, setDrag] = createSignal<DragState | null>(null);
  // Until the trader picks a grouping, the first live frame of a market picks one that fits the spread.
  let precisionChosen = false;
  const cells = createRowCells();
  let barScale: bigint | undefined;

  // Another book or market: the arming of the one that left is dropped (never carried over).
  createEffect(
    on(scope, (_next, previous) => {
      if (previous !== undefined && terminal.arming.armed(previous)) terminal.arming.disarm(`the ladder left ${previous.turbo ? 'the Turbo book' : 'the book'} it was armed for`);
    }),
  );

  // A new market starts at its finest precision, recentred.
  createEffect(
    on(
      () => props.market.market_id,
      () => {
        precisionChosen = false;
        setPrecision(tick());
        setCentre(null);
        setHold(false);
      },
      { defer: true },
    ),
  );

  const rowPrices = createMemo(() => {
    const middle = centre();
    return middle === null ? [] : layoutRows(middle, precision(), rowCount());
  });

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

  const feed = createBookFeed(terminal.api, terminal.frames, () => ({
    marketId: props.market.market_id,
    turbo: props.turbo,
    precision: precision(),
    levels: levels(),
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
  const overlay = createTriggerOverlay(terminal.api, { market: () => props.market, turbo: () => props.turbo });
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

  const ownOrders = createMemo(() =>
    terminal.store.state.openOrders
      .filter((order) => order.marketId === props.market.market_id && order.turbo === props.turbo)
      .map((order) => ({ orderId: order.orderId, marketId: order.marketId, side: order.side, price: order.price, remaining: order.quantity - order.filled })),
  );

  // Recenter on the first frame, and whenever the inside market nears an edge unless held.
  createEffect(() => {
    const current = frame();
    if (!current || health() !== 'live') return;
    const step = precision();
    const middle = centre();
    const bid = current.bids[0]?.price ?? null;
    const ask = current.asks[0]?.price ?? null;
    setInsidePrice(bid ?? ask);
    if (!precisionChosen && bid !== null && ask !== null) {
      precisionChosen = true;
      const fitted = fitPrecision(options(), bid, ask, rowCount());
      if (fitted !== null && fitted !== step) {
        setCentre(null);
        setPrecision(fitted);
        return;
      }
    }
    if (middle === null || (!hold() && needsRecenter({ rows: rowPrices(), step, bestBid: bid, bestAsk: ask, margin: RECENTER_MARGIN_ROWS }))) {
      const next = insideCentre(bid, ask, step, current.lastTrade?.price ?? null);
      if (next !== null && next !== middle) setCentre(next);
    }
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
      lastTrade: live ? current.lastTrade : null,
      ownOrders: ownOrders(),
      barScale,
      previous: cells.current,
    });
    barScale = next.barScale;
    cells.apply(next.rows);
  });

  const recenter = () => {
    setHold(false);
    const current = frame();
    const next = insideCentre(bestBid(), bestAsk(), precision(), current?.lastTrade?.price ?? null);
    if (next !== null) setCentre(next);
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
    setCentre(next > precision() ? next : precision());
  };

  const flashHint = (text: string) => {
    setHint(text);
    window.setTimeout(() => setHint((current) => (current === text ? null : current)), 2500);
  };

  const placeAt = (side: Side, row: bigint) => {
    const book = bookRules(terminal.store.state.markets, props.market, props.turbo, props.turbo ? terminal.turboBooks.row(props.market.market_id) : null);
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
    const draft = terminal.tickets.draft(props.market.market_id);
    const kind = PRICED_KINDS.includes(draft.kind) ? draft.kind : 'Limit';
    if (kind !== draft.kind) flashHint(`${draft.kind} orders have no price: the ladder placed a Limit order`);
    const price = clickPrice(side, row, tick());
    const settings = terminal.store.state.settings;
    const balances = terminal.store.state.balances;
    const evaluation = evaluateTicket(
      { ...draft, side, kind, priceText: editablePrice(props.market, price) },
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
    if (!evaluation.ok) {
      terminal.store.notify('error', `Ladder ${side.toLowerCase()} not sent: ${evaluation.message}`);
      return;
    }
    void terminal.trading.place(props.market, evaluation.request, 'the ladder');
  };

  const startDrag = (event: MouseEvent, side: Side, row: LadderRow) => {
    event.preventDefault();
    event.stopPropagation();
    const orderIds = side === 'Buy' ? row.ownBuyIds : row.ownSellIds;
    if (orderIds.length === 0) return;
    setDrag({ side, orderIds: [...orderIds], fromRow: row.price, overRow: row.price });
  };

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
    if (!freshness.live()) {
      flashHint(`The book is ${freshness.label()}: orders are not moved until it is live`);
      return;
    }
    const price = clickPrice(current.side, row, tick());
    for (const orderId of current.orderIds) void terminal.trading.move(props.market, orderId, price, props.turbo);
  };

  onMount(() => {
    const cancelDrag = () => setDrag(null);
    window.addEventListener('mouseup', cancelDrag);
    onCleanup(() => window.removeEventListener('mouseup', cancelDrag));
  });

  const pair = () => `${props.market.base.symbol}/${props.market.quote.symbol}${props.turbo ? ' (Turbo book)' : ''}`;
  const stepLabel = (step: bigint) => formatUnits(step, props.market.quote.decimals);
  const size = (quantity: bigint) => (quantity > 0n ? formatQuantity(props.market, quantity) : '');
  const own = (count: number, quantity: bigint) => (count > 0 ? `${count > 1 ? `${count}× ` : ''}${formatQuantity(props.market, quantity)}` : '');

  return (
    <div
      class="ladder"
      classList={{ armed: armed(), dragging: drag() !== null || overlay.dragging() !== null }}
      data-testid="ladder"
      data-market-id={props.market.market_id}
      data-book={props.turbo ? 'turbo' : 'canonical'}
      data-armed={armed() ? 'true' : 'false'}
      data-freshness={freshness.state()}
      data-clickable={clickable() ? 'true' : 'false'}
    >
      <div class="ladder-toolbar">
        <button
          type="button"
          class="arm-toggle"
          classList={{ on: armed() }}
          data-testid="ladder-arm"
          aria-pressed={armed()}
          title="Click-to-trade and the buy/sell hotkeys are off until armed. When armed, a click in the bid column buys and in the ask column sells, at the row's price, with the ticket's type and size. Changing book, market, network or account, or the kill switch, disarms."
          onClick={() => setArmed(!armed())}
        >
          {armed() ? 'ARMED' : 'ARM'}
        </button>
        <label class="field-inline" title="Rows merge this many price steps. Bids merge down to the row price, asks up to it.">
          <span>Group</span>
          <select data-testid="ladder-precision" value={precision().toString()} onChange={(event) => {
              precisionChosen = true;
              setPrecision(BigInt(event.currentTarget.value));
              setCentre(null);
            }}>
            <For each={options()}>{(step) => <option value={step.toString()}>{stepLabel(step)}</option>}</For>
          </select>
        </label>
        <button type="button" classList={{ on: hold() }} data-testid="ladder-hold" aria-pressed={hold()} title="Hold freezes the ladder: no automatic recentering" onClick={() => setHold(!hold())}>
          Hold
        </button>
        <button type="button" data-testid="ladder-recenter" title={`Recenter on the inside market (${terminal.store.state.settings?.hotkeys.recenter ?? 'Space'})`} onClick={recenter}>
          Center
        </button>
        <FreshnessBadge mark={freshness} testId="ladder-freshness" />
        <span class="ladder-hint" data-testid="ladder-hint">{hint() ?? ''}</span>
      </div>
      <Show when={!armed() && terminal.arming.lastDisarm()}>
        <div class="disarmed-note muted" data-testid="ladder-disarmed-note">
          Disarmed: {terminal.arming.lastDisarm()}
        </div>
      </Show>
      <Show when={armed()}>
        <div class="armed-banner" data-testid="ladder-armed-banner">
          ARMED · clicks and {terminal.store.state.settings?.hotkeys.buyAtBest ?? 'Shift+B'}/{terminal.store.state.settings?.hotkeys.sellAtBest ?? 'Shift+S'} trade {pair()}
          {props.turbo ? ' (Turbo book)' : ''} · buys at the row price, sells at the row price · {terminal.tickets.draft(props.market.market_id).quantityText || '—'} {props.market.base.symbol}{' '}
          {terminal.tickets.draft(props.market.market_id).kind}
        </div>
      </Show>
      <div class="ladder-head">
        <span>Buys</span>
        <span class="num">Bid</span>
        <span class="num">Price</span>
        <span class="num">Ask</span>
        <span>Sells</span>
        <span class="num">Volume</span>
      </div>
      <div class="ladder-body fresh-dim" ref={(element) => (body = element)} onWheel={onWheel} onMouseLeave={() => drag() && setDrag({ ...drag()!, overRow: null })}>
        <For each={cells.list()}>
          {(cell) => {
            const row = cell.row;
            return (
            <div
              class="ladder-row"
              classList={{
                'best-bid': row().bestBid,
                'best-ask': row().bestAsk,
                spread: row().inSpread,
                'last-buy': row().lastTrade === 'Buy',
                'last-sell': row().lastTrade === 'Sell',
                'drop-target': drag()?.overRow === cell.price || legTarget() === cell.key,
                'has-legs': legsByRow().has(cell.key),
              }}
              data-testid="ladder-row"
              data-price={cell.key}
              onMouseEnter={() => {
                const current = drag();
                if (current) setDrag({ ...current, overRow: cell.price });
              }}
              onMouseUp={() => drag() && finishDrag(cell.price)}
            >
              <span class="own own-buy" data-testid={row().ownBuyCount > 0 ? 'own-order' : undefined} data-side="Buy" data-order-ids={row().ownBuyIds.join(',')} onMouseDown={(event) => startDrag(event, 'Buy', row())}>
                {own(row().ownBuyCount, row().ownBuyQuantity)}
              </span>
              <span class="bid num" data-testid="bid-cell" onMouseDown={(event) => event.button === 0 && placeAt('Buy', cell.price)}>
                <i class="bar" style={{ width: `${row().bidBar}%` }} />
                <b>{size(row().bid)}</b>
              </span>
              <span class="price num">{formatPrice(props.market, cell.price)}</span>
              <span class="ask num" data-testid="ask-cell" onMouseDown={(event) => event.button === 0 && placeAt('Sell', cell.price)}>
                <i class="bar" style={{ width: `${row().askBar}%` }} />
                <b>{size(row().ask)}</b>
              </span>
              <span class="own own-sell" data-testid={row().ownSellCount > 0 ? 'own-order' : undefined} data-side="Sell" data-order-ids={row().ownSellIds.join(',')} onMouseDown={(event) => startDrag(event, 'Sell', row())}>
                {own(row().ownSellCount, row().ownSellQuantity)}
              </span>
              <span class="volume num">{size(row().volume)}</span>
              <Show when={legsByRow().get(cell.key)}>
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
          }}
        </For>
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
        <span title="A click on a merged row: a buy at the row price (its lowest bid), a sell at the row price (its highest ask)">
          Click price: row price · tick {formatPrice(props.market, tick())}
        </span>
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
