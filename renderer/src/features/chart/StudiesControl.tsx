// The chart's study settings: the two moving averages' kind and length, saved by main (settings
// chartStudies, the same on every chart and window). Lengths are parsed here and again by main's
// input schema; a length that does not parse is said under the field and nothing is saved.
import { createSignal, For, Show, type Component } from 'solid-js';
import { MOVING_AVERAGE_KINDS, parseAverageLength, type ChartStudies, type MovingAverageKind, type MovingAverageSetting } from '../../../../shared/chart/chart-studies';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';

export const StudiesControl: Component<{ studies: ChartStudies; colours: readonly [string, string] }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [open, setOpen] = createSignal(false);
  const [kinds, setKinds] = createSignal<[MovingAverageKind, MovingAverageKind]>(['EMA', 'SMA']);
  const [lengths, setLengths] = createSignal<[string, string]>(['', '']);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [saving, setSaving] = createSignal(false);

  const toggle = () => {
    if (!open()) {
      const [first, second] = props.studies.averages;
      setKinds([first.kind, second.kind]);
      setLengths([String(first.length), String(second.length)]);
      setProblem(null);
    }
    setOpen(!open());
  };
  const save = async () => {
    const parsed = lengths().map(parseAverageLength);
    const refused = parsed.findIndex((one) => !one.ok);
    if (refused >= 0) {
      const failure = parsed[refused] as { ok: false; message: string };
      setProblem(`Average ${refused + 1}: ${failure.message}`);
      return;
    }
    const averages = parsed.map((one, index) => ({ kind: kinds()[index]!, length: (one as { value: number }).value })) as [MovingAverageSetting, MovingAverageSetting];
    setSaving(true);
    const result = await bridge.updateSettings({ chartStudies: { averages } });
    setSaving(false);
    if (!result.ok) {
      setProblem(`Not saved (${result.code}): ${result.message}`);
      return;
    }
    terminal.store.setSettings(result.value);
    setOpen(false);
  };

  return (
    <div class="chart-studies-control">
      <button type="button" class="link" data-testid="chart-studies-toggle" aria-expanded={open()} title="The two moving averages (kind and length) drawn on every chart" onClick={toggle}>
        Studies
      </button>
      <Show when={open()}>
        <form
          class="chart-studies-form"
          data-testid="chart-studies-form"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <For each={[0, 1] as const}>
            {(index) => (
              <label class="chart-studies-row">
                <span class="chart-study-swatch" style={{ background: props.colours[index] }} />
                <span>MA {index + 1}</span>
                <select
                  data-testid={`chart-average-kind-${index + 1}`}
                  value={kinds()[index]}
                  onChange={(event) => {
                    const next: [MovingAverageKind, MovingAverageKind] = [...kinds()];
                    next[index] = event.currentTarget.value as MovingAverageKind;
                    setKinds(next);
                  }}
                >
                  <For each={MOVING_AVERAGE_KINDS}>{(kind) => <option value={kind}>{kind}</option>}</For>
                </select>
                <input
                  data-testid={`chart-average-length-${index + 1}`}
                  inputMode="numeric"
                  size={4}
                  value={lengths()[index]}
                  aria-label={`Length of moving average ${index + 1} in bars`}
                  onInput={(event) => {
                    const next: [string, string] = [...lengths()];
                    next[index] = event.currentTarget.value;
                    setLengths(next);
                  }}
                />
                <span class="muted">bars</span>
              </label>
            )}
          </For>
          <Show when={problem()}>
            <div class="error" data-testid="chart-studies-problem" role="alert">
              {problem()}
            </div>
          </Show>
          <div class="chart-studies-actions">
            <button type="submit" data-testid="chart-studies-save" disabled={saving()}>
              Save
            </button>
            <button type="button" class="link" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      </Show>
    </div>
  );
};
