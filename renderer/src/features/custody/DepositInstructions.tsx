// Where deposits go: the trading account's contract id and the asset ids (with symbols and
// decimals), each with a copy button, and the sentence that the on-chain transfer must name the
// asset id and the amount. Mainnet has no faucet; that is said on every network.
import { createResource, For, Show, type Component } from 'solid-js';
import { CopyButton, FailureLine } from './parts';
import { useBridge } from '../../stores/bridge-context';

export const DepositInstructions: Component = () => {
  const bridge = useBridge();
  const [instructions] = createResource(() => bridge.getDepositInstructions({}));
  const view = () => {
    const loaded = instructions();
    return loaded?.ok ? loaded.value : null;
  };
  const failure = () => {
    const loaded = instructions();
    return loaded && !loaded.ok ? loaded : null;
  };
  return (
    <section class="custody" data-testid="deposit-instructions">
      <FailureLine failure={failure()} testId="deposit-error" />
      <Show when={view()}>
        {(loaded) => (
          <>
            <For each={loaded().sentences}>{(sentence) => <p data-testid="deposit-sentence">{sentence}</p>}</For>
            <Show when={loaded().tradeAccountId}>
              {(id) => (
                <p>
                  Trading account (contract id): <span class="mono" data-testid="deposit-account">{id()}</span>
                  <CopyButton text={id()} testId="deposit-copy-account" />
                </p>
              )}
            </Show>
            <table class="custody-lines">
              <thead>
                <tr>
                  <th>Asset</th>
                  <th>Decimals</th>
                  <th>Asset id</th>
                  <th>Markets</th>
                </tr>
              </thead>
              <tbody>
                <For each={loaded().assets}>
                  {(asset) => (
                    <tr data-testid="deposit-asset" data-asset-id={asset.assetId}>
                      <th>{asset.symbol}</th>
                      <td>{asset.decimals}</td>
                      <td>
                        {asset.assetId}
                        <CopyButton text={asset.assetId} testId="deposit-copy-asset" />
                      </td>
                      <td>{asset.markets.map((market) => market.pair).join(', ')}</td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </>
        )}
      </Show>
    </section>
  );
};
