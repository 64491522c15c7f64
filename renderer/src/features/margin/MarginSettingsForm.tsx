// How Turbo orders of a Turbo Account are prepared: a plain Market order becomes a BoundedMarket
// with this slippage (or is refused), and the quote or base an order lacks is drawn or borrowed in
// its own batch (or the order is refused with what to do first).
import { createSignal, type Component } from 'solid-js';
import type { MarginSettingsView } from '../../../../shared/ipc/views/margin';
import type { Failure } from '../../../../shared/result';
import { FailureLine } from './parts';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { notifyFailure } from '../notices/failure-notice';

export const MarginSettingsForm: Component<{ settings: MarginSettingsView; onSaved?: (settings: MarginSettingsView) => void }> = (props) => {
  const bridge = useBridge();
  const terminal = useTerminal();
  const [slippage, setSlippage] = createSignal(String(props.settings.marketSlippageBps));
  const [failure, setFailure] = createSignal<Failure | null>(null);

  const save = async (patch: { convertMarketOrders?: boolean; marketSlippageBps?: number; fundOrders?: boolean }) => {
    setFailure(null);
    const saved = await bridge.updateMarginSettings(patch);
    if (!saved.ok) {
      notifyFailure(terminal.store, 'Turbo order settings refused', saved);
      setFailure(saved);
      return;
    }
    terminal.store.notify('info', 'Turbo order settings saved.', { title: 'Turbo order settings' });
    props.onSaved?.(saved.value);
  };

  const saveSlippage = () => {
    const text = slippage().trim();
    if (!/^\d{1,4}$/.test(text)) {
      setFailure({ ok: false, code: 'INVALID_INPUT', message: `Bound: ${JSON.stringify(text)} is not a whole number of basis points from 0 to 9999.` });
      return;
    }
    void save({ marketSlippageBps: Number(text) });
  };

  return (
    <div class="margin-form" data-testid="margin-settings">
      <label class="field-inline">
        <input type="checkbox" data-testid="margin-settings-convert" checked={props.settings.convertMarketOrders} onChange={(event) => void save({ convertMarketOrders: event.currentTarget.checked })} />
        Send market orders as bounded market orders
      </label>
      <span />
      <label for="margin-settings-slippage">Bound (bps from the ticket price)</label>
      <span class="margin-row">
        <input id="margin-settings-slippage" data-testid="margin-settings-slippage" inputmode="numeric" value={slippage()} onInput={(event) => setSlippage(event.currentTarget.value)} />
        <button type="button" data-testid="margin-settings-slippage-save" onClick={saveSlippage}>
          Save
        </button>
      </span>
      <label class="field-inline">
        <input type="checkbox" data-testid="margin-settings-fund" checked={props.settings.fundOrders} onChange={(event) => void save({ fundOrders: event.currentTarget.checked })} />
        Draw or borrow what an order lacks in the same batch
      </label>
      <span />
      <div class="margin-actions">
        <FailureLine failure={failure()} testId="margin-settings-error" />
      </div>
    </div>
  );
};
