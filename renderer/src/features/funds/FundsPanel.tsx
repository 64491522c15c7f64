// The Funds panel: what the trading account holds now (so a deposit or a faucet mint is seen
// arriving), test funds from the faucet where the network has one, then deposits, withdrawals,
// requests for the offline signer and referral codes (the custody components).
import { createMemo, createResource, createSignal, For, Show, type Component } from 'solid-js';
import type { Failure } from '../../../../shared/result';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { balanceColumns } from '../../format/columns';
import { shortId } from '../../format/units';
import { CustodyPanel } from '../custody';
import { FailureLine } from '../custody/parts';
import './funds.css';

export const FundsPanel: Component<{ now?: () => number }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [deposit] = createResource(() => bridge.getDepositInstructions({}));
  const hasFaucet = () => {
    const loaded = deposit();
    return loaded?.ok === true && loaded.value.hasFaucet;
  };
  const [minting, setMinting] = createSignal(false);
  const [minted, setMinted] = createSignal<string | null>(null);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const mint = async () => {
    setMinting(true);
    setMinted(null);
    setFailure(null);
    const result = await bridge.mintFromFaucet({});
    setMinting(false);
    if (result.ok) {
      setMinted(result.value.message);
      terminal.store.reload('balances');
    } else setFailure(result);
  };
  const balances = () => terminal.store.state.balances;
  // The figures of the Balances panel, under its names and in each asset's one display precision.
  const cells = createMemo(() => {
    const columns = balanceColumns(balances(), terminal.store.state.markets?.markets ?? []);
    return new Map(balances().map((balance, index) => [balance.assetId, columns[index]!]));
  });
  return (
    <div class="funds" data-testid="funds-panel">
      <h2>On the trading account</h2>
      <table class="funds-balances" data-testid="funds-balances">
        <thead>
          <tr>
            <th>Asset</th>
            <th class="num" data-column="total" title="Available + locked in orders">Total</th>
            <th class="num" data-column="available" title="On account + in books: what orders can use">Available</th>
            <th class="num" data-column="locked" title="Locked in open orders">Locked in orders</th>
          </tr>
        </thead>
        <tbody>
          <For each={balances()}>
            {(balance) => (
              <tr data-testid="funds-balance" data-asset-id={balance.assetId} data-symbol={balance.symbol}>
                <td>
                  <b>{balance.symbol}</b> <span class="quote-id" title={balance.assetId}>{shortId(balance.assetId)}</span>
                </td>
                <td class="num" data-testid="funds-balance-total" data-column="total" data-raw={(balance.unlocked + balance.locked).toString()}>{cells().get(balance.assetId)?.total}</td>
                <td class="num" data-column="available" data-raw={balance.unlocked.toString()}>{cells().get(balance.assetId)?.available}</td>
                <td class="num" data-column="locked" data-raw={balance.locked.toString()}>{cells().get(balance.assetId)?.locked}</td>
              </tr>
            )}
          </For>
          <Show when={balances().length === 0}>
            <tr>
              <td colSpan={4} class="empty" data-testid="funds-balances-empty">
                {terminal.store.state.problems.balances ?? 'Nothing on the account yet: deposits show here as they arrive.'}
              </td>
            </tr>
          </Show>
        </tbody>
      </table>
      <Show when={hasFaucet()}>
        <div class="funds-faucet">
          <button type="button" data-testid="funds-faucet" disabled={minting() || !terminal.store.state.account?.tradeAccount} onClick={() => void mint()}>
            {minting() ? 'Asking the faucet…' : 'Get test funds'}
          </button>
          <span class="muted">The test network's faucet mints its assets to this account (once a minute).</span>
        </div>
        <Show when={minted()}>
          {(said) => (
            <p class="funds-minted" data-testid="funds-faucet-result" title={`The faucet said: ${said()}`}>
              Test funds were minted into the trading account: the balances above show them as they arrive.
            </p>
          )}
        </Show>
        <FailureLine failure={failure()} testId="funds-faucet-error" />
      </Show>
      <CustodyPanel {...(props.now ? { now: props.now } : {})} />
    </div>
  );
};
