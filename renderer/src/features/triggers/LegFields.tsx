// The fields of one leg: trigger price, and how it executes (market with slippage, limit, market).
// Controlled: the parent keeps the draft. Test ids are `<testId>-<control>`.
import { For, Show, type Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { EXECUTION_HELP, EXECUTION_LABELS, type ExecutionChoice, type LegDraft } from './trigger-model';
import './triggers.css';

const CHOICES: readonly ExecutionChoice[] = ['slippage', 'limit', 'market'];

export const LegFields: Component<{
  market: Market;
  label: string;
  testId: string;
  tone: 'tp' | 'sl' | 'plain';
  value: LegDraft;
  onChange: (next: LegDraft) => void;
  /** Show an on/off box (bracket legs); standalone legs are always on. */
  toggle?: boolean;
}> = (props) => {
  const update = (patch: Partial<LegDraft>) => props.onChange({ ...props.value, ...patch });
  const on = () => props.toggle !== true || props.value.enabled;
  return (
    <fieldset class="trigger-leg" classList={{ tp: props.tone === 'tp', sl: props.tone === 'sl' }} data-testid={props.testId}>
      <div class="trigger-leg-head">
        <Show when={props.toggle === true} fallback={<strong>{props.label}</strong>}>
          <label>
            <input type="checkbox" data-testid={`${props.testId}-enabled`} checked={props.value.enabled} onChange={(event) => update({ enabled: event.currentTarget.checked })} /> {props.label}
          </label>
        </Show>
      </div>
      <Show when={on()}>
        <label for={`${props.testId}-trigger`}>Trigger ({props.market.quote.symbol})</label>
        <input
          id={`${props.testId}-trigger`}
          data-testid={`${props.testId}-trigger`}
          inputMode="decimal"
          autocomplete="off"
          value={props.value.triggerText}
          onInput={(event) => update({ triggerText: event.currentTarget.value })}
        />
        <label for={`${props.testId}-execution`}>Executes as</label>
        <select id={`${props.testId}-execution`} data-testid={`${props.testId}-execution`} value={props.value.execution} onChange={(event) => update({ execution: event.currentTarget.value as ExecutionChoice })}>
          <For each={CHOICES}>{(choice) => <option value={choice}>{EXECUTION_LABELS[choice]}</option>}</For>
        </select>
        <Show when={props.value.execution === 'limit'}>
          <label for={`${props.testId}-limit`}>Limit ({props.market.quote.symbol})</label>
          <input
            id={`${props.testId}-limit`}
            data-testid={`${props.testId}-limit`}
            inputMode="decimal"
            autocomplete="off"
            value={props.value.limitText}
            onInput={(event) => update({ limitText: event.currentTarget.value })}
          />
        </Show>
        <Show when={props.value.execution === 'slippage'}>
          <label for={`${props.testId}-slippage`}>Slippage (bps)</label>
          <input
            id={`${props.testId}-slippage`}
            data-testid={`${props.testId}-slippage`}
            inputMode="numeric"
            autocomplete="off"
            value={props.value.slippageText}
            onInput={(event) => update({ slippageText: event.currentTarget.value })}
          />
        </Show>
        <span class="help" style={{ 'grid-column': '1 / -1' }}>
          {EXECUTION_HELP[props.value.execution]}
        </span>
      </Show>
    </fieldset>
  );
};
