// The order ticket: side, every order type of the venue, exact price and quantity inputs, presets
// and a percent-of-available control, inline validation with the book's own rules (the Turbo row's
// on a Turbo book), the worst-case fee and the amount that will be locked, an optional take-profit
// and stop-loss placed with the entry in one request, then main's answer shown. On a Turbo book
// main's own check (checkTurboOrder) runs before anything is sent: the order type it will sign, its
// bounds, any draw or borrow, and the refusal with its reason. Reduce-only (the venue has no such
// flag) is checked here as the trader types (reduceOnlyCheck in ticket-model.ts) and sent marked,
// so main holds it again to the position before signing (main/services/guards), as it holds every
// price to the market's band; main's refusal is shown like any other. The
// Buy/Sell button sits in a footer that sticks to the bottom of the visible area, so no number
// of warnings pushes it out of view.
import { createEffect, createMemo, createSignal, For, Match, on, onCleanup, onMount, Show, Switch, type Component } from 'solid-js';
import { parseUnits } from '../../../../shared/encoding/units';
import type { PositionsView } from '../../../../shared/ipc/views';
import type { TurboOrderCheck } from '../../../../shared/ipc/views/margin';
import type { Market } from '../../../../shared/market/market';
import { ORDER_KIND_TABLE } from '../../../../shared/market/order-kinds';
import { priceTick } from '../../../../shared/market/tick';
import { minimumOrderSize, sizeStep } from '../../../../shared/market/minimum-size';
import type { Result } from '../../../../shared/result';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { Panel } from '../../components/Panel';
import { editablePrice, editableQuantity, formatAmount, formatPrice, formatQuantity, formatQuote } from '../../format/market-format';
import { balanceText } from '../../format/columns';
import { formatPpm, shortId } from '../../format/units';
import { bookRules } from '../../stores/turbo-store';
import { createTouchFeed } from '../market-data/touch-feed';
import { createFreshness, FreshnessBadge } from '../../lib/freshness';
import { adjustmentsText, describeLegs, describeOrder, describeOutcome } from '../trading/trading-actions';
import { BracketSection, bracketInput, createTriggerSnapshot, emptyLeg, type BracketDraft, type BracketEntry } from '../triggers';
import {
  boundedMarketHelp,
  boundedMarketPrefill,
  evaluateTicket,
  quantityForPercent,
  reduceOnlyCheck,
  reduceOnlyFacts,
  sendState,
  ticketSigner,
  type ReduceOnlyCheck,
  type TicketBalanceState,
  type TicketField,
  type TicketReady,
} from './ticket-model';
import './ticket.css';
import { turboCheckInput, turboCheckKey, TurboCheckView } from './TurboCheck';
import { MarketName } from '../markets/MarketName';
import { AlgoTicketForm } from '../algos/AlgoTicketForm';
import { KindSelect } from './KindSelect';

/** How long the ticket waits after the last keystroke before asking main to check a Turbo order. */
const TURBO_CHECK_DELAY_MS = 250;
/** How often a standing Turbo order is checked again. */
const TURBO_CHECK_REFRESH_MS = 3000;
/** How often the positions are read again while reduce-only is on (and after every fill; and once more right before sending). */
const POSITIONS_REFRESH_MS = 10_000;

export const OrderTicket: Component<{ market: Market; turbo: boolean }> = (props) => (
  <Panel
    title="Order ticket"
    testId="order-ticket"
    controls={
      <span class="muted">
        <MarketName market={props.market} />
        {props.turbo ? ' · Turbo' : ''}
      </span>
    }
  >
    <OrderTicketForm market={props.market} turbo={props.turbo} />
  </Panel>
);

/** The order form, or an algorithm's when the selector names one (the two never show at once). */
export const OrderTicketForm: Component<{ market: Market; turbo: boolean }> = (props) => {
  const terminal = useTerminal();
  return (
    <Show when={terminal.tickets.algo(props.market.market_id).kind} keyed fallback={<OrderForm market={props.market} turbo={props.turbo} />}>
      {(kind) => <AlgoTicketForm market={props.market} turbo={props.turbo} kind={kind} />}
    </Show>
  );
};

