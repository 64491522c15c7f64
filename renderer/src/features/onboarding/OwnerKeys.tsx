// The owners this terminal knows on the network in view: which one is in use, switching to
// another, and forgetting a watch-only one. Each button says what it does. Switching signs and
// cancels nothing; forgetting is confirmed outside the page (main's dialog, or the code printed on
// the host's terminal) and never touches a key: main refuses to forget an owner whose key it holds.
import { createSignal, For, Show, type Component } from 'solid-js';
import type { OwnerView } from '../../../../shared/ipc/views';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { explain } from './steps';

const KEPT_KEY = 'Its key is in the keychain and controls funds: the terminal never deletes it (remove it from the keychain yourself if you are sure).';

export const OwnerKeys: Component<{ onAddOwner: () => void }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const account = () => terminal.store.state.account;
  const [busy, setBusy] = createSignal<string | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);

  /** `done`: what the page says once it worked (main says it itself for a forgotten owner). */
  const act = async (label: string, action: () => ReturnType<typeof bridge.selectOwner>, done: string | null) => {
    setBusy(label);
    setProblem(null);
    const result = await action();
    setBusy(null);
    if (!result.ok) {
      setProblem(explain(result.code, result.message));
      return;
    }
    if (done !== null) terminal.store.notify('info', done);
    terminal.store.reload('account');
  };

  const custodyText = (owner: OwnerView) => (owner.custody === 'watch-only' ? 'watch-only: its key is offline' : `key in ${account()?.keychain.description ?? 'the keychain'}`);

  return (
    <Show when={(account()?.owners.length ?? 0) > 0}>
      <div class="owner-keys" data-testid="owner-keys">
        <div class="actions">
          <span class="title">Owner keys</span>
          <button type="button" data-testid="owner-add" disabled={busy() !== null} onClick={() => props.onAddOwner()}>
            Add another owner
          </button>
        </div>
        <span class="help">The owner in use is the one whose trading account, orders and balances the screen shows and whose session signs orders.</span>
        <table class="owner-list">
          <tbody>
            <For each={account()?.owners ?? []}>
              {(owner) => {
                const inUse = () => account()?.activeOwner?.address === owner.address;
                return (
                  <tr data-testid="owner-row" data-owner={owner.address} data-active={inUse() ? 'true' : 'false'}>
                    <td class="mono">{owner.address}</td>
                    <td>
                      {owner.style === 'evm' ? 'EVM-style' : 'ledger-style'}, {custodyText(owner)}
                    </td>
                    <td>
                      <Show
                        when={!inUse()}
                        fallback={
                          <span class="muted" data-testid="owner-in-use">
                            in use
                          </span>
                        }
                      >
                        <button
                          type="button"
                          data-testid="owner-select"
                          title="Show and trade this owner's trading account. Nothing is signed or cancelled: the other owner's orders stay on the exchange."
                          disabled={busy() !== null}
                          onClick={() => void act('Switching owners', () => bridge.selectOwner({ address: owner.address }), `Now using owner ${owner.address}.`)}
                        >
                          Use this owner
                        </button>
                      </Show>
                    </td>
                    <td>
                      <button
                        type="button"
                        data-testid="owner-forget"
                        title={
                          owner.custody === 'keychain'
                            ? KEPT_KEY
                            : 'Remove this watch-only owner from the terminal, after you confirm it outside this window. No key is deleted; its trading account and funds stay on the exchange.'
                        }
                        disabled={busy() !== null || owner.custody === 'keychain'}
                        onClick={() => void act('Forgetting the owner', () => bridge.forgetOwner({ address: owner.address }), null)}
                      >
                        Forget
                      </button>
                    </td>
                  </tr>
                );
              }}
            </For>
          </tbody>
        </table>
        <span class="help">
          Use this owner: the screen shows that owner's trading account; nothing is signed or cancelled. Forget (watch-only owners): confirmed outside this window; no key is deleted. A key held in
          the keychain is never deleted or shown by the terminal.
        </span>
        <Show when={busy()}>
          <div class="muted">{busy()}…</div>
        </Show>
        <Show when={problem()}>
          <div class="step-error" role="alert" data-testid="owner-keys-error">
            {problem()}
          </div>
        </Show>
      </div>
    </Show>
  );
};
