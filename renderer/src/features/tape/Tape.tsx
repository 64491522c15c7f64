// Time and sales: the market's trades, newest first, drawn at most once per frame; filtered by a
// minimum size, the trades of one taker order merged on request, large lots highlighted.
import { createEffect, createMemo, createSignal, For, on, onCleanup, Show, type Component } from 'solid-js';
import { parseUnits } from '../../../../shared/encoding/units';
import type { TradesFrame, TradeView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { priceCell, quantityCell } from '../../format/columns';
import { formatClock } from '../../format/time';
import { retryWhileNotReady, type RetryHandle } from '../../lib/retry';
import { createFreshness, FreshnessBadge, marketSource } from '../../lib/freshness';
import { createRowWindow } from '../../lib/row-window';
import { RowSpacer } from '../../components/RowSpacer';
import { keepSameRows, tapeRows, type TapeRow } from './tape-model';

const KEEP = 200;
/**
 * Rows drawn beyond each edge of the tape's view. A trade arriving shifts every row under it, so
 * each row drawn is laid out and painted again on every drawn frame: with all 200 drawn, the main
 * window of the four-window desk spent 0.9 s of paint in 10 s on them (docs/reliability.md).
 */
const TAPE_OVERSCAN_ROWS = 20;
let tapeSerial = 0;

export const Tape: Component<{ market: Market; turbo: boolean }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  // A plain array, replaced per frame: the rows keep their identity by key (keepSameRows). As a
  // store reconciled by trade id, each frame unwrapped and diffed 200 trades and the rows read them
  // through proxies: the main window's largest script in the four-window desk's profile.
  const [trades, setTrades] = createSignal<readonly TradeView[]>([]);
  const [problem, setProblem] = createSignal<string | null>(null);
  const key = `tape-${++tapeSerial}`;
  let pending: TradeView[] = [];
  let subscriptionId: string | null = null;
  let retry: RetryHandle | null = null;

  // Frames that arrive before subscribeTrades's reply names their subscription (bounded).
  const early: TradesFrame[] = [];
  const accept = (frame: TradesFrame) => {
    pending = frame.reset ? [...frame.trades] : [...frame.trades, ...pending];
    const reset = frame.reset;
    terminal.frames.schedule(key, () => {
      const next = reset ? pending : [...pending, ...trades()];
      pending = [];
      setTrades(next.slice(0, KEEP));
    });
  };
  const stop = bridge.onTrades((frame) => {
    if (frame.subscriptionId === subscriptionId) accept(frame);
    else if (subscriptionId === null && early.length < 16) early.push(frame);
  });

  createEffect(
    on(
      () => `${props.market.market_id}|${props.turbo}`,
      () => {
        retry?.stop();
        if (subscriptionId) void bridge.unsubscribe({ subscriptionId });
        subscriptionId = null;
        early.length = 0;
        setTrades([]);
        retry = retryWhileNotReady(
          () => bridge.subscribeTrades({ marketId: props.market.market_id, ...(props.turbo ? { turbo: true } : {}) }),
          (result) => {
            setProblem(result.ok ? null : result.message);
            if (!result.ok) return;
            subscriptionId = result.value.subscriptionId;
            for (const frame of early.splice(0)) if (frame.subscriptionId === subscriptionId) accept(frame);
          },
        );
      },
    ),
  );
  onCleanup(() => {
    stop();
    retry?.stop();
    terminal.frames.cancel(key);
    if (subscriptionId) void bridge.unsubscribe({ subscriptionId });
  });

  const freshness = createFreshness(terminal.freshness, (view) => [marketSource(view, props.market.market_id, props.turbo, 'trades')]);
  const [minimumText, setMinimumText] = createSignal('');
  const [aggregate, setAggregate] = createSignal(false);
  const minimum = createMemo(() => {
    const text = minimumText().trim();
    if (text === '') return null;
    const parsed = parseUnits(text, props.market.base.decimals, 'Minimum size');
    return parsed.ok ? parsed.value : undefined;
  });
  const largeLot = () => terminal.store.state.settings?.largeTradeSize[props.market.market_id] ?? null;
  const rows = createMemo<TapeRow[]>((previous) => keepSameRows(previous, tapeRows(trades(), { aggregate: aggregate(), minimum: minimum() ?? null, largeLot: largeLot() })), []);
  // Only the rows near the view are drawn (lib/row-window.ts); the newest are at the top.
  const shown = createRowWindow(() => rows().length, TAPE_OVERSCAN_ROWS);
  const drawn = createMemo(() => {
    const { start, end } = shown.range();
    return rows().slice(start, end);
  });
  return (
    <div class="tape-wrap" data-testid="tape" data-freshness={freshness.state()}>
    <div class="freshness-line tape-filters">
      <label class="field-inline" title={`Show only trades (or merged taker orders) of at least this size, ${props.market.base.symbol}`}>
        <span>Min</span>
        <input data-testid="tape-min-size" class="num" classList={{ invalid: minimum() === undefined }} inputmode="decimal" placeholder="all" value={minimumText()} onInput={(event) => setMinimumText(event.currentTarget.value)} />
      </label>
      <label class="field-inline" title="Merge the trades of one taker order into one row: trades of one time and taker side, next to each other, walking the book one way (the public trades carry no order id)">
        <input type="checkbox" data-testid="tape-aggregate" checked={aggregate()} onChange={(event) => setAggregate(event.currentTarget.checked)} />
        <span>By order</span>
      </label>
      <div class="spacer" />
      <FreshnessBadge mark={freshness} testId="tape-freshness" />
    </div>
    <table class="tape fresh-dim">
      <thead>
        <tr>
          <th>Time</th>
          <th class="num">Price</th>
          <th class="num">Size ({props.market.base.symbol})</th>
          <th class="num" title="Trades merged into the row (By order)" />
        </tr>
      </thead>
      <tbody ref={shown.body} data-rows={rows().length} data-first-row={shown.range().start}>
        <RowSpacer height={shown.above()} columns={4} />
        <For each={drawn()}>
          {(row) => (
            <tr
              ref={shown.row}
              data-testid="tape-row"
              data-trade-id={row.key}
              data-side={row.side}
              data-count={row.count}
              data-large={row.large ? 'true' : undefined}
              classList={{ 'large-lot': row.large }}
              title={row.count > 1 ? `${row.count} trades of one taker order, from ${priceCell(props.market, row.firstPrice)} to ${priceCell(props.market, row.price)}` : undefined}
            >
              <td class="muted">{formatClock(row.time)}</td>
              <td class="num" data-column="price" classList={{ buy: row.side === 'Buy', sell: row.side === 'Sell' }}>
                {priceCell(props.market, row.price)}
              </td>
              <td class="num" data-column="quantity">
                {quantityCell(props.market, row.quantity)}
              </td>
              <td class="num" classList={{ 'tape-count': true, muted: true }} data-column="count">
                {row.count > 1 ? `×${row.count}` : ''}
              </td>
            </tr>
          )}
        </For>
        <RowSpacer height={shown.below()} columns={4} />
        <Show when={rows().length === 0}>
          <tr>
            <td colSpan={4} class="empty">{problem() ?? (trades().length === 0 ? 'No trades yet' : 'No trade at or above the minimum size')}</td>
          </tr>
        </Show>
      </tbody>
    </table>
    </div>
  );
};
