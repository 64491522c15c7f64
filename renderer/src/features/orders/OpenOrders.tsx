// Open orders of every market (the market's own rows first): cancel one, cancel all in a market;
// under them, the take-profit and stop-loss legs grouped under the orders they belong to.
import { createMemo, For, Show, type Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../app/terminal-context';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { formatClock } from '../../format/time';
import { shortId } from '../../format/units';
import { marketLabel, labelText } from '../markets/market-label';
import { ORDER_KIND_LABELS } from '../ticket/ticket-model';
import { TriggersList } from '../triggers';

export const OpenOrders: Component<{ market: Market; turbo: boolean; allMarkets: boolean }> = (props) => {
  const terminal = useTerminal();
  const markets = () => terminal.store.state.markets?.markets ?? [];
  const rows = createMemo(() => terminal.store.state.openOrders.filter((order) => props.allMarkets || order.marketId === props.market.market_id));
  const countHere = () => terminal.store.state.openOrders.filter((order) => order.marketId === props.market.market_id).length;
  return (
    <div data-testid="open-orders">
      <div class="panel-head" style={{ 'min-height': '24px' }}>
        <span class="muted">{rows().length} open</span>
        <div class="spacer" />
        <button type="button" data-testid="cancel-all-market" disabled={countHere() === 0} onClick={() => void terminal.trading.cancelAll(props.market)}>
          Cancel all {props.market.base.symbol}/{props.market.quote.symbol} ({countHere()})
        </button>
      </div>
      <table>
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
        <tbody>
          <For each={rows()}>
            {(order) => {
              const market = () => terminal.market(order.marketId);
              return (
                <tr data-testid="open-order-row" data-order-id={order.orderId} data-market-id={order.marketId}>
                  <td class="mono">{formatClock(order.time)}</td>
                  <td>{market() ? labelText(marketLabel(market()!, markets())) : shortId(order.marketId)}</td>
                  <td classList={{ buy: order.side === 'Buy', sell: order.side === 'Sell' }}>{order.side}</td>
                  <td>{ORDER_KIND_LABELS[order.orderType]}</td>
                  <td class="num">{market() ? formatPrice(market()!, order.price) : order.price.toString()}</td>
                  <td class="num">{market() ? formatQuantity(market()!, order.quantity) : order.quantity.toString()}</td>
                  <td class="num">{market() ? formatQuantity(market()!, order.filled) : order.filled.toString()}</td>
                  <td class="mono muted" title={order.orderId}>{shortId(order.orderId)}</td>
                  <td>
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
        <TriggersList api={terminal.api} markets={markets()} {...(props.allMarkets ? {} : { marketId: props.market.market_id })} />
      </div>
    </div>
  );
};
