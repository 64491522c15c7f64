// The Positions row's TP/SL: a take-profit and/or a stop-loss for the trading account's position on
// a book, typed as prices or as offsets from the entry (ticks or %), confirmed once as orders are;
// main then keeps the pair sized to the position (main/services/protect/position-brackets.ts) and
// this shows it, with a way to stop it (the legs cancelled or left where they are).
import { createSignal, Show, type Component } from 'solid-js';
import type { PositionBracketView, PositionView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { type Failure, type Result } from '../../../../shared/result';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { bracketRequest, type OffsetUnit } from './position-bracket-model';

export function bracketText(market: Market, bracket: PositionBracketView): string {
  const legs = [bracket.takeProfit === null ? null : `TP ${formatPrice(market, bracket.takeProfit)}`, bracket.stopLoss === null ? null : `SL ${formatPrice(market, bracket.stopLoss)}`].filter((part) => part !== null);
  return `${legs.join(' · ')} — ${bracket.placed === 0n ? 'not placed' : `${formatQuantity(market, bracket.placed)} ${market.base.symbol}`}`;
}

export const PositionBracketControls: Component<{ market: Market; position: PositionView; bracket: PositionBracketView | undefined }> = (props) => {
  const bridge = useBridge();
  const terminal = useTerminal();
  const [takeProfit, setTakeProfit] = createSignal('');
  const [stopLoss, setStopLoss] = createSignal('');
  const [unit, setUnit] = createSignal<OffsetUnit>('price');
  const [busy, setBusy] = createSignal(false);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  // The fields open on demand, so the row keeps its height in a small blotter.
  const [editing, setEditing] = createSignal(false);
  const long = () => props.position.size > 0n;

  const arm = async (): Promise<void> => {
    setFailure(null);
    const request = bracketRequest(props.market, { takeProfit: takeProfit(), stopLoss: stopLoss(), unit: unit() }, props.position.averageEntry, long());
    if (!request.ok) {
      setFailure(request);
      return;
    }
    // Confirmed once, as orders are: from now on main resizes the pair to the position without asking.
    if (terminal.store.state.settings?.confirmOrders !== false) {
      const price = (raw: bigint | null) => (raw === null ? 'none' : `${formatPrice(props.market, raw)} ${props.market.quote.symbol}`);
      const what = [
        `${long() ? 'Sell' : 'Buy'} take-profit ${price(request.value.takeProfit)}, stop-loss ${price(request.value.stopLoss)} on ${props.market.base.symbol}/${props.market.quote.symbol}`,
        'Sized to the position now, and resized by main as the position changes (cancelled when it is flat)',
      ];
      if (!(await terminal.trading.ask('Confirm position TP/SL', what))) return;
    }
    await run(() => bridge.armPositionBracket({ marketId: props.position.marketId, ...(props.position.turbo ? { turbo: true } : {}), ...request.value }));
    if (failure() === null) setEditing(false);
  };

  const run = async (work: () => Promise<Result<unknown>>) => {
    setBusy(true);
    const done = await work();
    setBusy(false);
    if (!done.ok) setFailure(done);
  };

  return (
    <div class="position-bracket" data-testid="position-bracket">
      <Show when={props.bracket}>
        {(bracket) => (
          <div class="position-bracket-managed" data-testid="position-bracket-managed" data-bracket-id={bracket().id}>
            <span class="muted small">{bracketText(props.market, bracket())}</span>{' '}
            <button type="button" data-testid="position-bracket-cancel" disabled={busy()} title="Cancel the legs and stop resizing them" onClick={() => void run(() => bridge.disarmPositionBracket({ id: bracket().id, cancel: true }))}>
              Cancel TP/SL
            </button>
          </div>
        )}
      </Show>
      <Show when={props.position.size !== 0n && props.position.accountKind === 'trading' && !editing()}>
        <button type="button" class="position-bracket-open" data-testid="position-bracket-open" title="A take-profit and a stop-loss sized to the position, resized by main as it changes" onClick={() => setEditing(true)}>
          {props.bracket ? 'Change TP/SL' : 'TP/SL'}
        </button>
      </Show>
      <Show when={props.position.size !== 0n && props.position.accountKind === 'trading' && editing()}>
        <div class="position-bracket-form">
          <input class="position-bracket-input" data-testid="position-bracket-tp" placeholder="TP" value={takeProfit()} onInput={(event) => setTakeProfit(event.currentTarget.value)} />
          <input class="position-bracket-input" data-testid="position-bracket-sl" placeholder="SL" value={stopLoss()} onInput={(event) => setStopLoss(event.currentTarget.value)} />
          <select data-testid="position-bracket-unit" value={unit()} onChange={(event) => setUnit(event.currentTarget.value as OffsetUnit)} title="Prices, or offsets from the average entry">
            <option value="price">price</option>
            <option value="ticks">ticks from entry</option>
            <option value="percent">% from entry</option>
          </select>
          <button type="button" data-testid="position-bracket-arm" disabled={busy()} onClick={() => void arm()}>
            Set
          </button>
          <button type="button" data-testid="position-bracket-close" onClick={() => setEditing(false)}>
            ×
          </button>
        </div>
      </Show>
      <Show when={failure()}>
        {(shown) => (
          <div class="error small" data-testid="position-bracket-error" data-code={shown().code}>
            {shown().message}
          </div>
        )}
      </Show>
    </div>
  );
};
