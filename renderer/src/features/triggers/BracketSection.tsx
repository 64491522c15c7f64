// The bracket section of the order ticket: a take-profit and a stop-loss attached to the entry the
// ticket would place (an OCO pair when both: one firing cancels the other; both sized from the
// entry's fills). The ticket passes its current entry; the section checks the legs against it and
// the market before anything is signed, and places entry and legs in one signed request.
import { createMemo, createSignal, For, Show, type Component } from 'solid-js';
import type { PlacedTriggers } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import type { Failure } from '../../../../shared/result';
import { LegFields } from './LegFields';
import { bracketInput, emptyLeg, legLabel, type BracketEntry, type LegDraft } from './trigger-model';
import './triggers.css';
import { useBridge } from '../../stores/bridge-context';

export interface BracketDraft {
  readonly takeProfit: LegDraft;
  readonly stopLoss: LegDraft;
}

export const BracketSection: Component<{
  market: Market;
  turbo?: boolean;
  /** The entry the ticket would place now, or null while its fields are incomplete or invalid. */
  entry: () => BracketEntry | null;
  /** Every change of the legs (the ticket may place the bracket itself with bracketInput). */
  onChange?: (draft: BracketDraft) => void;
  onPlaced?: (placed: PlacedTriggers) => void;
  /** Hide the section's own place button (the ticket's submit button places the bracket). */
  hidePlaceButton?: boolean;
}> = (props) => {
  const bridge = useBridge();
  const [draft, setDraft] = createSignal<BracketDraft>({ takeProfit: emptyLeg(), stopLoss: emptyLeg() });
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [placed, setPlaced] = createSignal<PlacedTriggers | null>(null);
  const update = (patch: Partial<BracketDraft>) => {
    const next = { ...draft(), ...patch };
    setDraft(next);
    setFailure(null);
    props.onChange?.(next);
  };
  const active = () => draft().takeProfit.enabled || draft().stopLoss.enabled;
  const request = createMemo(() => {
    const entry = props.entry();
    if (entry === null || !active()) return null;
    return bracketInput(props.market, props.turbo === true, entry, draft().takeProfit, draft().stopLoss);
  });
  const problem = () => {
    const checked = request();
    return checked !== null && !checked.ok ? checked : null;
  };

  const place = async () => {
    const checked = request();
    if (checked === null || !checked.ok || busy()) return;
    setBusy(true);
    setFailure(null);
    const sent = await bridge.placeBracketOrder(checked.value);
    setBusy(false);
    if (sent.ok) {
      setPlaced(sent.value);
      props.onPlaced?.(sent.value);
    } else setFailure(sent);
  };

  return (
    <section class="triggers" data-testid="bracket-section">
      <LegFields market={props.market} label="Take-profit" testId="bracket-take-profit" tone="tp" toggle value={draft().takeProfit} onChange={(takeProfit) => update({ takeProfit })} />
      <LegFields market={props.market} label="Stop-loss" testId="bracket-stop-loss" tone="sl" toggle value={draft().stopLoss} onChange={(stopLoss) => update({ stopLoss })} />
      <Show when={active()}>
        <Show when={props.entry() === null}>
          <p class="help" data-testid="bracket-needs-entry">
            Complete the order above: the legs are sized from its fills.
          </p>
        </Show>
        <Show when={problem() ?? failure()}>
          {(shown) => (
            <p class="error" role="alert" data-testid="bracket-error" data-code={shown().code}>
              <span class="mono">{shown().code}</span> {shown().message}
            </p>
          )}
        </Show>
        <Show when={props.hidePlaceButton !== true}>
          <div class="trigger-actions">
            <button type="button" data-testid="bracket-place" disabled={busy() || request() === null || problem() !== null} onClick={() => void place()}>
              {busy() ? 'Placing…' : 'Place with bracket'}
            </button>
          </div>
        </Show>
      </Show>
      <Show when={placed()}>
        {(result) => (
          <div data-testid="bracket-result">
            <span>{result().triggers.length} leg{result().triggers.length === 1 ? '' : 's'} placed</span>
            <ul class="trigger-adjustments">
              <For each={result().triggers}>{(leg) => <li data-testid="bracket-result-leg">{legLabel(props.market, leg)}</li>}</For>
              <For each={result().adjustments}>{(line) => <li class="muted">{line}</li>}</For>
            </ul>
          </div>
        )}
      </Show>
    </section>
  );
};
