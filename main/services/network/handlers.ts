// Request handlers of the networks: the connection and freshness shown in the header, the list of
// networks, switching and configuring one, and the rate limits of the active one. Switching is the
// terminal's (it owns the runtime's lifetime): it passes it in as NetworkControl.
import type { ConnectionStatus, FreshnessView, NetworkView } from '../../../shared/ipc/views';
import { fail, ok, type Result } from '../../../shared/result';
import { confirmationDigest } from '../confirm/trusted-confirmer';
import { shown, trusted } from '../confirm/trusted-text';
import { withRuntime, type CoreHandlers, type HandlerContext } from '../handler-context';
import { checkNetworkUrls, NETWORK_CODES, type NetworkConfig } from './networks';
import { PINNED_MAINNET } from './pinned-mainnet';

/** What only the terminal knows of its networks: their states and the switch between them. */
export interface NetworkControl {
  connection(): ConnectionStatus;
  freshness(): FreshnessView;
  views(): NetworkView[];
  find(id: string): NetworkConfig | null;
  switchTo(next: NetworkConfig): Promise<Result<void>>;
}

/** A network's URL is shown whole in its confirmation (the input schema bounds it at 300 characters). */
const URL_MAX = 300;

type NetworkRequest = 'getConnection' | 'getFreshness' | 'listNetworks' | 'selectNetwork' | 'configureNetwork' | 'getRateLimits';

export function networkHandlers(context: HandlerContext, control: NetworkControl): CoreHandlers<NetworkRequest> {
  const { preferences, confirmer } = context;
  return {
    getConnection: () => ok(control.connection()),
    getFreshness: () => ok(control.freshness()),
    listNetworks: () => ok(control.views()),
    selectNetwork: async ({ networkId }) => {
      const target = control.find(networkId);
      if (!target) return fail('UNKNOWN_NETWORK', `networkId: no network named ${JSON.stringify(networkId)}`, { field: 'networkId' });
      if (target.kind === 'mainnet' && PINNED_MAINNET === null && target.id === 'mainnet') {
        return fail(NETWORK_CODES.NOT_PINNED, 'networkId: mainnet\'s addresses and chain id are pinned in the app, and this build has none (the exchange\'s specification does not publish them; a release build pins them)', { field: 'networkId' });
      }
      if (target.kind !== 'sandbox' && target.restUrl === null) {
        return fail('NETWORK_NOT_CONFIGURED', `${target.name} has no REST address yet: configure its URLs first`, { field: 'networkId' });
      }
      // Refused as insecure before it is saved as the choice (a later start would try it again).
      const secure = target.kind === 'sandbox' ? ok(undefined) : checkNetworkUrls(target);
      if (!secure.ok) return fail(secure.code, `${target.name}: ${secure.message}`, secure.details);
      const saved = preferences.preferences.update((current) => ({ ...current, networkId }));
      if (!saved.ok) return saved;
      const switched = await control.switchTo(target);
      if (!switched.ok) return switched;
      const view = control.views().find((candidate) => candidate.id === networkId);
      return view ? ok(view) : fail('UNKNOWN_NETWORK', networkId);
    },
    configureNetwork: async ({ networkId, restUrl, wsUrl, faucetUrl, chainId, confirmationCode }, caller) => {
      if (networkId === 'mainnet') {
        return fail(NETWORK_CODES.PINNED, 'networkId: mainnet\'s addresses and chain id are pinned in the app; they cannot be configured', { field: 'networkId' });
      }
      const trim = (url: string | null) => (url === null ? null : url.replace(/\/+$/, ''));
      const next = { restUrl: trim(restUrl), wsUrl: trim(wsUrl), faucetUrl: trim(faucetUrl) };
      const secure = checkNetworkUrls(next);
      if (!secure.ok) return secure;
      const saved = preferences.preferences.get().networks[networkId];
      const expectedChain = chainId === undefined ? (saved?.restUrl === next.restUrl ? (saved?.chainId ?? null) : null) : chainId;
      const unchanged = saved !== undefined && saved.restUrl === next.restUrl && saved.wsUrl === next.wsUrl && saved.faucetUrl === next.faucetUrl && (saved.chainId ?? null) === expectedChain;
      if (!unchanged) {
        // A new address is where orders, sessions and withdrawals will go: confirmed outside the page.
        const name = control.find(networkId)?.name ?? networkId;
        const confirmed = await confirmer.confirm(
          {
            action: 'networkAddress',
            title: trusted`Use new addresses for ${name}`,
            lines: [
              next.restUrl === null ? trusted`REST: (none)` : trusted`REST: ${shown(next.restUrl, URL_MAX)}`,
              next.wsUrl === null ? trusted`WebSocket: (derived from REST)` : trusted`WebSocket: ${shown(next.wsUrl, URL_MAX)}`,
              next.faucetUrl === null ? trusted`Faucet: (none)` : trusted`Faucet: ${shown(next.faucetUrl, URL_MAX)}`,
              expectedChain === null ? trusted`Chain id: the one it answers first, then required` : trusted`Chain id: ${expectedChain}`,
              trusted`Orders, sessions and withdrawals on this network will be sent there.`,
            ],
            digest: confirmationDigest('networkAddress', { networkId, ...next, chainId: expectedChain }),
          },
          { windowId: caller.windowId, code: confirmationCode },
        );
        if (!confirmed.ok) return confirmed;
      }
      const stored = preferences.preferences.update((current) => ({
        ...current,
        networks: { ...current.networks, [networkId]: { ...next, chainId: expectedChain } },
      }));
      if (!stored.ok) return stored;
      const view = control.views().find((candidate) => candidate.id === networkId);
      return view ? ok(view) : fail('UNKNOWN_NETWORK', networkId);
    },
    getRateLimits: () => withRuntime(context, (current) => ok(current.rateLimits())),
  };
}
