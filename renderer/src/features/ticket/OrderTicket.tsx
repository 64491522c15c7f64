// The order ticket: side, every order type of the venue, exact price and quantity inputs, presets
// and a percent-of-available control, inline validation with the market's own rules, the
// worst-case fee and the amount that will be locked, then placeOrder with main's answer shown.
import { createMemo, createSignal, For, Match, Show, Switch, type Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import type { OrderTypeKind } from '../../../../shared/market/order-type';
import { priceTick } from '../../../../shared/market/tick';
import { useTerminal } from '../../app/terminal-context';
import { Panel } from '../../components/Panel';
import { editablePrice, editableQuantity, formatAmount, formatPrice, formatQuantity, formatQuote } from '../../format/market-format';
import { formatPpm } from '../../format/units';
import { createBookFeed } from '../market-data/book-feed';
import { describeOrder } from '../trading/trading-actions';
import { evaluateTicket, ORDER_KIND_HELP, ORDER_KIND_LABELS, ORDER_KINDS, quantityForPercent, type TicketField } from './ticket-model';

export const OrderTicket: Component<{ market: Market; turbo: boolean }> = (props) => {
  const terminal = useTerminal();
  const marketId = () => props.market.market_id;
  const draft = () => terminal.tickets.draft(marketId());
  const update = (change: Parameters<typeof terminal.tickets.update>[1]) => terminal.tickets.update(marketId(), change);
  const [percent, setPercent] = createSignal(0);
  const [sending, setSending] = createSignal(false);
  const [lastResult, setLastResult] = createSignal<{ ok: boolean; text: string } | null>(null);
  const [touched, setTouched] = createSignal(false);

  // The best bid and offer, from a one-level subscription of this panel's own.
  const book = createBookFeed(terminal.api, terminal.frames, () => ({ marketId: marketId(), turbo: props.turbo, precision: priceTick(props.market), levels: 1 }));
  const live = () => (book.frame()?.state === 'live' ? book.frame() : null);
  const bestBid = () => live()?.bids[0]?.price ?? null;
  const bestAsk = () => live()?.asks[0]?.price ?? null;

  const balanceOf = (assetId: string) => terminal.store.state.balances.find((balance) => balance.assetId === assetId) ?? null;
  const availableQuote = () => balanceOf(props.market.quote.asset)?.unlocked ?? null;
  const availableBase = () => balanceOf(props.market.base.asset)?.unlocked ?? null;
  const settings = () => terminal.store.state.settings;
  const maxQuantity = () => settings()?.maxOrderQuantity[marketId()] ?? null;
  const presets = () => settings()?.quantityPresets[marketId()] ?? [];

  const evaluation = createMemo(() =>
    evaluateTicket(draft(), {
      market: props.market,
      turbo: props.turbo,
      maxOrderQuantity: maxQuantity(),
      bestBid: bestBid(),
      bestAsk: bestAsk(),
      availableQuote: availableQuote(),
      availableBase: availableBase(),
    }),
  );
  const problemField = (): TicketField | null => {
    const result = evaluation();
    return !result.ok && touched() ? result.field : null;
  };

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
    const quantity = quantityForPercent(props.market, draft().side, value, price, available);
    setTouched(true);
    update({ quantityText: quantity > 0n ? editableQuantity(props.market, quantity) : '' });
  };

  const submit = async () => {
    setTouched(true);
    const result = evaluation();
    if (!result.ok || sending()) return;
    setSending(true);
    setLastResult(null);
    const placed = await terminal.trading.place(props.market, result.request, 'the ticket');
    setSending(false);
    if (placed === null) return;
    if (placed.ok) {
      const adjustments = placed.value.adjustments.length > 0 ? ` Main adjusted: ${placed.value.adjustments.join('; ')}.` : '';
      setLastResult({ ok: true, text: `Placed ${describeOrder(props.market, result.request)}.${adjustments}` });
    } else setLastResult({ ok: false, text: `${placed.message} (${placed.code})` });
  };

  const canTrade = () => terminal.store.state.account?.canTrade === true;
  const side = () => draft().side;
  const sideClass = () => (side() === 'Buy' ? 'buy-side' : 'sell-side');
  const needsPrice = () => draft().kind !== 'Market' && draft().kind !== 'BoundedMarket';

  const fillPrice = (price: bigint | null) => {
    if (price === null) return;
    setTouched(true);
    update({ priceText: editablePrice(props.market, price) });
  };

  return (
    <Panel
      title="Order ticket"
      testId="order-ticket"
      controls={<span class="muted">{props.market.base.symbol}/{props.market.quote.symbol}</span>}
    >
      <form
        class="ticket"
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
        <label class="field">
          <span>Order type</span>
          <select data-testid="ticket-type" value={draft().kind} onChange={(event) => update({ kind: event.currentTarget.value as OrderTypeKind })}>
            <For each={ORDER_KINDS}>{(kind) => <option value={kind}>{ORDER_KIND_LABELS[kind]}</option>}</For>
          </select>
          <span class="help">{ORDER_KIND_HELP[draft().kind]}</span>
        </label>
        <Switch>
          <Match when={needsPrice()}>
            <label class="field">
              <span>
                Price ({props.market.quote.symbol}){' '}
                <button type="button" class="link" data-testid="ticket-price-bid" onClick={() => fillPrice(bestBid())}>
                  bid {bestBid() !== null ? formatPrice(props.market, bestBid()!) : '—'}
                </button>{' '}
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
            <div class="row">
              <label class="field">
                <span>Max price</span>
                <input data-testid="ticket-max-price" inputmode="decimal" classList={{ invalid: problemField() === 'maxPrice' }} value={draft().maxPriceText} onInput={(event) => { setTouched(true); update({ maxPriceText: event.currentTarget.value }); }} />
              </label>
              <label class="field">
                <span>Min price</span>
                <input data-testid="ticket-min-price" inputmode="decimal" placeholder="0" classList={{ invalid: problemField() === 'minPrice' }} value={draft().minPriceText} onInput={(event) => { setTouched(true); update({ minPriceText: event.currentTarget.value }); }} />
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
          <span>
            Quantity ({props.market.base.symbol})
            <Show when={maxQuantity() !== null}>
              <span class="muted"> · max {formatQuantity(props.market, maxQuantity()!)}</span>
            </Show>
          </span>
          <input
            data-testid="ticket-quantity"
            inputmode="decimal"
            autocomplete="off"
            spellcheck={false}
            classList={{ invalid: problemField() === 'quantity' }}
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
                <button type="button" data-testid="ticket-preset" onClick={() => { setTouched(true); update({ quantityText: editableQuantity(props.market, preset) }); }}>
                  {formatQuantity(props.market, preset)}
                </button>
              )}
            </For>
          </div>
        </Show>
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
        <div class="ticket-summary" data-testid="ticket-summary">
          <span>Available</span>
          <b>
            {side() === 'Buy'
              ? availableQuote() !== null
                ? `${formatAmount(availableQuote()!, props.market.quote.decimals)} ${props.market.quote.symbol}`
                : '—'
              : availableBase() !== null
                ? `${formatAmount(availableBase()!, props.market.base.decimals)} ${props.market.base.symbol}`
                : '—'}
          </b>
          <Show when={evaluation().ok ? evaluation() : null}>
            {(ready) => {
              const value = () => (ready() as Extract<ReturnType<typeof evaluation>, { ok: true }>);
              return (
                <>
                  <span>Order value{value().priceIsEstimate ? ' (est.)' : ''}</span>
                  <b data-testid="ticket-value">
                    {formatQuote(props.market, value().quoteValue)} {props.market.quote.symbol}
                  </b>
                  <span>Taker fee, worst case ({formatPpm(props.market.taker_fee)})</span>
                  <b data-testid="ticket-fee">
                    {formatQuote(props.market, value().takerFee)} {props.market.quote.symbol}
                  </b>
                  <span>Locked by the order</span>
                  <b data-testid="ticket-locked">
                    {value().locked.asset === props.market.quote.asset
                      ? `${formatQuote(props.market, value().locked.amount)} ${props.market.quote.symbol}`
                      : `${formatQuantity(props.market, value().locked.amount)} ${props.market.base.symbol}`}
                  </b>
                </>
              );
            }}
          </Show>
        </div>
        <div class="ticket-problem" data-testid="ticket-problem" role="status">
          {(() => {
            const current = evaluation();
            return !current.ok && touched() ? current.message : '';
          })()}
        </div>
        <Show when={evaluation().ok && (evaluation() as { warnings: readonly string[] }).warnings.length > 0}>
          <For each={(evaluation() as { warnings: readonly string[] }).warnings}>{(warning) => <div class="ticket-warning">{warning}</div>}</For>
        </Show>
        <button
          type="submit"
          class={`ticket-submit ${sideClass()}`}
          data-testid="ticket-submit"
          disabled={!evaluation().ok || sending() || !canTrade()}
          title={canTrade() ? '' : 'No trading session yet: finish the account setup first'}
        >
          {sending() ? 'Sending…' : `${side()} ${draft().quantityText || ''} ${props.market.base.symbol}${needsPrice() && draft().priceText ? ` @ ${draft().priceText}` : ''}`}
        </button>
        <Show when={!canTrade()}>
          <div class="help">Trading needs an account and a session: open Account setup.</div>
        </Show>
        <Show when={lastResult()}>
          {(result) => (
            <div classList={{ 'ticket-warning': !result().ok, help: result().ok }} data-testid="ticket-result">
              {result().text}
            </div>
          )}
        </Show>
      </form>
    </Panel>
  );
};
