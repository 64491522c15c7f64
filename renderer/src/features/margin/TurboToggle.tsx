// Canonical ↔ Turbo for one market: switches which book the ladder, ticket, orders and chart use
// (the shell owns the flag and passes it down). Disabled, with the reason, where the market has no
// Turbo book; a paused or disconnected Turbo book is shown (orders are refused there). It also says
// who signs Turbo orders: the selected Turbo Account, or the trading account.
import { createResource, createSignal, onCleanup, Show, type Component } from 'solid-js';
import type { TurboMarketsView } from '../../../../shared/ipc/views/margin';
import { shortAccount } from './margin-format';
import './margin.css';
import { useBridge } from '../../stores/bridge-context';

export const TurboToggle: Component<{ marketId: string; turbo: boolean; onChange: (turbo: boolean) => void }> = (props) => {
  const bridge = useBridge();
  const [pushed, setPushed] = createSignal<TurboMarketsView | null>(null);
  const [loaded] = createResource(async () => {
    const read = await bridge.getTurboMarkets({});
    return read.ok ? read.value : null;
  });
  const stop = bridge.onTurboMarkets((view) => setPushed(view));
  onCleanup(stop);
  const view = () => pushed() ?? loaded() ?? null;
  const row = () => view()?.markets.find((market) => market.marketId === props.marketId) ?? null;
  const enabled = () => row()?.hasTurboBook === true;
  const reason = () => row()?.reason ?? (view() === null ? 'Loading the Turbo books…' : null);

  return (
    <span class="turbo-toggle" data-testid="turbo-toggle" data-turbo={props.turbo ? 'true' : 'false'} data-available={enabled() ? 'true' : 'false'}>
      <button type="button" class={props.turbo ? '' : 'on'} data-testid="turbo-toggle-canonical" aria-pressed={!props.turbo} onClick={() => props.turbo && props.onChange(false)}>
        Canonical
      </button>
      <button
        type="button"
        class={props.turbo ? 'on' : ''}
        data-testid="turbo-toggle-turbo"
        aria-pressed={props.turbo}
        disabled={!enabled()}
        title={enabled() ? 'Trade the Turbo book of this market' : (reason() ?? '')}
        onClick={() => !props.turbo && enabled() && props.onChange(true)}
      >
        Turbo
      </button>
      <Show when={!enabled() && reason()}>
        <span class="muted" data-testid="turbo-toggle-reason">
          {reason()}
        </span>
      </Show>
      <Show when={enabled() && row()?.paused === true}>
        <span class="margin-badge" data-tone="warning" data-testid="turbo-toggle-paused">
          Paused
        </span>
      </Show>
      <Show when={enabled() && row()?.connected === false}>
        <span class="margin-badge" data-tone="warning" data-testid="turbo-toggle-disconnected">
          Disconnected
        </span>
      </Show>
      <Show when={props.turbo && enabled()}>
        <span class="muted" data-testid="turbo-toggle-trading-as">
          {view()?.tradingAs ? `as Turbo Account ${shortAccount(view()?.tradingAs ?? '')}` : 'as the trading account'}
        </span>
      </Show>
    </span>
  );
};
