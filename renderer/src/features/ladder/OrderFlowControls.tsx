// The ladder's order-flow controls: how far back the Flow column counts (the last 5 minutes, the
// last hour, or the session) and the size from which a trade is a large lot (saved per market in
// the settings through main, shared with the tape's highlight).
import { createSignal, For, type Component } from 'solid-js';
import { parseUnits } from '../../../../shared/encoding/units';
import { FLOW_WINDOWS, type FlowWindow } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { editableQuantity } from '../../format/market-format';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';

const WINDOW_LABELS: Record<FlowWindow, string> = { '5m': '5 m', '1h': '1 h', session: 'session' };

/** The large-lot size of a market from the settings, raw base units; null when none is set. */
export function largeLotOf(settings: { readonly largeTradeSize: Readonly<Record<string, bigint>> } | null | undefined, marketId: string): bigint | null {
  return settings?.largeTradeSize[marketId] ?? null;
}

export const OrderFlowControls: Component<{ market: Market; window: FlowWindow; onWindow: (window: FlowWindow) => void }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const saved = () => largeLotOf(terminal.store.state.settings, props.market.market_id);
  const [invalid, setInvalid] = createSignal(false);
  const save = async (text: string) => {
    const settings = terminal.store.state.settings;
    if (!settings) return;
    const trimmed = text.trim();
    const next: Record<string, bigint> = { ...settings.largeTradeSize };
    if (trimmed === '') delete next[props.market.market_id];
    else {
      const parsed = parseUnits(trimmed, props.market.base.decimals, 'Large lot');
      if (!parsed.ok || parsed.value <= 0n) {
        setInvalid(true);
        return;
      }
      next[props.market.market_id] = parsed.value;
    }
    setInvalid(false);
    const result = await bridge.updateSettings({ largeTradeSize: next });
    if (result.ok) terminal.store.setSettings(result.value);
    else terminal.store.notify('error', `Large-lot size not saved (${result.code}): ${result.message}`);
  };
  return (
    <span class="order-flow-controls">
      <label class="field-inline" title="How far back the Flow column counts traded volume: the last 5 minutes or hour (whole minutes, the current one included), or the session (since this app began following the market's trades)">
        <span>Flow</span>
        <select data-testid="ladder-flow-window" value={props.window} onChange={(event) => props.onWindow(event.currentTarget.value as FlowWindow)}>
          <For each={FLOW_WINDOWS}>{(window) => <option value={window}>{WINDOW_LABELS[window]}</option>}</For>
        </select>
      </label>
      <label class="field-inline" title={`Trades of this size or more (${props.market.base.symbol}) are highlighted as large lots on the ladder's Last column and the tape; empty: none`}>
        <span>Large ≥</span>
        <input
          data-testid="ladder-large-lot"
          class="num"
          classList={{ invalid: invalid() }}
          inputmode="decimal"
          placeholder="off"
          value={saved() === null ? '' : editableQuantity(props.market, saved()!)}
          onChange={(event) => void save(event.currentTarget.value)}
        />
      </label>
    </span>
  );
};