const OrderForm: Component<{ market: Market; turbo: boolean }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const marketId = () => props.market.market_id;
  const draft = () => terminal.tickets.draft(marketId());
  const update = (change: Parameters<typeof terminal.tickets.update>[1]) => terminal.tickets.update(marketId(), change);
  const [percent, setPercent] = createSignal(0);
  const [sending, setSending] = createSignal(false);
  const [lastResult, setLastResult] = createSignal<{ ok: boolean; text: string; code?: string; partial?: boolean } | null>(null);
  const [touched, setTouched] = createSignal(false);
  const [bracket, setBracket] = createSignal<BracketDraft>({ takeProfit: emptyLeg(), stopLoss: emptyLeg() });
  const bracketOn = () => bracket().takeProfit.enabled || bracket().stopLoss.enabled;

  // The rules of the book the ticket trades on: the Turbo row has its own fees and min_order.
  const turboRow = () => (props.turbo ? terminal.turboBooks.row(marketId()) : null);
  const rules = createMemo(() => bookRules(terminal.store.state.markets, props.market, props.turbo, turboRow()));
  const book = () => rules() ?? props.market;

  // The best bid and offer, from a one-level subscription of this panel's own.
  // The ticket still sends priced orders on a book that is not live, but says so, and takes no
  // price from it (a market order, the bid/ask shortcuts) until it is live again.
  const touch = createTouchFeed(bridge, terminal.frames, terminal.freshness, marketId, () => props.turbo, () => props.market);
  const bookFreshness = touch.freshness;
  const { bestBid, bestAsk } = touch;

  // The account that signs for the book in view, whose funds "Available" shows: the trading
  // account, or on a Turbo book the selected Turbo Account (its own funds and credit, which main's
  // check reports); never one account's balance under the other's order.
  const signer = () => ticketSigner(props.turbo, terminal.turboBooks.view()?.tradingAs);
  const tradingAccountSigns = () => signer().kind === 'trading-account';
  const balanceOf = (assetId: string) => terminal.store.state.balances.find((balance) => balance.assetId === assetId) ?? null;
  const availableQuote = () => (tradingAccountSigns() ? (balanceOf(props.market.quote.asset)?.unlocked ?? null) : null);
  const availableBase = () => (tradingAccountSigns() ? (balanceOf(props.market.base.asset)?.unlocked ?? null) : null);
  // The Balances panel's Available, in the asset's one display precision.
  const availableText = (asset: { asset: string; decimals: number }, raw: bigint) => balanceText(asset.asset, asset.decimals, raw, terminal.store.state.markets?.markets ?? []);
  const settings = () => terminal.store.state.settings;
  const maxQuantity = () => settings()?.maxOrderQuantity[marketId()] ?? null;
  const presets = () => settings()?.quantityPresets[marketId()] ?? [];

  const evaluation = createMemo(() =>
    evaluateTicket(draft(), {
      market: book(),
      turbo: props.turbo,
      maxOrderQuantity: maxQuantity(),
      bestBid: bestBid(),
      bestAsk: bestAsk(),
      // A Turbo Account trades with its own funds and credit: the trading account's balances say nothing there.
      availableQuote: availableQuote(),
      availableBase: availableBase(),
    }),
  );
  const ready = (): TicketReady | null => {
    const current = evaluation();
    return current.ok ? current : null;
  };
  const problemField = (): TicketField | null => {
    const result = evaluation();
    return !result.ok && touched() ? result.field : null;
  };
  const entry = (): BracketEntry | null => {
    const current = ready();
    return current ? { side: current.request.side, orderType: current.request.orderType, price: current.request.price, quantity: current.request.quantity } : null;
  };
  const bracketRequest = () => {
    const current = entry();
    if (!bracketOn() || current === null) return null;
    return bracketInput(book(), props.turbo, current, bracket().takeProfit, bracket().stopLoss);
  };

  // ---- Reduce-only: capped to the signing account's position on this book -------------------------
  const [reduceOnly, setReduceOnly] = createSignal(false);
  const [positions, setPositions] = createSignal<PositionsView | null>(null);
  const [positionsError, setPositionsError] = createSignal<string | null>(null);
  const legs = createTriggerSnapshot(bridge);
  const signingAccount = () => {
    const current = signer();
    return current.kind === 'turbo-account' ? current.account : (terminal.store.state.account?.tradeAccount?.tradeAccountId ?? null);
  };
  let positionsSerial = 0;
  /** A read of the positions begun now (main never answers it with a read begun earlier). */
  const readPositions = async (): Promise<PositionsView | null> => {
    const serial = ++positionsSerial;
    const read = await terminal.positions.refresh();
    if (serial !== positionsSerial) return read.ok ? read.value : null;
    if (read.ok) {
      setPositions(read.value);
      setPositionsError(null);
      return read.value;
    }
    setPositionsError(`${read.code}: ${read.message}`);
    return null;
  };
  createEffect(
    on(reduceOnly, (on) => {
      if (!on) return;
      void readPositions();
      const timer = setInterval(() => void readPositions(), POSITIONS_REFRESH_MS);
      const stop = bridge.onFill(() => void readPositions());
      onCleanup(() => {
        clearInterval(timer);
        stop();
      });
    }),
  );
  const reduceOnlyFor = (view: PositionsView | null, error: string | null): ReduceOnlyCheck => {
    const quantity = (() => {
      const text = draft().quantityText.trim();
      if (text === '') return null;
      const parsed = parseUnits(text, props.market.base.decimals, 'Quantity');
      return parsed.ok ? parsed.value : null;
    })();
    const facts = reduceOnlyFacts({
      market: props.market,
      turbo: props.turbo,
      account: signingAccount(),
      positions: view,
      positionsError: error,
      openOrders: terminal.store.state.openOrders,
      pendingLegs: legs().pending,
      fills: terminal.store.state.fills,
    });
    return reduceOnlyCheck({ market: book(), side: draft().side, kind: draft().kind, quantity, book: props.turbo ? 'Turbo book' : 'Canonical book', ...facts });
  };
  const reduceCheck = createMemo((): ReduceOnlyCheck | null => (reduceOnly() ? reduceOnlyFor(positions(), positionsError()) : null));
  const reduceRefusal = (): string | null => {
    const check = reduceCheck();
    if (check === null) return null;
    if (!check.ok) return check.message;
    if (bracketOn()) return 'Reduce-only closes a position: it does not take a take-profit or stop-loss of its own (turn them off).';
    return null;
  };

  // ---- Turbo: main's check of the order as it would be signed ------------------------------------
  const [turboCheck, setTurboCheck] = createSignal<Result<TurboOrderCheck> | null>(null);
  const [checking, setChecking] = createSignal(false);
  let checkSerial = 0;
  const runTurboCheck = async (current: TicketReady, quiet = false): Promise<Result<TurboOrderCheck>> => {
    const serial = ++checkSerial;
    if (!quiet) setChecking(true);
    const checked = await bridge.checkTurboOrder(turboCheckInput(current));
    if (serial === checkSerial) {
      setTurboCheck(checked);
      setChecking(false);
    }
    return checked;
  };
  // Checked again when the order changes, not with every tick of the book: a market order's price
  // is only the reference its bound is taken from (and the send checks once more anyway).
  const checkKey = createMemo(() => {
    const current = ready();
    return props.turbo && current !== null ? turboCheckKey(turboCheckInput(current)) : null;
  });
  createEffect(
    on(checkKey, (key) => {
      checkSerial++;
      if (key === null) {
        setTurboCheck(null);
        setChecking(false);
        return;
      }
      setChecking(true);
      const timer = setTimeout(() => {
        const current = ready();
        if (current !== null) void runTurboCheck(current);
      }, TURBO_CHECK_DELAY_MS);
      onCleanup(() => clearTimeout(timer));
    }),
  );
  // The account's risk moves on its own (prices, fills, a freeze, the session ending): the shown
  // check is refreshed quietly while the order stands.
  onMount(() => {
    const timer = setInterval(() => {
      const current = ready();
      if (props.turbo && current !== null && !checking() && !sending()) void runTurboCheck(current, true);
    }, TURBO_CHECK_REFRESH_MS);
    onCleanup(() => clearInterval(timer));
  });
  const turboRefusal = () => {
    const checked = turboCheck();
    if (!props.turbo || checked === null || checking()) return null;
    if (!checked.ok) return { code: checked.code, message: checked.message };
    return checked.value.allowed ? null : (checked.value.refusal ?? { code: 'MARGIN_REFUSED', message: 'Main refuses this Turbo order.' });
  };

  // The smallest size the book accepts: at the ticket's price when it has one, else at the inside.
  const minimumSize = createMemo(() => {
    const current = draft();
    const text = current.kind === 'BoundedMarket' ? (current.side === 'Buy' ? current.maxPriceText : current.minPriceText) : ORDER_KIND_TABLE[current.kind].takesPrice ? current.priceText : '';
    const typed = text.trim() === '' ? null : parseUnits(text.trim(), props.market.quote.decimals, 'Price');
    const price = typed !== null && typed.ok && typed.value > 0n ? typed.value : current.side === 'Buy' ? (bestAsk() ?? bestBid()) : (bestBid() ?? bestAsk());
    return { size: minimumOrderSize(book(), price), atPrice: typed !== null && typed.ok };
  });

  const priceForPercent = () => {
    const current = evaluation();
    if (current.ok) return current.price;
    if (draft().kind === 'Market') return draft().side === 'Buy' ? bestAsk() : bestBid();
    return null;
  };

  const applyPercent = (value: number) => {
    setPercent(value);
    const available = draft().side === 'Buy' ? availableQuote() : availableBase();
    if (available === null) return;
    let price = priceForPercent();
    if (price === null && draft().side === 'Buy') {
      // Without a valid price yet, size a buy at the best offer.
      price = bestAsk();
    }
    const quantity = quantityForPercent(book(), draft().side, value, price, available);
    setTouched(true);
    update({ quantityText: quantity > 0n ? editableQuantity(props.market, quantity) : '' });
  };

  const submit = async () => {
    setTouched(true);
    const result = ready();
    if (result === null || sending()) return;
    const withBracket = bracketRequest();
    if (withBracket !== null && !withBracket.ok) {
      setLastResult({ ok: false, text: withBracket.message, code: withBracket.code });
      return;
    }
    setSending(true);
    setLastResult(null);
    try {
      if (reduceOnly()) {
        // Checked again against a read of the positions begun now, right before signing.
        const fresh = await readPositions();
        const check = reduceOnlyFor(fresh, fresh === null ? (positionsError() ?? 'no answer') : null);
        if (!check.ok) {
          setLastResult({ ok: false, text: `Not sent: ${check.message}`, code: check.code });
          return;
        }
      }
      if (props.turbo) {
        // Checked again right before sending: the account's risk may have moved since the last look.
        const checked = await runTurboCheck(result);
        const refusal = !checked.ok ? checked : checked.value.allowed ? null : checked.value.refusal;
        if (refusal) {
          setLastResult({ ok: false, text: `Not sent: ${refusal.message}`, code: refusal.code });
          return;
        }
      }
      if (withBracket !== null) {
        const placed = await terminal.trading.placeBracket(props.market, withBracket.value, 'the ticket');
        if (placed === null) return;
        if (placed.ok) {
          const adjustments = placed.value.adjustments.length > 0 ? ` Main adjusted: ${adjustmentsText(placed.value.adjustments)}.` : '';
          setLastResult({ ok: true, text: `Placed ${describeOrder(props.market, result.request)} with ${describeLegs(props.market, withBracket.value)}.${adjustments}` });
        } else setLastResult({ ok: false, text: placed.message, code: placed.code });
        return;
      }
      const request = reduceOnly() ? { ...result.request, reduceOnly: true } : result.request;
      const placed = await terminal.trading.place(props.market, request, 'the ticket', result.warnings);
      if (placed === null) return;
      if (placed.ok) {
        const adjustments = placed.value.adjustments.length > 0 ? ` Main adjusted: ${adjustmentsText(placed.value.adjustments)}.` : '';
        const order = placed.value.orders[0];
        const outcome = order === undefined ? null : describeOutcome(props.market, result.request, order);
        // Placed (data-ok true); shown as a warning when not all of it filled.
        setLastResult({ ok: true, partial: outcome !== null && order !== undefined && order.filled < order.quantity, text: `Placed ${describeOrder(props.market, result.request)}.${outcome === null ? '' : ` Result: ${outcome}.`}${adjustments}` });
      } else setLastResult({ ok: false, text: placed.message, code: placed.code });
    } finally {
      setSending(false);
    }
  };

  // What the ticket knows of the balance the order would spend: a trading account's balances are
  // loading until main has read them (just after setup, a network switch) or while they resync.
  const balancesFreshness = createFreshness(terminal.freshness, (view) => [view.balances]);
  const balanceState = (): TicketBalanceState => {
    if (!tradingAccountSigns()) return { kind: 'not-ours' };
    const asset = draft().side === 'Buy' ? props.market.quote : props.market.base;
    const state = balancesFreshness.state();
    if (balanceOf(asset.asset) !== null && (state === 'live' || state === 'stale')) return { kind: 'known' };
    return { kind: 'loading', symbol: asset.symbol, problem: terminal.store.state.problems.balances ?? (state === 'live' ? null : state) };
  };
  const send = () => sendState(evaluation(), balanceState(), blockedReason(), sending());
  const problemText = () => {
    const current = evaluation();
    return !current.ok && touched() ? current.message : '';
  };

  const canTrade = () => terminal.store.state.account?.canTrade === true;
  const side = () => draft().side;
  const sideClass = () => (side() === 'Buy' ? 'buy-side' : 'sell-side');
  const needsPrice = () => ORDER_KIND_TABLE[draft().kind].takesPrice;
  const blockedReason = () => {
    if (!canTrade()) return 'No trading session yet: finish the account setup first';
    if (props.turbo && rules() === null) return "The Turbo book's rules are not loaded yet";
    const refusal = turboRefusal();
    if (refusal) return refusal.message;
    const reduce = reduceRefusal();
    if (reduce !== null) return reduce;
    const withBracket = bracketRequest();
    if (withBracket !== null && !withBracket.ok) return withBracket.message;
    return '';
  };

  // The submit button names a bounded order's limit for its side: what the trader agrees to pay or receive.
  const boundText = () => {
    if (draft().kind !== 'BoundedMarket') return '';
    const bound = side() === 'Buy' ? draft().maxPriceText : draft().minPriceText;
    return bound.trim() === '' ? '' : ` ${side() === 'Buy' ? '≤' : '≥'} ${bound.trim()}`;
  };
  const fillBound = (field: 'maxPriceText' | 'minPriceText', price: bigint | null) => {
    if (price === null) return;
    setTouched(true);
    update({ [field]: editablePrice(props.market, price) });
  };
  // Switching to Bounded market with both bounds empty: prefilled from the live inside (both are
  // required by the exchange); never while the trader has typed either, and never from a book
  // that is not live.
  createEffect(
    on(
      () => [draft().kind, bestBid() !== null && bestAsk() !== null] as const,
      ([kind], previous) => {
        if (kind !== 'BoundedMarket' || (previous !== undefined && previous[0] === 'BoundedMarket' && previous[1])) return;
        const current = draft();
        if (current.maxPriceText.trim() !== '' || current.minPriceText.trim() !== '') return;
        const bounds = boundedMarketPrefill(bestBid(), bestAsk());
        if (bounds !== null) update({ maxPriceText: editablePrice(props.market, bounds.maxPrice), minPriceText: editablePrice(props.market, bounds.minPrice) });
      },
    ),
  );

  const fillPrice = (price: bigint | null) => {
    if (price === null) return;
    setTouched(true);
    update({ priceText: editablePrice(props.market, price) });
  };

  return (
    <form
      class="ticket"
      data-testid="ticket-form"
      data-book={props.turbo ? 'turbo' : 'canonical'}
      data-book-freshness={bookFreshness.state()}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div class="side-toggle">
        <button type="button" class="buy-side" classList={{ on: side() === 'Buy' }} data-testid="ticket-side-buy" onClick={() => update({ side: 'Buy' })}>
          Buy
        </button>
        <button type="button" class="sell-side" classList={{ on: side() === 'Sell' }} data-testid="ticket-side-sell" onClick={() => update({ side: 'Sell' })}>
          Sell
        </button>
      </div>
      <Show when={props.turbo}>
        <div class="ticket-book" data-testid="ticket-book">
          <b>Turbo book</b>
          <span class="muted">
            min order {formatQuote(book(), book().min_order)} {props.market.quote.symbol} · taker {formatPpm(book().taker_fee)} · maker {formatPpm(book().maker_fee)}
          </span>
        </div>
      </Show>
      <KindSelect marketId={marketId()} />
      <Switch>
        <Match when={needsPrice()}>
          <label class="field">
            <span class="field-title">
              <span>Price ({props.market.quote.symbol})</span>
              <FreshnessBadge mark={bookFreshness} testId="ticket-book-freshness" />
              <button type="button" class="link" data-testid="ticket-price-bid" onClick={() => fillPrice(bestBid())}>
                bid {bestBid() !== null ? formatPrice(props.market, bestBid()!) : '—'}
              </button>
              <button type="button" class="link" data-testid="ticket-price-ask" onClick={() => fillPrice(bestAsk())}>
                ask {bestAsk() !== null ? formatPrice(props.market, bestAsk()!) : '—'}
              </button>
            </span>
            <input
              data-testid="ticket-price"
              inputmode="decimal"
              autocomplete="off"
              spellcheck={false}
              classList={{ invalid: problemField() === 'price' }}
              placeholder={`step ${formatPrice(props.market, priceTick(props.market))}`}
              value={draft().priceText}
              onInput={(event) => {
                setTouched(true);
                update({ priceText: event.currentTarget.value });
              }}
            />
          </label>
        </Match>
        <Match when={draft().kind === 'BoundedMarket'}>
          <div class="ticket-bounds" data-testid="ticket-bounds" data-side={side()}>
            <label class="field">
              <span class="field-title">
                <span>Max price ({props.market.quote.symbol})</span>
                <button type="button" class="link" data-testid="ticket-max-price-bid" onClick={() => fillBound('maxPriceText', bestBid())}>
                  bid {bestBid() !== null ? formatPrice(props.market, bestBid()!) : '—'}
                </button>
                <button type="button" class="link" data-testid="ticket-max-price-ask" onClick={() => fillBound('maxPriceText', bestAsk())}>
                  ask {bestAsk() !== null ? formatPrice(props.market, bestAsk()!) : '—'}
                </button>
              </span>
              <input
                data-testid="ticket-max-price"
                inputmode="decimal"
                autocomplete="off"
                classList={{ invalid: problemField() === 'maxPrice' }}
                placeholder={`step ${formatPrice(props.market, priceTick(props.market))}`}
                value={draft().maxPriceText}
                onInput={(event) => {
                  setTouched(true);
                  update({ maxPriceText: event.currentTarget.value });
                }}
              />
              <span class="help" data-testid="ticket-max-price-help">{boundedMarketHelp(side()).max}</span>
            </label>
            <label class="field">
              <span class="field-title">
                <span>Min price ({props.market.quote.symbol})</span>
                <button type="button" class="link" data-testid="ticket-min-price-bid" onClick={() => fillBound('minPriceText', bestBid())}>
                  bid {bestBid() !== null ? formatPrice(props.market, bestBid()!) : '—'}
                </button>
                <button type="button" class="link" data-testid="ticket-min-price-ask" onClick={() => fillBound('minPriceText', bestAsk())}>
                  ask {bestAsk() !== null ? formatPrice(props.market, bestAsk()!) : '—'}
                </button>
              </span>
              <input
                data-testid="ticket-min-price"
                inputmode="decimal"
                autocomplete="off"
                classList={{ invalid: problemField() === 'minPrice' }}
                placeholder={`step ${formatPrice(props.market, priceTick(props.market))}`}
                value={draft().minPriceText}
                onInput={(event) => {
                  setTouched(true);
                  update({ minPriceText: event.currentTarget.value });
                }}
              />
              <span class="help" data-testid="ticket-min-price-help">{boundedMarketHelp(side()).min}</span>
            </label>
          </div>
        </Match>
      </Switch>
      <Show when={draft().kind === 'Limit'}>
        <label class="field">
          <span>Timestamp (Unix seconds, optional: now when empty)</span>
          <input data-testid="ticket-timestamp" inputmode="numeric" classList={{ invalid: problemField() === 'timestamp' }} value={draft().timestampText} onInput={(event) => update({ timestampText: event.currentTarget.value })} />
        </label>
      </Show>
      <label class="field">
        <span class="field-title">
          <span>
            Quantity ({props.market.base.symbol})
            <Show when={maxQuantity() !== null}>
              <span class="muted"> · max {formatQuantity(props.market, maxQuantity()!)}</span>
            </Show>
          </span>
          <button
            type="button"
            class="link"
            data-testid="ticket-quantity-minimum"
            title={`The smallest size this book accepts${minimumSize().atPrice ? ' at this price' : ''}: on the size step ${formatQuantity(props.market, sizeStep(book()))}, not below the dust threshold ${formatQuantity(props.market, book().dust)} ${props.market.base.symbol}, worth at least ${formatQuote(book(), book().min_order)} ${props.market.quote.symbol}`}
            onClick={() => {
              setTouched(true);
              setPercent(0);
              update({ quantityText: editableQuantity(props.market, minimumSize().size) });
            }}
          >
            min {formatQuantity(props.market, minimumSize().size)}
          </button>
        </span>
        <input
          data-testid="ticket-quantity"
          inputmode="decimal"
          autocomplete="off"
          spellcheck={false}
          classList={{ invalid: problemField() === 'quantity' }}
          placeholder={`min ${editableQuantity(props.market, minimumSize().size)}`}
          value={draft().quantityText}
          onInput={(event) => {
            setTouched(true);
            setPercent(0);
            update({ quantityText: event.currentTarget.value });
          }}
        />
      </label>
      <Show when={presets().length > 0}>
        <div class="presets" data-testid="ticket-presets">
          <For each={presets()}>
            {(preset) => (
              <button
                type="button"
                data-testid="ticket-preset"
                disabled={preset < minimumSize().size}
                title={preset < minimumSize().size ? `Below the smallest size this book accepts (${formatQuantity(props.market, minimumSize().size)} ${props.market.base.symbol})` : undefined}
                onClick={() => {
                  setTouched(true);
                  update({ quantityText: editableQuantity(props.market, preset) });
                }}
              >
                {formatQuantity(props.market, preset)}
              </button>
            )}
          </For>
        </div>
      </Show>
      <Show when={tradingAccountSigns()}>
        <div class="percent" title={side() === 'Buy' ? `Share of unlocked ${props.market.quote.symbol} spent at the price` : `Share of unlocked ${props.market.base.symbol}`}>
          <input type="range" min="0" max="100" step="1" data-testid="ticket-percent" value={percent()} onInput={(event) => applyPercent(Number(event.currentTarget.value))} />
          <For each={[25, 50, 100]}>
            {(value) => (
              <button type="button" data-testid={`ticket-percent-${value}`} onClick={() => applyPercent(value)}>
                {value}%
              </button>
            )}
          </For>
        </div>
      </Show>
      <div class="ticket-reduce" data-testid="ticket-reduce-only">
        <label class="ticket-reduce-toggle" title="Only reduce your position on this book: capped to it, never flipping it (checked here: the venue has no reduce-only flag)">
          <input type="checkbox" data-testid="ticket-reduce-only-toggle" checked={reduceOnly()} onChange={(event) => setReduceOnly(event.currentTarget.checked)} /> Reduce-only
        </label>
        <Show when={reduceCheck()}>
          {(check) => (
            <div class="ticket-reduce-status" classList={{ refused: !check().ok }} data-testid="ticket-reduce-only-status" data-ok={check().ok ? 'true' : 'false'} data-code={check().ok ? '' : (check() as { code: string }).code} data-cap={check().cap?.toString() ?? ''}>
              {check().ok ? (check() as { text: string }).text : (check() as { message: string }).message}
              <Show when={!check().ok && (check().cap ?? 0n) > 0n}>
                {' '}
                <button
                  type="button"
                  class="link"
                  data-testid="ticket-reduce-only-use-cap"
                  onClick={() => {
                    setTouched(true);
                    update({ quantityText: editableQuantity(props.market, check().cap!) });
                  }}
                >
                  use {formatQuantity(props.market, check().cap!)}
                </button>
              </Show>
            </div>
          )}
        </Show>
      </div>
      <div class="ticket-summary" data-testid="ticket-summary">
        <Show
          when={tradingAccountSigns()}
          fallback={
            <>
              <span>Available (Turbo Account {shortId(signer().kind === 'turbo-account' ? (signer() as { account: string }).account : '')})</span>
              <b data-testid="ticket-available" data-signer="turbo-account">
                {(() => {
                  const checked = turboCheck();
                  const capacity = checked?.ok ? checked.value.buyCapacity : null;
                  return side() === 'Buy' && capacity !== null && capacity !== undefined ? `buy capacity ${formatAmount(capacity, props.market.quote.decimals)} ${props.market.quote.symbol}` : 'see the check below';
                })()}
              </b>
            </>
          }
        >
          <span>Available (trading account)</span>
          <b
            data-testid="ticket-available"
            data-signer="trading-account"
            data-asset-id={side() === 'Buy' ? props.market.quote.asset : props.market.base.asset}
            data-raw={(side() === 'Buy' ? availableQuote() : availableBase())?.toString() ?? ''}
          >
            {side() === 'Buy'
              ? availableQuote() !== null
                ? `${availableText(props.market.quote, availableQuote()!)} ${props.market.quote.symbol}`
                : '—'
              : availableBase() !== null
                ? `${availableText(props.market.base, availableBase()!)} ${props.market.base.symbol}`
                : '—'}
          </b>
        </Show>
        <Show when={ready()}>
          {(value) => (
            <>
              <span>Order value{value().priceIsEstimate ? ' (est.)' : ''}</span>
              <b data-testid="ticket-value">
                {formatQuote(book(), value().quoteValue)} {props.market.quote.symbol}
              </b>
              <span>Taker fee, worst case ({formatPpm(book().taker_fee)})</span>
              <b data-testid="ticket-fee">
                {formatQuote(book(), value().takerFee)} {props.market.quote.symbol}
              </b>
              <span>Locked by the order</span>
              <b data-testid="ticket-locked">
                {value().locked.asset === props.market.quote.asset
                  ? `${formatQuote(book(), value().locked.amount)} ${props.market.quote.symbol}`
                  : `${formatQuantity(book(), value().locked.amount)} ${props.market.base.symbol}`}
              </b>
            </>
          )}
        </Show>
      </div>
      <Show when={props.turbo}>
        <TurboCheckView market={props.market} check={turboCheck()} pending={checking()} />
      </Show>
      <details class="ticket-bracket" open={bracketOn()} data-testid="ticket-bracket">
        <summary>
          Take-profit / stop-loss
          {/* The form's state for the next order, not protection on the exchange (the Stops tab and the open orders show that). */}
          <Show when={bracketOn()}>
            <span class="muted" data-testid="ticket-bracket-state" title="Attached to the next order this ticket sends; the legs on the exchange are listed under Open orders and in the Stops tab">
              {' '}
              · sent with the next order
            </span>
          </Show>
        </summary>
        <BracketSection market={book()} turbo={props.turbo} entry={entry} onChange={setBracket} hidePlaceButton />
      </details>
      <Show when={ready()?.warnings.length}>
        <For each={ready()?.warnings ?? []}>{(warning) => <div class="ticket-warning">{warning}</div>}</For>
      </Show>
      <div class="ticket-footer" data-testid="ticket-footer">
        <div class="ticket-problem" data-testid="ticket-problem" role="status">
          {problemText()}
        </div>
        {/* Why the button is disabled, before the form is touched too (the problem line above says it in red once it is). */}
        <Show when={send().reason !== '' && send().reason !== problemText()}>
          <div classList={{ help: send().incomplete, 'ticket-warning': !send().incomplete }} data-testid="ticket-why" role="status">
            {send().reason}
          </div>
        </Show>
        <button
          type="submit"
          class={`ticket-submit ${sideClass()}`}
          data-testid="ticket-submit"
          disabled={ready() === null || sending() || send().reason !== ''}
          title={send().reason}
        >
          {sending()
            ? terminal.confirming()
              ? 'Confirm in the dialog…'
              : 'Sending…'
            : `${side()} ${draft().quantityText || ''} ${props.market.base.symbol}${needsPrice() && draft().priceText ? ` @ ${draft().priceText}` : ''}${boundText()}${bracketOn() ? ' + TP/SL' : ''}${reduceOnly() ? ' · reduce-only' : ''}${props.turbo ? ' · Turbo' : ''}`}
        </button>
        <Show when={!canTrade()}>
          <div class="help">Trading needs an account and a session: open Account setup.</div>
        </Show>
        <Show when={lastResult()}>
          {(result) => (
            <div classList={{ 'ticket-warning': !result().ok || result().partial === true, help: result().ok && result().partial !== true }} data-testid="ticket-result" data-ok={result().ok ? 'true' : 'false'} data-code={result().code ?? ''}>
              {result().text}
            </div>
          )}
        </Show>
      </div>
    </form>
  );
};
