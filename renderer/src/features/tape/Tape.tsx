// Time and sales: the market's trades, newest first, drawn at most once per frame.
import { createEffect, createSignal, For, on, onCleanup, Show, type Component } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import type { TradesFrame, TradeView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { priceCell, quantityCell } from '../../format/columns';
import { formatClock } from '../../format/time';
import { retryWhileNotReady, type RetryHandle } from '../../lib/retry';
import { createFreshness, FreshnessBadge, marketSource } from '../../lib/freshness';

const KEEP = 200;
let tapeSerial = 0;

export const Tape: Component<{ market: Market; turbo: boolean }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [trades, setTrades] = createStore<TradeView[]>([]);
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
      const next = reset ? pending : [...pending, ...trades];
      pending = [];
      setTrades(reconcile(next.slice(0, KEEP), { key: 'tradeId' }));
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
  return (
    <div class="tape-wrap" data-testid="tape" data-freshness={freshness.state()}>
    <div class="freshness-line">
      <FreshnessBadge mark={freshness} testId="tape-freshness" />
    </div>
    <table class="tape fresh-dim">
      <thead>
        <tr>
          <th>Time</th>
          <th class="num">Price</th>
          <th class="num">Size ({props.market.base.symbol})</th>
        </tr>
      </thead>
      <tbody>
        <For each={trades}>
          {(trade) => (
            <tr data-testid="tape-row" data-trade-id={trade.tradeId} data-side={trade.side}>
              <td class="muted">{formatClock(trade.time)}</td>
              <td class="num" data-column="price" classList={{ buy: trade.side === 'Buy', sell: trade.side === 'Sell' }}>{priceCell(props.market, trade.price)}</td>
              <td class="num" data-column="quantity">{quantityCell(props.market, trade.quantity)}</td>
            </tr>
          )}
        </For>
        <Show when={trades.length === 0}>
          <tr>
            <td colSpan={3} class="empty">{problem() ?? 'No trades yet'}</td>
          </tr>
        </Show>
      </tbody>
    </table>
    </div>
  );
};
