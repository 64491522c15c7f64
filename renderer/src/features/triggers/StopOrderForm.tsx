// A stop on its own, or an OCO pair: an entry stop, or protection of a position sized explicitly
// or from one of the market's orders (the legs then belong to that order: sized from its fills and
// cancelled with it). Checked against the market before anything is signed.
import { createMemo, createSignal, For, Show, type Component } from 'solid-js';
import type { PlacedTriggers } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import type { Side } from '../../../../shared/market/order-type';
import type { Failure } from '../../../../shared/result';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { shortId } from '../../format/units';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { bookAndSignerLine, signerText } from '../trading/trading-actions';
import { LegFields } from './LegFields';
import { createOpenOrders } from './trigger-data';
import { emptyLeg, legLabel, ocoInput, protectiveSide, stopInput, type LegDraft, type SizeDraft } from './trigger-model';
import './triggers.css';

export const StopOrderForm: Component<{
  market: Market;
  turbo?: boolean;
  onPlaced?: (placed: PlacedTriggers) => void;
}> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const openOrders = createOpenOrders(bridge);
  const [mode, setMode] = createSignal<'single' | 'oco'>('single');
  const [side, setSide] = createSignal<Side>('Sell');
  const [sizeKind, setSizeKind] = createSignal<SizeDraft['kind']>('quantity');
  const [quantityText, setQuantityText] = createSignal('');
  const [parentId, setParentId] = createSignal('');
  const [first, setFirst] = createSignal<LegDraft>(emptyLeg(true));
  const [second, setSecond] = createSignal<LegDraft>(emptyLeg(true));
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [placed, setPlaced] = createSignal<PlacedTriggers | null>(null);

  const orders = createMemo(() => openOrders().filter((order) => order.marketId === props.market.market_id));
  const parent = () => orders().find((order) => order.orderId === parentId()) ?? null;
  // Protection of an order is on its other side.
  const legSide = (): Side => (sizeKind() === 'parent' && parent() !== null ? protectiveSide(parent()!) : side());
  const size = (): SizeDraft => (sizeKind() === 'parent' ? { kind: 'parent', orderId: parentId() } : { kind: 'quantity', quantityText: quantityText() });
  const request = () =>
    mode() === 'single' ? stopInput(props.market, props.turbo === true, legSide(), first(), size()) : ocoInput(props.market, props.turbo === true, legSide(), first(), second(), size());

  const submit = async () => {
    if (busy()) return;
    setFailure(null);
    setPlaced(null);
    const checked = request();
    if (!checked.ok) {
      setFailure(checked);
      return;
    }
    // Confirmed as orders are, naming the book and the account that signs.
    if (terminal.store.state.settings?.confirmOrders !== false) {
      const input = checked.value;
      const sized = input.size.kind === 'quantity' ? `${formatQuantity(props.market, input.size.quantity)} ${props.market.base.symbol}` : `the size of order ${shortId(input.size.orderId)}`;
      const triggers = ('leg' in input ? [input.leg] : [input.first, input.second]).map((leg) => `${formatPrice(props.market, leg.triggerPrice)}`).join(' / ');
      const what = `${'leg' in input ? 'Stop' : 'OCO pair'}: ${input.side} ${sized} when the price reaches ${triggers} ${props.market.quote.symbol}`;
      const turbo = props.turbo === true;
      const signer = signerText(turbo, terminal.store.state.account?.tradeAccount?.tradeAccountId, terminal.turboBooks.view()?.tradingAs);
      const accepted = await terminal.trading.ask('leg' in input ? 'Confirm stop order' : 'Confirm OCO pair', [what, `Market ${props.market.base.symbol}/${props.market.quote.symbol} · ${bookAndSignerLine(turbo, signer)}`]);
      if (!accepted) return;
    }
    setBusy(true);
    const sent = 'leg' in checked.value ? await bridge.placeStopOrder(checked.value) : await bridge.placeOcoOrder(checked.value);
    setBusy(false);
    if (!sent.ok) {
      setFailure(sent);
      return;
    }
    setPlaced(sent.value);
    props.onPlaced?.(sent.value);
  };

  return (
    <form
      class="triggers"
      data-testid="stop-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div class="trigger-actions">
        <label>
          <input type="radio" name="stop-mode" data-testid="stop-mode-single" checked={mode() === 'single'} onChange={() => setMode('single')} /> Stop
        </label>
        <label>
          <input type="radio" name="stop-mode" data-testid="stop-mode-oco" checked={mode() === 'oco'} onChange={() => setMode('oco')} /> OCO pair
        </label>
      </div>
      <div class="trigger-actions">
        <span>Size</span>
        <label>
          <input type="radio" name="stop-size" data-testid="stop-size-quantity" checked={sizeKind() === 'quantity'} onChange={() => setSizeKind('quantity')} /> Quantity
        </label>
        <label>
          <input type="radio" name="stop-size" data-testid="stop-size-parent" checked={sizeKind() === 'parent'} onChange={() => setSizeKind('parent')} /> From an order
        </label>
      </div>
      <Show
        when={sizeKind() === 'parent'}
        fallback={
          <div class="trigger-actions">
            <div class="side-toggle">
              <button type="button" class="buy-side" classList={{ on: side() === 'Buy' }} data-testid="stop-side-buy" onClick={() => setSide('Buy')}>
                Buy
              </button>
              <button type="button" class="sell-side" classList={{ on: side() === 'Sell' }} data-testid="stop-side-sell" onClick={() => setSide('Sell')}>
                Sell
              </button>
            </div>
            <label for="stop-quantity">Quantity ({props.market.base.symbol})</label>
            <input id="stop-quantity" data-testid="stop-quantity" inputMode="decimal" autocomplete="off" value={quantityText()} onInput={(event) => setQuantityText(event.currentTarget.value)} />
          </div>
        }
      >
        <label class="trigger-actions">
          <span>Order</span>
          <select data-testid="stop-parent" value={parentId()} onChange={(event) => setParentId(event.currentTarget.value)}>
            <option value="">Choose an order of {props.market.base.symbol}/{props.market.quote.symbol}</option>
            <For each={orders()}>
              {(order) => (
                <option value={order.orderId}>
                  {order.side} {formatQuantity(props.market, order.quantity)} @ {formatPrice(props.market, order.price)} · {shortId(order.orderId)}
                </option>
              )}
            </For>
          </select>
          <Show when={parent()}>{(chosen) => <span class="muted" data-testid="stop-parent-side">legs {protectiveSide(chosen())}</span>}</Show>
        </label>
      </Show>
      <LegFields market={props.market} label={mode() === 'oco' ? 'First leg' : 'Stop'} testId="stop-leg-first" tone="plain" value={first()} onChange={setFirst} />
      <Show when={mode() === 'oco'}>
        <LegFields market={props.market} label="Second leg" testId="stop-leg-second" tone="plain" value={second()} onChange={setSecond} />
      </Show>
      <div class="trigger-actions">
        <button type="submit" data-testid="stop-submit" disabled={busy()}>
          {busy() ? 'Placing…' : mode() === 'oco' ? `Place ${legSide()} OCO pair` : `Place ${legSide()} stop`}
        </button>
      </div>
      <Show when={failure()}>
        {(shown) => (
          <p class="error" role="alert" data-testid="stop-error" data-code={shown().code}>
            <span class="mono">{shown().code}</span> {shown().message}
          </p>
        )}
      </Show>
      <Show when={placed()}>
        {(result) => (
          <ul class="trigger-adjustments" data-testid="stop-result">
            <For each={result().triggers}>{(leg) => <li data-testid="stop-result-leg">{legLabel(props.market, leg)}</li>}</For>
            <For each={result().adjustments}>{(line) => <li class="muted">{line}</li>}</For>
          </ul>
        )}
      </Show>
    </form>
  );
};
