// Records: the daily summary of the trading account and of the Turbo Account main follows, per UTC
// day, account, market and book (trades, volume, fees by asset, realized P&L, all computed by main
// from its one fill source), with the controls of the
// CSV exports. The page names only what to export; main chooses and writes the file and answers
// with its full path (docs/records.md), shown here.
import { createEffect, createSignal, For, on, Show, type Component } from 'solid-js';
import type { RecordsDayView, RecordsExportKind, RecordsView } from '../../../../shared/ipc/views';
import { formatUnits } from '../../format/units';
import { accountIdText, pnlText, sizeText } from '../positions/positions-model';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { marketName } from '../markets/market-label';

const EXPORTS: readonly { kind: RecordsExportKind; label: string; title: string }[] = [
  { kind: 'fills', label: 'Export fills', title: 'Every fill with its fee and the P&L it realized (CSV)' },
  { kind: 'orders', label: 'Export orders', title: 'Every order placed in the range (CSV)' },
  { kind: 'daily', label: 'Export daily P&L', title: 'This table: realized P&L, fees and volume per day (CSV)' },
];

export const Records: Component = () => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const markets = () => terminal.store.state.markets?.markets ?? [];
  const [marketId, setMarketId] = createSignal('');
  const [from, setFrom] = createSignal('');
  const [to, setTo] = createSignal('');
  const [view, setView] = createSignal<RecordsView | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [exported, setExported] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal<RecordsExportKind | null>(null);

  const range = () => ({ ...(marketId() === '' ? {} : { marketId: marketId() }), ...(from() === '' ? {} : { from: from() }), ...(to() === '' ? {} : { to: to() }) });
  const load = async () => {
    const answer = await bridge.getRecords(range());
    if (answer.ok) {
      setView(answer.value);
      setProblem(null);
    } else setProblem(`${answer.message} (${answer.code})`);
  };
  // Again on every change of the controls and on every fill an account gets (the trading account's
  // or the Turbo Account's: main's recent fills hold both). The newest fill's key, not the count:
  // the list main keeps is capped, so past the cap a new fill leaves the count as it was.
  createEffect(on([marketId, from, to, () => terminal.store.state.fills[0]?.key], () => void load()));

  const exportKind = async (kind: RecordsExportKind) => {
    setBusy(kind);
    const answer = await bridge.exportRecords({ kind, ...range() });
    setBusy(null);
    if (!answer.ok) {
      setExported(null);
      terminal.store.notify('error', `Export refused (${answer.code}): ${answer.message}`);
      return;
    }
    const text = answer.value.path === null ? 'Export cancelled: nothing was written' : `Wrote ${answer.value.rows} ${answer.value.rows === 1 ? 'row' : 'rows'} to ${answer.value.path}`;
    setExported(text);
    terminal.store.notify('info', text);
  };

  const amount = (raw: bigint, decimals: number, symbol: string) => `${formatUnits(raw, decimals)} ${symbol}`;
  // Realized P&L and sizes as Positions shows them (the market's meaningful decimals, P&L cut
  // toward zero and signed): one figure, one precision, whichever panel shows it. The raw-unit
  // figure is in the tooltip and in the export.
  const realizedText = (day: RecordsDayView) => {
    const market = terminal.market(day.marketId);
    return market ? `${pnlText(market, day.realized)} ${day.quoteSymbol}` : amount(day.realized, day.quoteDecimals, day.quoteSymbol);
  };
  const volumeText = (day: RecordsDayView) => {
    const market = terminal.market(day.marketId);
    return market ? `${sizeText(market, day.volumeBase)} ${day.baseSymbol}` : amount(day.volumeBase, day.baseDecimals, day.baseSymbol);
  };
  const notionalText = (day: RecordsDayView) => {
    const market = terminal.market(day.marketId);
    if (!market) return amount(day.volumeQuote, day.quoteDecimals, day.quoteSymbol);
    const digits = Math.max(0, Math.min(market.quote.decimals, market.quote.max_precision));
    return `${formatUnits(day.volumeQuote, day.quoteDecimals, digits, digits)} ${day.quoteSymbol}`;
  };
  const accountOf = (day: RecordsDayView) => (day.accountKind === 'trading' ? 'Trading account' : `Turbo Account ${accountIdText(day)}`);
  const pairOf = (day: RecordsDayView) => {
    const market = terminal.market(day.marketId);
    return market ? marketName(market, markets()) : day.pair;
  };

  return (
    <div data-testid="records">
      <div class="records-controls" style={{ display: 'flex', gap: '8px', 'align-items': 'center', 'flex-wrap': 'wrap', padding: '4px 0' }}>
        <label>
          Market{' '}
          <select data-testid="records-market" value={marketId()} onChange={(event) => setMarketId(event.currentTarget.value)}>
            <option value="">All markets</option>
            <For each={markets()}>{(market) => <option value={market.market_id}>{marketName(market, markets())}</option>}</For>
          </select>
        </label>
        <label title="First UTC day included">
          From <input type="date" data-testid="records-from" value={from()} onChange={(event) => setFrom(event.currentTarget.value)} />
        </label>
        <label title="Last UTC day included">
          To <input type="date" data-testid="records-to" value={to()} onChange={(event) => setTo(event.currentTarget.value)} />
        </label>
        <For each={EXPORTS}>
          {(entry) => (
            <button type="button" data-testid={`records-export-${entry.kind}`} title={entry.title} disabled={busy() !== null} onClick={() => void exportKind(entry.kind)}>
              {entry.label}
            </button>
          )}
        </For>
      </div>
      <Show when={exported()}>
        <div class="muted mono" data-testid="records-export-result">
          {exported()}
        </div>
      </Show>
      <Show when={problem() ?? (view()?.problems.length ? view()!.problems.join('; ') : null)}>
        <div class="error" data-testid="records-problem">
          {problem() ?? view()!.problems.join('; ')}
        </div>
      </Show>
      {/* Wider than a narrow blotter: it scrolls sideways rather than cutting the last columns. */}
      <div style={{ 'overflow-x': 'auto' }}>
      <table>
        <thead>
          <tr>
            <th title="UTC day">Day</th>
            <th>Market</th>
            <th>Book</th>
            <th title="Whose fills: the trading account, or the Turbo Account on its Turbo books">Account</th>
            <th class="num">Trades</th>
            <th class="num">Volume</th>
            <th class="num">Notional</th>
            <th class="num" title="What the day's fills realized by average cost, fees included">Realized P&L</th>
            <th class="num" title="Paid by buys, in the base asset">Fees (base)</th>
            <th class="num" title="Paid by sales, in the quote asset">Fees (quote)</th>
          </tr>
        </thead>
        <tbody>
          <For each={view()?.days ?? []}>
            {(day) => (
              <tr data-testid="records-day" data-day={day.day} data-market-id={day.marketId} data-turbo={day.turbo ? 'true' : 'false'} data-account={day.account} data-account-kind={day.accountKind} data-realized={day.realized.toString()} data-trades={day.trades}>
                <td class="mono">{day.day}</td>
                <td title={day.marketId}>{pairOf(day)}</td>
                <td>{day.turbo ? 'Turbo' : 'Canonical'}</td>
                <td title={day.account}>{accountOf(day)}</td>
                <td class="num">{day.trades}</td>
                <td class="num">{volumeText(day)}</td>
                <td class="num" title={`${amount(day.volumeQuote, day.quoteDecimals, day.quoteSymbol)} exactly`}>
                  {notionalText(day)}
                </td>
                <td class="num" classList={{ gain: day.realized > 0n, loss: day.realized < 0n }} title={`${amount(day.realized, day.quoteDecimals, day.quoteSymbol)} exactly`}>
                  {realizedText(day)}
                </td>
                <td class="num" data-raw={day.feesBase.toString()}>{amount(day.feesBase, day.baseDecimals, day.baseSymbol)}</td>
                <td class="num" data-raw={day.feesQuote.toString()}>{amount(day.feesQuote, day.quoteDecimals, day.quoteSymbol)}</td>
              </tr>
            )}
          </For>
          <Show when={view() !== null && view()!.days.length === 0}>
            <tr>
              <td colSpan={10} class="empty">No fills in this range</td>
            </tr>
          </Show>
        </tbody>
      </table>
      </div>
    </div>
  );
};
