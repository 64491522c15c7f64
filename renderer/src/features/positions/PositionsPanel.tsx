// Positions of every book (Canonical and Turbo) and every signing account (the trading account, a
// selected Turbo Account), computed in main from the fills: size, average entry, the exit price it
// is marked at, unrealized and realized P&L with fees in quote and in %, the fees, a Turbo
// Account's liquidation and freeze prices, and flatten (one row, or all). Read again on every
// order or fill push and every few seconds for the marks; the head says how old the figures are
// and marks them stale when a read fails or lags.
import { createEffect, createMemo, createSignal, For, onCleanup, onMount, Show, type Component } from 'solid-js';
import type { PositionsView, PositionView, TriggerPriceView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import type { ClosePercent } from '../../../../shared/positions/close-plan';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { formatClock } from '../../format/time';
import { formatFillFee } from '../../format/market-format';
import { labelText, marketLabel } from '../markets/market-label';
import { accountIdText, accountKindText, alignDecimals, bookText, bpsText, entryText, markSourceTitle, percentText, pnlText, pnlUnitText, priceText, remainderAdvice, sideText, signedSizeText, sizeText, tickText } from './positions-model';
import { MarkSourceChooser, PnlUnitChooser } from './PnlDisplayChooser';
import type { PositionFigures } from './live-figures';
import { PositionBracketControls } from './PositionBracketControls';
import { createPositionBrackets } from '../triggers';
import './positions.css';

const STALE_AFTER_MS = 10_000;

interface Row {
  readonly key: string;
  readonly market: Market;
  readonly position: PositionView;
}

function triggerText(market: Market, trigger: TriggerPriceView | null): string {
  if (trigger === null) return '—';
  if (trigger.now) return 'now';
  return trigger.price === null ? 'none' : priceText(market, trigger.price);
}

export const PositionsPanel: Component = () => {
  const terminal = useTerminal();
  const bridge = useBridge();
  // The window's one positions source (the ladder's foot and the chart's line show the same read).
  const view = (): PositionsView | null => terminal.positions.view();
  const error = (): string | null => terminal.positions.error();
  const [now, setNow] = createSignal(Date.now());
  const [showFlat, setShowFlat] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const read = () => void terminal.positions.refresh();
  const brackets = createPositionBrackets(bridge);
  const bracketOf = (position: PositionView) => brackets().find((bracket) => bracket.marketId === position.marketId && bracket.turbo === position.turbo && position.accountKind === 'trading');

  onMount(() => {
    const stop = terminal.positions.use();
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    onCleanup(() => {
      clearInterval(timer);
      stop();
    });
  });

  const markets = () => terminal.store.state.markets?.markets ?? [];
  // Each position's mark and unrealized P&L from the window's one mark (the ladder's foot and the
  // chart's line show the same figure).
  const figuresOf = (row: Row): PositionFigures => terminal.marks.figures(row.position);
  const rows = createMemo<Row[]>(() => {
    const current = view();
    if (!current) return [];
    const found: Row[] = [];
    for (const position of current.positions) {
      const market = terminal.market(position.marketId);
      // A remainder no order can close stays listed (marked, with what can be done); "closed" adds the flat books.
      if (!market || (!showFlat() && position.size === 0n)) continue;
      found.push({ key: `${position.account}:${position.marketId}:${position.turbo}`, market, position });
    }
    return found;
  });
  const rowsByKey = createMemo(() => new Map(rows().map((row) => [row.key, row])));
  // Keys, not rows, drive the table: the same books keep their DOM (and what the trader typed in
  // their fields) while the figures update; a list of new row objects would rebuild every row.
  const rowKeys = createMemo(() => rows().map((row) => row.key), undefined, { equals: (a, b) => a.length === b.length && a.every((key, index) => key === b[index]) });
  const anyTurboAccount = () => rows().some((row) => row.position.accountKind === 'turbo-account');
  const open = () => rows().filter((row) => row.position.size !== 0n && row.position.close.refusal === null);
  const remainders = () => rows().filter((row) => row.position.size !== 0n && row.position.notClosable !== null);
  const age = () => {
    const current = view();
    return current ? Math.max(0, now() - current.asOf) : null;
  };
  const freshness = () => {
    if (view() === null) return 'resyncing';
    if (terminal.store.state.connection?.rest === 'down') return 'disconnected';
    return error() !== null || (age() ?? 0) > STALE_AFTER_MS || (view()?.problems.length ?? 0) > 0 ? 'stale' : 'live';
  };

  // Columns aligned on the decimal point across rows (each market's own decimals).
  const column = (text: (row: Row) => string) => createMemo(() => alignDecimals(rows().map(text)));
  const sizes = column((row) => signedSizeText(row.market, row.position.size));
  const entries = column((row) => (row.position.averageEntry === null ? '' : entryText(row.market, row.position.averageEntry)));
  const marks = column((row) => {
    const mark = figuresOf(row).mark;
    return mark === null ? '' : priceText(row.market, mark);
  });
  const unrealized = column((row) => {
    const value = figuresOf(row).unrealized;
    return value === null ? '' : pnlText(row.market, value);
  });
  const realized = column((row) => pnlText(row.market, row.position.realized));
  const liquidations = column((row) => triggerText(row.market, row.position.liquidation));
  const freezes = column((row) => triggerText(row.market, row.position.freeze));

  const flatten = async (targets: readonly Row[]) => {
    setBusy(true);
    await terminal.trading.flatten(targets.map((row) => ({ market: row.market, position: row.position })));
    setBusy(false);
    read();
  };

  const closePart = async (row: Row, percent: ClosePercent) => {
    setBusy(true);
    await terminal.trading.closePart(row.market, row.position, percent);
    setBusy(false);
    read();
  };

  const closeByLimit = async (row: Row, percent: ClosePercent) => {
    setBusy(true);
    await terminal.trading.closeByLimit(row.market, row.position, percent);
    setBusy(false);
    read();
  };

  // Dust no order can close: settling the book moves it to the trading account's balance (one signed request, no order).
  const settle = async (row: Row) => {
    setBusy(true);
    const result = await bridge.settleBalance({ marketId: row.market.market_id, ...(row.position.turbo ? { turbo: true } : {}) });
    setBusy(false);
    const name = `${labelText(marketLabel(row.market, markets()))} ${bookText(row.position.turbo)}`;
    terminal.store.notify(result.ok ? 'info' : 'error', result.ok ? `Settled ${name}: the remainder and the book's unlocked funds moved to your trading account` : `Settle ${name} refused (${result.code}): ${result.message}`);
    read();
  };

  const reverse = async (row: Row) => {
    setBusy(true);
    await terminal.trading.reverse(row.market, row.position);
    setBusy(false);
    read();
  };

  const tone = (value: bigint | null) => ({ gain: value !== null && value > 0n, loss: value !== null && value < 0n });

  return (
    <div class="positions" data-testid="positions" data-freshness={freshness()}>
      <div class="panel-head" style={{ 'min-height': '24px' }}>
        <span class="muted" data-testid="positions-count">
          {open().length} open
          <Show when={remainders().length > 0}>{` · ${remainders().length} remainder${remainders().length === 1 ? '' : 's'}`}</Show>
        </span>
        <span class="muted freshness-mark" data-testid="positions-age" classList={{ stale: freshness() !== 'live' }}>
          {view() === null ? 'reading fills…' : freshness() === 'live' ? `as of ${formatClock(view()!.asOf)}` : `${freshness()} ${Math.round((age() ?? 0) / 1000)} s`}
        </span>
        <div class="spacer" />
        <label class="muted">
          <input type="checkbox" data-testid="positions-show-flat" checked={showFlat()} onChange={(event) => setShowFlat(event.currentTarget.checked)} /> closed
        </label>
        <button type="button" class="danger" data-testid="flatten-all" disabled={busy() || open().length === 0} onClick={() => void flatten(open())}>
          Flatten all ({open().length})
        </button>
      </div>
      <div class="positions-scroll" data-testid="positions-scroll">
        <table class="positions-table" classList={{ dimmed: freshness() !== 'live' }}>
          <thead>
            <tr>
              <th class="position-name">Market · book · account</th>
              <th class="num">Size</th>
              <th class="num">Avg entry</th>
              <th class="num" title="The price each position is marked at, named under it: its market's choice (the exit side, best bid for a long and best ask for a short; the last trade; or the mid), the same in every panel">Mark</th>
              <th class="num" title="Fees included">Unrealized P&amp;L</th>
              <th class="num" title="Fees included">Realized P&amp;L</th>
              <Show when={anyTurboAccount()}>
                <th class="num" title="Turbo Accounts: where the account becomes liquidatable (V ≤ threshold) / frozen (risk-increasing orders refused)">Liq. / freeze</th>
              </Show>
              <th class="num" title="Fees paid: buys in base, sales in quote (already inside the entry and the P&L)">Fees</th>
            </tr>
          </thead>
          <tbody>
            <For each={rowKeys()}>
              {(key, index) => {
                // The row by its book: a new position view updates it in place (the fields typed stay).
                const row = (): Row => rowsByKey().get(key) ?? lastRow;
                let lastRow: Row = rowsByKey().get(key)!;
                createEffect(() => {
                  const found = rowsByKey().get(key);
                  if (found) lastRow = found;
                });
                const position = () => row().position;
                const market = row().market;
                const quote = market.quote.symbol;
                const figure = () => figuresOf(row());
                return (
                  <>
                  <tr
                    data-testid="position-row"
                    data-market-id={position().marketId}
                    data-turbo={position().turbo ? 'true' : 'false'}
                    data-account={position().account}
                    data-size={position().size.toString()}
                    // The raw figures behind the money columns (the trader-session oracle holds them to the exchange's fills).
                    data-entry={position().averageEntry?.toString() ?? ''}
                    data-mark={figure().mark?.toString() ?? ''}
                    data-mark-side={figure().markSide ?? ''}
                    data-mark-source={figure().source}
                    data-mark-choice={figure().display.mark}
                    data-pnl-unit={figure().display.unit}
                    data-unrealized-ticks={figure().unrealizedTickTenths?.toString() ?? ''}
                    data-unrealized={figure().unrealized?.toString() ?? ''}
                    data-unrealized-bps={figure().unrealizedBps?.toString() ?? ''}
                    data-stale={figure().stale ?? ''}
                    data-realized={position().realized.toString()}
                    data-realized-bps={position().realizedBps?.toString() ?? ''}
                    data-fees-base={position().feesBase.toString()}
                    data-fees-quote={position().feesQuote.toString()}
                    // What a flatten sends now and leaves (main's close plan, the same the confirmation states).
                    data-close-quantity={position().close.quantity.toString()}
                    data-close-remainder={position().close.remainder.toString()}
                    data-remainder={position().notClosable !== null ? 'true' : 'false'}
                    classList={{ dust: position().notClosable !== null }}
                  >
                    <td class="position-name" title={position().account}>
                      <div>
                        <b>{labelText(marketLabel(market, markets()))}</b> <span class="book-badge" classList={{ turbo: position().turbo }}>{bookText(position().turbo)}</span>
                      </div>
                      <div class="muted small">{`${accountKindText(position())} `}</div>
                      <div class="position-id-line">
                        <span class="muted small mono">{accountIdText(position())}</span>{' '}
                        <button
                          type="button"
                          class="danger"
                          data-testid="flatten-position"
                          disabled={busy() || position().size === 0n || position().close.refusal !== null}
                          title={position().close.refusal === null ? 'Close with a bounded market order' : `No order is sent: ${position().close.refusal}`}
                          onClick={() => void flatten([row()])}
                        >
                          Flatten
                        </button>
                      </div>
                      <div class="position-tools">
                        <For each={position().partials}>
                          {(plan) => (
                            <button
                              type="button"
                              data-testid={`close-part-${plan.percent}`}
                              disabled={busy() || position().size === 0n || plan.refusal !== null}
                              title={plan.refusal === null ? `Close ${plan.percent} %: ${plan.side ?? ''} ${sizeText(market, plan.quantity)} ${market.base.symbol}${plan.dust === null ? '' : ` (${plan.dust})`}` : `No order is sent: ${plan.refusal}`}
                              onClick={() => void closePart(row(), plan.percent)}
                            >
                              {plan.percent}%
                            </button>
                          )}
                        </For>
                        <button
                          type="button"
                          data-testid="reverse-position"
                          disabled={busy() || position().size === 0n || position().reverse.refusal !== null}
                          title={position().reverse.refusal === null ? 'Close and open the opposite position of the same size, in one signed batch' : `No order is sent: ${position().reverse.refusal}`}
                          onClick={() => void reverse(row())}
                        >
                          Reverse
                        </button>
                      </div>
                      <div class="position-tools" title="Close by limit: a post-only order resting at the best price of the closing side (the best ask of a long, the best bid of a short)">
                        <span class="muted small">Limit</span>
                        <For each={position().limitCloses}>
                          {(plan) => (
                            <button
                              type="button"
                              data-testid={`close-limit-${plan.percent}`}
                              disabled={busy() || position().size === 0n || plan.refusal !== null}
                              title={
                                plan.refusal === null
                                  ? `Close ${plan.percent} % by limit: ${plan.side ?? ''} ${sizeText(market, plan.quantity)} ${market.base.symbol} post-only at ${position().limitTouch === null ? '' : priceText(market, position().limitTouch!)}${plan.dust === null ? '' : ` (${plan.dust})`}`
                                  : `No order is sent: ${plan.refusal}`
                              }
                              onClick={() => void closeByLimit(row(), plan.percent)}
                            >
                              {plan.percent}%
                            </button>
                          )}
                        </For>
                      </div>
                      <PositionBracketControls market={market} position={position()} bracket={bracketOf(position())} />
                    </td>
                    <td class="num" classList={{ buy: position().size > 0n, sell: position().size < 0n }} data-testid="position-size" title={`${sideText(position().size)} ${position().size} raw ${market.base.symbol}`}>
                      {sizes()[index()]}
                      <div class="muted small">{market.base.symbol}</div>
                      <Show when={position().notClosable !== null}>
                        <div class="remainder-mark small" data-testid="position-remainder" title={`${position().notClosable ?? ''}. ${remainderAdvice(market, position())}`}>
                          remainder
                        </div>
                      </Show>
                    </td>
                    <td class="num" title={position().averageEntry === null ? '' : `${position().averageEntry} raw ${quote}`}>
                      <span data-testid="position-entry">{entries()[index()]}</span>
                    </td>
                    <td class="num" classList={{ 'fresh-dim': figure().stale !== null }} title={markSourceTitle(figure())}>
                      <span data-testid="position-mark">{marks()[index()]}</span>
                      <div class="muted small" data-testid="position-mark-name">
                        {figure().markSide ?? ''}
                      </div>
                      <MarkSourceChooser marketId={position().marketId} testId="position-mark-source" />
                    </td>
                    <td class="num" classList={{ ...tone(figure().unrealized), 'fresh-dim': figure().stale !== null }} title={figure().unrealized === null ? '' : `${figure().unrealized} raw ${quote}, ${percentText(figure().unrealizedBps)}, ${bpsText(figure().unrealizedBps)}, ${tickText(figure().unrealizedTickTenths)}, ${markSourceTitle(figure())}${figure().stale === null ? '' : ` (stale: ${figure().stale})`}`}>
                      <span data-testid="position-unrealized">{unrealized()[index()]}</span>
                      <div class="small" data-testid="position-unrealized-unit">
                        {pnlUnitText(figure())}
                      </div>
                      <PnlUnitChooser marketId={position().marketId} testId="position-pnl-unit" />
                      <Show when={figure().stale}>
                        {(why) => (
                          <div class="freshness-badge" data-testid="position-unrealized-stale" title={why()}>
                            stale
                          </div>
                        )}
                      </Show>
                    </td>
                    <td class="num" classList={tone(position().realized)} title={`${position().realized} raw ${quote}`}>
                      <span data-testid="position-realized">{realized()[index()]}</span>
                      <div class="small" data-testid="position-realized-percent">{percentText(position().realizedBps)}</div>
                    </td>
                    <Show when={anyTurboAccount()}>
                    <td class="num">
                      <span data-testid="position-liquidation">{liquidations()[index()]}</span>
                      <div class="muted small" data-testid="position-freeze">
                        {freezes()[index()]}
                      </div>
                    </td>
                    </Show>
                    <td class="num muted small" data-testid="position-fees">
                      <Show when={position().feesBase > 0n}>
                        <div>{formatFillFee(market, 'Buy', position().feesBase)}</div>
                      </Show>
                      <Show when={position().feesQuote > 0n}>
                        <div>{formatFillFee(market, 'Sell', position().feesQuote)}</div>
                      </Show>
                    </td>
                  </tr>
                  <Show when={position().notClosable !== null}>
                    <tr class="remainder-note" data-testid="position-remainder-note" data-market-id={position().marketId} data-turbo={position().turbo ? 'true' : 'false'}>
                      <td colSpan={9}>
                        <b>Remainder</b> {`${signedSizeText(market, position().size)} ${market.base.symbol}: ${position().notClosable ?? ''}. ${remainderAdvice(market, position())}`}
                        <Show when={position().accountKind === 'trading'}>
                          {' '}
                          <button type="button" data-testid="position-remainder-settle" disabled={busy()} title="Move what this book holds of your trading account (unlocked funds, the remainder among them) to the account, where it can be withdrawn" onClick={() => void settle(row())}>
                            Settle
                          </button>
                        </Show>
                      </td>
                    </tr>
                  </Show>
                  </>
                );
              }}
            </For>
            <Show when={rows().length === 0}>
              <tr>
                <td colSpan={9} class="empty">
                  {error() ?? (view() === null ? 'Reading the fills…' : 'No open positions')}
                </td>
              </tr>
            </Show>
          </tbody>
        </table>
      </div>
      <Show when={(view()?.problems.length ?? 0) > 0}>
        <ul class="positions-problems" data-testid="positions-problems">
          <For each={view()!.problems}>{(problem) => <li class="muted">{problem}</li>}</For>
        </ul>
      </Show>
    </div>
  );
};
