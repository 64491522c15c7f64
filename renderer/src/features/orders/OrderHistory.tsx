// Order history and fills of one market, newest first, with cursor pagination. Both books of the
// market and every account that trades them are listed (the trading account, its Turbo Accounts),
// each row labelled with its book and account.
import { createMemo, For, Show, type Component } from 'solid-js';
import type { Page } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import type { Result } from '../../../../shared/result';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { averagePriceCell, fillFeeColumns, orderStatusCell, priceCell, quantityCell } from '../../format/columns';
import { formatPrice } from '../../format/market-format';
import { formatDateTime } from '../../format/time';
import { shortId } from '../../format/units';
import { ORDER_KIND_LABELS } from '../ticket/ticket-model';
import { accountActivity, createPagedList, listResetKey } from './paged-list';
import { createFreshness, FreshnessBadge } from '../../lib/freshness';

/** "Canonical" or "Turbo": the book the order is on. */
export function bookLabel(turbo: boolean): string {
  return turbo ? 'Turbo' : 'Canonical';
}

/** "Trading" for the trading account, "Turbo 0x1234…abcd" for one of its Turbo Accounts. */
export function accountLabel(account: string, tradingAccount: string | undefined): string {
  if (account === '' || (tradingAccount !== undefined && account.toLowerCase() === tradingAccount.toLowerCase())) return 'Trading';
  return `Turbo ${shortId(account)}`;
}

const BookAccountCells: Component<{ turbo: boolean; account: string }> = (props) => {
  const terminal = useTerminal();
  return (
    <>
      <td data-testid="row-book" classList={{ 'turbo-book': props.turbo }}>
        {bookLabel(props.turbo)}
      </td>
      <td data-testid="row-account" class="mono" title={props.account}>
        {accountLabel(props.account, terminal.store.state.account?.tradeAccount?.tradeAccountId)}
      </td>
    </>
  );
};

/**
 * The account's orders or fills of one market, page by page from `load`: started over on another
 * market, network or trading account, and on any activity of the account (a new order, a fill, a
 * cancel, a journal entry; also once main's recent-fills list is full and its length stays at its
 * cap) the newest page read again, merged in front of the older pages loaded.
 */
function createAccountList<T>(load: (cursor: string | null) => Promise<Result<Page<T>>>, marketId: () => string, identity: (item: T) => string) {
  const state = useTerminal().store.state;
  return createPagedList(load, () => listResetKey(marketId(), state.networks.find((network) => network.active)?.id ?? null, state.account?.tradeAccount?.tradeAccountId ?? null), {
    changed: () => accountActivity(state.openOrders, state.fills, state.journal[0]),
    identity,
  });
}

export const OrderHistory: Component<{ market: Market; turbo: boolean }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const list = createAccountList(
    (cursor) => bridge.getOrderHistory({ marketId: props.market.market_id, cursor }),
    () => props.market.market_id,
    (order) => `${order.account}:${order.orderId}`,
  );
  // The history is read over REST and kept current by the order stream.
  const freshness = createFreshness(terminal.freshness, (view) => [view.orders]);
  return (
    <div data-testid="order-history" data-freshness={freshness.state()}>
      <div class="freshness-line">
        <FreshnessBadge mark={freshness} testId="order-history-freshness" />
      </div>
      <table class="fresh-dim">
        <thead>
          <tr>
            <th>Time</th>
            <th>Book</th>
            <th>Account</th>
            <th>Side</th>
            <th>Type</th>
            <th class="num">Price</th>
            <th class="num">Quantity</th>
            <th class="num">Filled</th>
            <th class="num">Avg price</th>
            <th>Status</th>
            <th>Order</th>
          </tr>
        </thead>
        <tbody>
          <For each={list.items()}>
            {(order) => (
              <tr data-testid="history-row" data-order-id={order.orderId} data-book={order.turbo ? 'turbo' : 'canonical'}>
                <td class="mono">{formatDateTime(order.time)}</td>
                <BookAccountCells turbo={order.turbo} account={order.account} />
                <td classList={{ buy: order.side === 'Buy', sell: order.side === 'Sell' }}>{order.side}</td>
                <td>{ORDER_KIND_LABELS[order.orderType]}</td>
                <td class="num" data-column="price">{priceCell(props.market, order.price)}</td>
                <td class="num" data-column="quantity">{quantityCell(props.market, order.quantity)}</td>
                <td class="num" data-column="filled">{quantityCell(props.market, order.filled)}</td>
                <td class="num" data-column="average" title={order.averagePrice > 0n ? `${formatPrice(props.market, order.averagePrice)} ${props.market.quote.symbol}` : undefined}>
                  {order.averagePrice > 0n ? averagePriceCell(props.market, order.averagePrice) : '—'}
                </td>
                <td>{orderStatusCell(props.market, order)}</td>
                <td class="mono muted" title={order.orderId}>{shortId(order.orderId)}</td>
              </tr>
            )}
          </For>
          <Show when={list.items().length === 0 && !list.loading()}>
            <tr>
              <td colSpan={11} class="empty">{list.problem() ?? 'No orders in this market yet'}</td>
            </tr>
          </Show>
        </tbody>
      </table>
      <PagerFoot list={list} />
    </div>
  );
};

