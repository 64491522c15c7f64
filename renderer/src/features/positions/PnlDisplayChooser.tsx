// The two small choosers of a market's P&L display (what it is marked at, and the unit beside the
// quote figure), shown wherever that market's P&L is: each writes the market's choice to main's
// settings (settings.pnlDisplay), which pushes it to every window, so every panel of every window
// shows the market's P&L the same way. A refusal leaves the shown choice as main has it.
import { For, type Component } from 'solid-js';
import { MARK_SOURCES, PNL_UNITS, pnlDisplayOf, type PnlDisplay } from '../../../../shared/positions/pnl-display';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { MARK_SOURCE_LABELS, PNL_UNIT_LABELS } from './positions-model';
import { createPnlDisplayWriter, type PnlDisplayWriter } from './pnl-display-writer';

// One writer per window: choices are written one after another (pnl-display-writer.ts).
let writer: PnlDisplayWriter | null = null;

export function usePnlDisplay(): { of(marketId: string): PnlDisplay; choose(marketId: string, change: Partial<PnlDisplay>): Promise<void> } {
  const terminal = useTerminal();
  const bridge = useBridge();
  const saved = () => terminal.store.state.settings?.pnlDisplay ?? {};
  writer ??= createPnlDisplayWriter(saved, (patch) => bridge.updateSettings(patch), (settings) => terminal.store.setSettings(settings));
  const chosen = writer;
  return {
    of: (marketId) => pnlDisplayOf(saved(), marketId),
    choose: (marketId, change) => chosen.choose(marketId, change),
  };
}

export const MarkSourceChooser: Component<{ marketId: string; testId: string }> = (props) => {
  const display = usePnlDisplay();
  return (
    <select
      class="pnl-chooser"
      data-testid={props.testId}
      title="What this market's unrealized P&L is marked at, in every panel and window"
      value={display.of(props.marketId).mark}
      onChange={(event) => void display.choose(props.marketId, { mark: event.currentTarget.value as PnlDisplay['mark'] })}
    >
      <For each={MARK_SOURCES}>{(source) => <option value={source}>{MARK_SOURCE_LABELS[source]}</option>}</For>
    </select>
  );
};

export const PnlUnitChooser: Component<{ marketId: string; testId: string }> = (props) => {
  const display = usePnlDisplay();
  return (
    <select
      class="pnl-chooser"
      data-testid={props.testId}
      title="The unit beside this market's unrealized P&L in quote, in every panel and window: % or basis points of the cost, or ticks of price"
      value={display.of(props.marketId).unit}
      onChange={(event) => void display.choose(props.marketId, { unit: event.currentTarget.value as PnlDisplay['unit'] })}
    >
      <For each={PNL_UNITS}>{(unit) => <option value={unit}>{PNL_UNIT_LABELS[unit]}</option>}</For>
    </select>
  );
};
