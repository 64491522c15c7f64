// The networks the terminal can talk to. The embedded sandbox is the default; devnet, testnet
// and mainnet are configuration (REST, WebSocket and faucet URLs).

export type NetworkKind = 'sandbox' | 'devnet' | 'testnet' | 'mainnet';

export interface NetworkConfig {
  readonly id: string;
  readonly name: string;
  readonly kind: NetworkKind;
  /** REST base URL; null for the embedded sandbox until it listens. */
  readonly restUrl: string | null;
  /** WebSocket URL of `/v1/ws`; derived from restUrl when null. */
  readonly wsUrl: string | null;
  /** Faucet base URL and the network name in its path; null where there is no faucet (mainnet). */
  readonly faucetUrl: string | null;
  readonly faucetNetwork: string | null;
  /** Production networks have no faucet or whitelist helper and ask for confirmation more often. */
  readonly production: boolean;
}

export const SANDBOX_NETWORK: NetworkConfig = {
  id: 'sandbox',
  name: 'Sandbox (local)',
  kind: 'sandbox',
  restUrl: null,
  wsUrl: null,
  faucetUrl: null,
  faucetNetwork: 'sandbox',
  production: false,
};

/** The WebSocket endpoint of a REST base URL: same host, secure scheme when REST is secure. */
export function websocketUrlFor(restUrl: string): string {
  const url = new URL(restUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/$/, '')}/v1/ws`;
  return url.toString();
}
