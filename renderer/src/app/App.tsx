import { createSignal, onCleanup, onMount, Show, type Component } from 'solid-js';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { ConnectionStatus, MarketsView } from '../../../shared/ipc/views';
import { ConnectionIndicator } from '../features/connection/ConnectionIndicator';
import { MarketList } from '../features/markets/MarketList';

export const App: Component<{ api: TerminalApi }> = (props) => {
  const [status, setStatus] = createSignal<ConnectionStatus | null>(null);
  const [markets, setMarkets] = createSignal<MarketsView | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [selected, setSelected] = createSignal<string | null>(null);

  const loadMarkets = async () => {
    const result = await props.api.listMarkets({});
    if (result.ok) {
      setMarkets(result.value);
      setError(null);
    } else {
      setError(result.message);
    }
  };

  onMount(() => {
    const stop = props.api.onConnection((next) => {
      const wasUp = status()?.rest === 'up';
      setStatus(next);
      if (next.rest === 'up' && (!wasUp || markets() === null)) void loadMarkets();
    });
    onCleanup(stop);
    void props.api.getConnection({}).then((result) => result.ok && setStatus(result.value));
    void loadMarkets();
  });

  return (
    <div class="app">
      <header class="topbar">
        <div class="brand">Ledger Terminal</div>
        <ConnectionIndicator status={status()} />
      </header>
      <main class="content">
        <section class="panel">
          <h2>Markets</h2>
          <Show when={error()}>
            <div class="error" role="alert">{error()}</div>
          </Show>
          <MarketList markets={markets()?.markets ?? []} selected={selected()} onSelect={setSelected} />
        </section>
      </main>
    </div>
  );
};
