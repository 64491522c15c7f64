// Balances per asset, in columns that add up (docs/protocol.md, "Balance figures"): on account +
// in books = available, available + locked in orders = total; and per book with a settle button
// that moves a book's unlocked funds back to the account. The Funds panel shows the same figures
// under the same names (format/columns.ts balanceColumns).
import { createMemo, createSignal, For, Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { balanceColumns, balanceText } from '../../format/columns';
import type { BalanceView, BookBalanceView } from '../../../../shared/ipc/views';
import { assetNames, marketName } from '../markets/market-label';
import { createFreshness, FreshnessBadge } from '../../lib/freshness';

export const Balances: Component = () => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [settling, setSettling] = createSignal<string | null>(null);
  const markets = () => terminal.store.state.markets?.markets ?? [];
  // One key per book: a market's canonical and Turbo books share its market id.
  const bookKey = (book: BookBalanceView) => `${book.marketId}:${book.turbo ? 'turbo' : 'canonical'}`;
  const settle = async (book: BookBalanceView) => {
    const { marketId } = book;
    setSettling(bookKey(book));
    const result = await bridge.settleBalance({ marketId, ...(book.turbo ? { turbo: true } : {}) });
    setSettling(null);
    const market = terminal.market(marketId);
    const name = `${market ? marketName(market, markets()) : 'an unknown market'}${book.turbo ? ' (Turbo book)' : ''}`;
    terminal.store.notify(result.ok ? 'info' : 'error', result.ok ? `Settled ${name}: unlocked funds moved to the account` : `Settle ${name} refused (${result.code}): ${result.message}`);
  };
  const freshness = createFreshness(terminal.freshness, (view) => [view.balances]);
  // Each asset in its display decimals; each column padded so the decimal points line up.
  const names = createMemo(() => assetNames(markets()));
  const cells = createMemo(() => {
    const balances = terminal.store.state.balances;
    const columns = balanceColumns(balances, markets());
    return new Map(balances.map((balance, index) => [balance.assetId, columns[index]!]));
  });
  const bookAmount = (balance: BalanceView, raw: bigint) => balanceText(balance.assetId, balance.decimals, raw, markets());
  return (
    <div data-testid="balances" data-freshness={freshness.state()}>
    <div class="freshness-line">
      <FreshnessBadge mark={freshness} testId="balances-freshness" />
    </div>
    <table class="fresh-dim">
      <thead>
        <tr>
          <th>Asset</th>
          <th class="num" data-column="on-account" title="On the trading account itself, in no book">On account</th>
          <th class="num" data-column="in-books" title="Unlocked in books, not yet settled to the account (Settle moves it)">In books</th>
          <th class="num" data-column="available" title="On account + in books: what orders can use">Available</th>
          <th class="num" data-column="locked" title="Locked in open orders">Locked in orders</th>
          <th class="num" data-column="total" title="Available + locked in orders">Total</th>
          <th>Per book (locked / unlocked)</th>
        </tr>
      </thead>
      <tbody>
        <For each={terminal.store.state.balances}>
          {(balance) => (
            <tr data-testid="balance-row" data-asset-id={balance.assetId}>
              <td>
                <b title={`${balance.symbol} ${balance.assetId}`}>{names().get(balance.assetId) ?? balance.symbol}</b>
              </td>
              <td class="num" data-column="on-account" data-raw={balance.onAccount.toString()}>{cells().get(balance.assetId)?.onAccount}</td>
              <td class="num" data-column="in-books" data-raw={(balance.unlocked - balance.onAccount).toString()}>{cells().get(balance.assetId)?.inBooks}</td>
              <td class="num" data-column="available" data-raw={balance.unlocked.toString()}>{cells().get(balance.assetId)?.available}</td>
              <td class="num" data-column="locked" data-raw={balance.locked.toString()}>{cells().get(balance.assetId)?.locked}</td>
              <td class="num" data-column="total" data-raw={(balance.unlocked + balance.locked).toString()}>{cells().get(balance.assetId)?.total}</td>
              <td>
                <For each={balance.books}>
                  {(book) => {
                    const market = () => terminal.market(book.marketId);
                    return (
                      <div class="line" data-testid="balance-book" data-market-id={book.marketId} data-turbo={book.turbo ? 'true' : 'false'} style={{ display: 'flex', gap: '8px', 'align-items': 'center' }}>
                        <span title={book.marketId}>{market() ? marketName(market()!, markets()) : 'unknown market'}</span>
                        <Show when={book.turbo}>
                          <span class="margin-badge" title="The market's Turbo book">Turbo</span>
                        </Show>
                        <span class="mono">
                          {bookAmount(balance, book.locked)} / {bookAmount(balance, book.unlocked)}
                        </span>
                        <button type="button" data-testid="settle-book" disabled={book.unlocked === 0n || settling() === bookKey(book)} onClick={() => void settle(book)}>
                          {settling() === bookKey(book) ? 'Settling…' : 'Settle'}
                        </button>
                      </div>
                    );
                  }}
                </For>
              </td>
            </tr>
          )}
        </For>
        <Show when={terminal.store.state.balances.length === 0}>
          <tr>
            <td colSpan={7} class="empty">{terminal.store.state.problems.balances ?? 'No balances yet'}</td>
          </tr>
        </Show>
      </tbody>
    </table>
    </div>
  );
};