export const Fills: Component<{ market: Market; turbo: boolean }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const list = createAccountList(
    (cursor) => bridge.getFills({ marketId: props.market.market_id, cursor }),
    () => props.market.market_id,
    (fill) => `${fill.orderId}:${fill.time}:${fill.price}:${fill.quantity}`,
  );
  const freshness = createFreshness(terminal.freshness, (view) => [view.orders]);
  // Fees are charged in the asset each side receives (raw units, finer than the display decimals):
  // one column per asset, padded so the decimal points line up.
  const fees = createMemo(() => fillFeeColumns(props.market, list.items()));
  return (
    <div data-testid="fills" data-freshness={freshness.state()}>
      <div class="freshness-line">
        <FreshnessBadge mark={freshness} testId="fills-freshness" />
      </div>
      <table class="fresh-dim">
        <thead>
          <tr>
            <th>Time</th>
            <th>Book</th>
            <th>Account</th>
            <th>Side</th>
            <th class="num">Price</th>
            <th class="num">Quantity</th>
            <th class="num" title="A buy pays its fee in the base asset it receives">
              Fee {props.market.base.symbol}
            </th>
            <th class="num" title="A sale pays its fee in the quote asset it receives">
              Fee {props.market.quote.symbol}
            </th>
            <th>Order</th>
          </tr>
        </thead>
        <tbody>
          <For each={list.items()}>
            {(fill, index) => (
              <tr data-testid="fill-row" data-order-id={fill.orderId} data-book={fill.turbo ? 'turbo' : 'canonical'}>
                <td class="mono">{formatDateTime(fill.time)}</td>
                <BookAccountCells turbo={fill.turbo} account={fill.account} />
                <td classList={{ buy: fill.side === 'Buy', sell: fill.side === 'Sell' }}>{fill.side}</td>
                <td class="num" data-column="price">{priceCell(props.market, fill.price)}</td>
                <td class="num" data-column="quantity">{quantityCell(props.market, fill.quantity)}</td>
                <td class="num" data-column="fee-base">{fees()[index()]?.base}</td>
                <td class="num" data-column="fee-quote">{fees()[index()]?.quote}</td>
                <td class="mono muted" title={fill.orderId}>{shortId(fill.orderId)}</td>
              </tr>
            )}
          </For>
          <Show when={list.items().length === 0 && !list.loading()}>
            <tr>
              <td colSpan={9} class="empty">{list.problem() ?? 'No fills in this market yet'}</td>
            </tr>
          </Show>
        </tbody>
      </table>
      <PagerFoot list={list} />
    </div>
  );
};

const PagerFoot: Component<{ list: { loading: () => boolean; done: () => boolean; more: () => void; items: () => readonly unknown[] } }> = (props) => (
  <div class="panel-note">
    <Show when={!props.list.done() && props.list.items().length > 0} fallback={<span>{props.list.items().length > 0 ? 'End of history' : ''}</span>}>
      <button type="button" data-testid="load-more" disabled={props.list.loading()} onClick={() => props.list.more()}>
        {props.list.loading() ? 'Loading…' : 'Older'}
      </button>
    </Show>
  </div>
);
