// The automatic bracket on fill of one market, in Settings: take-profit and stop-loss offsets from
// the average entry, in ticks or %. Saving arms it, confirmed by main in the trusted confirmation
// (the native dialog, or the host's code); from then on main brackets each fill that adds to the
// position while no TP/SL protects it (main/services/protect/position-brackets.ts). Clearing it
// applies at once.
import { createSignal, onMount, Show, type Component } from 'solid-js';
import type { AutoBracketView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { formatUnits } from '../../../../shared/encoding/units';
import { useBridge } from '../../stores/bridge-context';
import { autoBracketRequest } from './position-bracket-model';

function offsetText(auto: AutoBracketView, value: bigint | null): string {
  if (value === null) return '';
  return auto.unit === 'ticks' ? value.toString() : formatUnits(value, 2);
}

export const AutoBracketSettings: Component<{ market: Market }> = (props) => {
  const bridge = useBridge();
  const [current, setCurrent] = createSignal<AutoBracketView | undefined>(undefined);
  const [takeProfit, setTakeProfit] = createSignal('');
  const [stopLoss, setStopLoss] = createSignal('');
  const [unit, setUnit] = createSignal<'ticks' | 'percent'>('ticks');
  const [problem, setProblem] = createSignal<string | null>(null);
  const show = (list: readonly AutoBracketView[]) => {
    const auto = list.find((one) => one.marketId === props.market.market_id);
    setCurrent(auto);
    if (auto !== undefined) {
      setUnit(auto.unit);
      setTakeProfit(offsetText(auto, auto.takeProfit));
      setStopLoss(offsetText(auto, auto.stopLoss));
    }
  };
  onMount(() => {
    void bridge.getAutoBrackets({}).then((list) => {
      if (list.ok) show(list.value);
    });
  });
  const save = async (): Promise<void> => {
    const request = autoBracketRequest({ takeProfit: takeProfit(), stopLoss: stopLoss(), unit: unit() });
    if (!request.ok) {
      setProblem(request.message);
      return;
    }
    const saved = await bridge.setAutoBracket({ marketId: props.market.market_id, ...request.value });
    if (!saved.ok) {
      setProblem(`${saved.message} (${saved.code})`);
      return;
    }
    setProblem(null);
    show(saved.value);
  };
  const clear = async (): Promise<void> => {
    const cleared = await bridge.clearAutoBracket({ marketId: props.market.market_id });
    if (!cleared.ok) {
      setProblem(`${cleared.message} (${cleared.code})`);
      return;
    }
    setProblem(null);
    setTakeProfit('');
    setStopLoss('');
    show(cleared.value);
  };
  return (
    <div class="line" data-testid="settings-auto-bracket" title="Main places a take-profit / stop-loss sized to the position after each fill that adds to it while none protects it, and resizes it; it never opens exposure. Arming it asks for your confirmation.">
      <span>
        Automatic bracket on fill, {props.market.base.symbol}/{props.market.quote.symbol} ({current() ? 'armed' : 'off'})
      </span>{' '}
      <input data-testid="settings-auto-bracket-tp" style={{ width: '60px' }} placeholder="TP" value={takeProfit()} onInput={(event) => setTakeProfit(event.currentTarget.value)} />
      <input data-testid="settings-auto-bracket-sl" style={{ width: '60px' }} placeholder="SL" value={stopLoss()} onInput={(event) => setStopLoss(event.currentTarget.value)} />
      <select data-testid="settings-auto-bracket-unit" value={unit()} onChange={(event) => setUnit(event.currentTarget.value as 'ticks' | 'percent')}>
        <option value="ticks">ticks</option>
        <option value="percent">%</option>
      </select>{' '}
      <button type="button" data-testid="settings-auto-bracket-save" onClick={() => void save()}>
        Arm
      </button>
      <Show when={current()}>
        <button type="button" data-testid="settings-auto-bracket-clear" onClick={() => void clear()}>
          Off
        </button>
      </Show>
      <Show when={problem()}>{(shown) => <div class="error small" data-testid="settings-auto-bracket-error">{shown()}</div>}</Show>
    </div>
  );
};
