// The ladder's optional Turbo depth column: its toolbar toggle (saved in the settings through main,
// like the ladder's other options), its header and its cell. The cell shows, on each row, the
// Turbo book's executable depth (shared quotes a Turbo taker can hit: bids green, asks red) over
// its demand depth (resting Turbo orders waiting for a shared quote), read by main while on. Display
// only: clicks on the row still trade from the Bid and Ask columns, the cell takes none. Sizes in
// the base's fixed decimals, as the ladder's own columns.
import { createSignal, onCleanup, Show, type Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { createFreshness, FreshnessBadge, windowClock } from '../../lib/freshness';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { sizeText } from '../positions/positions-model';
import type { TurboDepthOverlaySource } from './turbo-depth-source';

/** Whether the trader turned the overlay on (off until the settings say otherwise). */
export function turboDepthOn(settings: { readonly turboDepthOverlay?: boolean } | null | undefined): boolean {
  return settings?.turboDepthOverlay === true;
}

export const TurboDepthToggle: Component<{ market: Market; overlay: TurboDepthOverlaySource }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const on = () => turboDepthOn(terminal.store.state.settings);
  const available = () => terminal.turboBooks.row(props.market.market_id)?.hasTurboBook === true;
  const toggle = async () => {
    const result = await bridge.updateSettings({ turboDepthOverlay: !on() });
    if (result.ok) terminal.store.setSettings(result.value);
    else terminal.store.notify('error', `Turbo depth overlay not saved (${result.code}): ${result.message}`);
  };
  const [now, setNow] = createSignal(windowClock.now());
  const timer = setInterval(() => setNow(windowClock.now()), 1000);
  onCleanup(() => clearInterval(timer));
  const mark = createFreshness(terminal.freshness, (view) => [view.link], () => (on() && available() ? props.overlay.freshness(now()) : null));
  return (
    <Show when={available()}>
      <button
        type="button"
        classList={{ on: on() }}
        data-testid="ladder-turbo-depth"
        aria-pressed={on()}
        title="Turbo depth: show the Turbo book's executable depth (shared quotes a Turbo order can fill against) and demand depth (resting Turbo orders) on each row, read every few seconds. Display only: clicks still trade from the Bid and Ask columns."
        onClick={() => void toggle()}
      >
        Turbo depth
      </button>
      <Show when={on()}>
        <FreshnessBadge mark={mark} testId="ladder-turbo-depth-freshness" />
      </Show>
    </Show>
  );
};

export const TurboDepthHead: Component = () => (
  <span class="num turbo-depth-head" title="The Turbo book on this row: executable depth (shared quotes a Turbo taker can fill against; green bids, red asks) over demand depth (resting Turbo orders, in italics)">
    Turbo
  </span>
);

export const TurboDepthCell: Component<{ market: Market; overlay: TurboDepthOverlaySource; priceKey: string }> = (props) => {
  const row = () => props.overlay.at(props.priceKey);
  const executable = () => {
    const found = row();
    if (!found) return null;
    if (found.executableAsk > 0n) return { side: 'ask', quantity: found.executableAsk };
    if (found.executableBid > 0n) return { side: 'bid', quantity: found.executableBid };
    return null;
  };
  const demand = () => {
    const found = row();
    if (!found) return null;
    const quantity = found.demandBid + found.demandAsk;
    return quantity > 0n ? { side: found.demandAsk > 0n ? 'ask' : 'bid', quantity } : null;
  };
  return (
    <span
      class="turbo-depth num"
      data-testid={row() ? 'ladder-turbo-depth-cell' : undefined}
      data-executable={executable()?.quantity.toString()}
      data-demand={demand()?.quantity.toString()}
      onMouseDown={(event) => event.stopPropagation()}
    >
      <b class={`turbo-exec turbo-${executable()?.side ?? 'none'}`}>{executable() ? sizeText(props.market, executable()!.quantity) : ''}</b>
      <i class={`turbo-demand turbo-${demand()?.side ?? 'none'}`}>{demand() ? sizeText(props.market, demand()!.quantity) : ''}</i>
    </span>
  );
};
