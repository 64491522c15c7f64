// Open orders of every market (the market's own rows first): amend one (new price and/or quantity,
// cancel and create in one signed batch, the new order id shown), cancel one, cancel all in a
// market; under them, the take-profit and stop-loss legs grouped under the orders they belong to.
import { createMemo, createSignal, For, Show, type Component } from 'solid-js';
import { parseUnits } from '../../../../shared/encoding/units';
import type { OrderView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { editablePrice, editableQuantity } from '../../format/market-format';
import { formatClock } from '../../format/time';
import { shortId } from '../../format/units';
import { marketName } from '../markets/market-label';
import { priceCell, quantityCell } from '../../format/columns';
import { accountText } from '../positions/positions-model';
import { ORDER_KIND_LABELS } from '../ticket/ticket-model';
import { TriggersList } from '../triggers';
import { createTriggerSnapshot } from '../triggers/trigger-data';
import { useBridge } from '../../stores/bridge-context';
import { createFreshness, FreshnessBadge } from '../../lib/freshness';
import { MarketName } from '../markets/MarketName';
import { ordersAndLegsText } from './orders-count';
import { createRowWindow } from '../../lib/row-window';
import { RowSpacer } from '../../components/RowSpacer';

export const OpenOrders: Component<{ market: Market; turbo: boolean; allMarkets: boolean }> = (props) => {
  const terminal = useTerminal();
  const markets = () => terminal.store.state.markets?.markets ?? [];
  const rows = createMemo(() => terminal.store.state.openOrders.filter((order) => props.allMarkets || order.marketId === props.market.market_id));
  // Hundreds of resting orders: only the rows near the view are drawn (lib/row-window.ts).
  const shown = createRowWindow(() => rows().length);
  const drawn = createMemo(() => {
    const { start, end } = shown.range();
    return rows().slice(start, end);
  });
  const countHere = () => terminal.store.state.openOrders.filter((order) => order.marketId === props.market.market_id).length;
  // Cancel all in the market takes its pending trigger legs too (stops, OCO pairs, take-profits and stop-losses).
  const triggers = createTriggerSnapshot(useBridge());
  const legsHere = () => triggers().pending.filter((leg) => leg.marketId === props.market.market_id).length;
  // One order is edited at a time: its id and the texts typed.
  const [editing, setEditing] = createSignal<{ orderId: string; price: string; quantity: string; error: string | null } | null>(null);
  const [sending, setSending] = createSignal(false);
  const signerOf = (order: OrderView) => {
    const trading = terminal.store.state.account?.tradeAccount?.tradeAccountId ?? '';
    const account = order.account === '' ? trading : order.account;
    return accountText({ account, accountKind: account === trading ? 'trading' : 'turbo-account' });
  };
  const startEdit = (market: Market, order: OrderView) =>
    setEditing({ orderId: order.orderId, price: editablePrice(market, order.price), quantity: editableQuantity(market, order.quantity - order.filled), error: null });
  const saveEdit = async (market: Market, order: OrderView) => {
    const edit = editing();
    if (!edit || edit.orderId !== order.orderId) return;
    const price = parseUnits(edit.price.trim(), market.quote.decimals, 'Price');
    const quantity = parseUnits(edit.quantity.trim(), market.base.decimals, 'Quantity');
    if (!price.ok || !quantity.ok) {
      setEditing({ ...edit, error: !price.ok ? price.message : !quantity.ok ? quantity.message : null });
      return;
    }
    const remaining = order.quantity - order.filled;
    const change = { ...(price.value === order.price ? {} : { price: price.value }), ...(quantity.value === remaining ? {} : { quantity: quantity.value }) };
    if (change.price === undefined && change.quantity === undefined) {
      setEditing(null);
      return;
    }
    setSending(true);
    const result = await terminal.trading.amend(market, order, change, signerOf(order));
    setSending(false);
    if (result === null) return;
    if (result.ok) setEditing(null);
    else setEditing({ ...edit, error: `${result.code}: ${result.message}` });
  };
  const freshness = createFreshness(terminal.freshness, (view) => [view.orders]);
  return (
    <div data-testid="open-orders" data-freshness={freshness.state()}>
      <div class="panel-head" style={{ 'min-height': '24px' }}>
        <span class="muted" data-testid="open-orders-count">{rows().length} open</span>
        <FreshnessBadge mark={freshness} testId="open-orders-freshness" />
        <div class="spacer" />
        <button
          type="button"
          data-testid="cancel-all-market"
          disabled={countHere() + legsHere() === 0}
          title="Cancel every open order and pending trigger leg of this market, on its canonical and Turbo books"
          onClick={() => void terminal.trading.cancelAll(props.market)}
        >
          Cancel all <MarketName market={props.market} /> ({ordersAndLegsText(countHere(), legsHere())})
        </button>
      </div>
      <table class="fresh-dim">
        <thead>
          <tr>
            <th>Time</th>
            <th>Market</th>
            <th>Side</th>
            <th>Type</th>
            <th class="num">Price</th>
            <th class="num">Quantity</th>
            <th class="num">Filled</th>
            <th>Order</th>
            <th />
          </tr>
        </thead>
        <tbody ref={shown.body} data-rows={rows().length} data-first-row={shown.range().start}>
          <RowSpacer height={shown.above()} columns={9} />
          <For each={drawn()}>
            {(order) => {
              const market = () => terminal.market(order.marketId);
              return (
                <tr ref={shown.row} data-testid="open-order-row" data-order-id={order.orderId} data-market-id={order.marketId}>
                  <td class="mono">{formatClock(order.time)}</td>
                  <td title={order.marketId}>{market() ? marketName(market()!, markets()) : 'unknown market'}</td>
                  <td classList={{ buy: order.side === 'Buy', sell: order.side === 'Sell' }}>{order.side}</td>
                  <td>{ORDER_KIND_LABELS[order.orderType]}</td>
                  <Show
                    when={editing()?.orderId === order.orderId && market()}
                    fallback={
                      <>
                        <td class="num" data-column="price">{market() ? priceCell(market()!, order.price) : order.price.toString()}</td>
                        <td class="num" data-column="quantity">{market() ? quantityCell(market()!, order.quantity) : order.quantity.toString()}</td>
                      </>
                    }
                  >
                    <td class="num">
                      <input
                        class="amend-input"
                        data-testid="amend-price"
                        inputMode="decimal"
                        aria-label="New price"
                        value={editing()!.price}
                        onInput={(event) => setEditing({ ...editing()!, price: event.currentTarget.value, error: null })}
                        onKeyDown={(event) => {
                          if (event.key === 'Enter') void saveEdit(market()!, order);
                          if (event.key === 'Escape') setEditing(null);
                        }}
                      />
                    </td>
                    <td class="num">
                      <input
                        class="amend-input"
                        data-testid="amend-quantity"
                        inputMode="decimal"
                        aria-label="New quantity to rest"
                        title="The quantity that rests after the amend (what is still unfilled now)"
                        value={editing()!.quantity}
                        onInput={(event) => setEditing({ ...editing()!, quantity: event.currentTarget.value, error: null })}
                        onKeyDown={(event) => {
                          if (event.key === 'Enter') void saveEdit(market()!, order);
                          if (event.key === 'Escape') setEditing(null);
                        }}
                      />
                    </td>
                  </Show>
                  <td class="num" data-column="filled">{market() ? quantityCell(market()!, order.filled) : order.filled.toString()}</td>
                  <td class="mono muted" title={order.orderId}>{shortId(order.orderId)}</td>
                  <td class="order-actions">
                    <Show
                      when={editing()?.orderId === order.orderId}
                      fallback={
                        <button type="button" data-testid="amend-order" disabled={!market() || sending()} title="Change the price or the quantity: cancel and replace in one signed batch" onClick={() => market() && startEdit(market()!, order)}>
                          Amend
                        </button>
                      }
                    >
                      <button type="button" class="primary" data-testid="amend-save" disabled={sending()} onClick={() => void saveEdit(market()!, order)}>
                        {sending() ? 'Sending…' : 'Save'}
                      </button>
                      <button type="button" data-testid="amend-discard" disabled={sending()} onClick={() => setEditing(null)}>
                        Discard
                      </button>
                      <Show when={editing()?.error}>
                        <div class="amend-error" data-testid="amend-error">
                          {editing()!.error}
                        </div>
                      </Show>
                    </Show>
                    <button
                      type="button"
                      data-testid="cancel-order"
                      disabled={!market()}
                      // The window's book choice is known for its own market only; other markets' orders are on their canonical books.
                      onClick={() => market() && void terminal.trading.cancel(market()!, order.orderId, order.turbo)}
                    >
                      Cancel
                    </button>
                  </td>
                </tr>
              );
            }}
          </For>
          <RowSpacer height={shown.below()} columns={9} />
          <Show when={rows().length === 0}>
            <tr>
              <td colSpan={9} class="empty">
                {terminal.store.state.problems.orders ?? 'No open orders'}
              </td>
            </tr>
          </Show>
        </tbody>
      </table>
      <div class="orders-legs">
        <h3 class="subhead">Take-profit / stop-loss</h3>
        <TriggersList markets={markets()} {...(props.allMarkets ? {} : { marketId: props.market.market_id })} />
      </div>
    </div>
  );
};
