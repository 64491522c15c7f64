// The networks the terminal can talk to. The embedded sandbox is the default; devnet and testnet
// are configuration (REST, WebSocket and faucet URLs, and the chain id they must answer); mainnet
// is pinned in main at build time (pinned-mainnet.ts): no request of the renderer can point it elsewhere.
//
// Every network but one on this machine's loopback (the local sandbox, or a sandbox run beside
// the app) must use https and wss: checkNetworkUrls is applied when a URL is configured and again
// before a network is used, so a settings file written earlier cannot bring plaintext back. The
// chain id a network answers (GET /v1/markets) must equal the expected one (pinned, configured,
// or learned at the first connection and then kept); on a mismatch its markets are refused, so
// nothing is signed for it (sessions and withdrawals sign the chain id).
import { fail, ok, type Result } from '../../../shared/result';

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
  /** The chain id the exchange must answer; null or absent: learned at the first connection, then required. */
  readonly chainId?: bigint | null;
}

/** The chain id the embedded sandbox is started with (`--chain-id`), and so must answer. */
export const SANDBOX_CHAIN_ID = 9889n;

export const SANDBOX_NETWORK: NetworkConfig = {
  id: 'sandbox',
  name: 'Sandbox (local)',
  kind: 'sandbox',
  restUrl: null,
  wsUrl: null,
  faucetUrl: null,
  faucetNetwork: 'sandbox',
  production: false,
  chainId: SANDBOX_CHAIN_ID,
};

export const NETWORK_CODES = {
  INSECURE_URL: 'INSECURE_NETWORK_URL',
  PINNED: 'NETWORK_PINNED',
  NOT_PINNED: 'NETWORK_NOT_PINNED',
  CHAIN_ID_MISMATCH: 'CHAIN_ID_MISMATCH',
} as const;

/** 127.0.0.0/8, ::1 and localhost: the only hosts a plaintext URL may name. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Refuses a plaintext (http/ws) URL for any host but loopback, and any scheme but http(s)/ws(s). */
export function checkNetworkUrl(field: string, url: string | null, secure: 'https:' | 'wss:'): Result<void> {
  if (url === null) return ok(undefined);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail(NETWORK_CODES.INSECURE_URL, `${field}: ${JSON.stringify(url)} is not a URL`, { field });
  }
  const plain = secure === 'https:' ? 'http:' : 'ws:';
  if (parsed.protocol === secure) return ok(undefined);
  if (parsed.protocol === plain && isLoopbackHost(parsed.hostname)) return ok(undefined);
  return fail(
    NETWORK_CODES.INSECURE_URL,
    `${field}: ${JSON.stringify(url)} must use ${secure.slice(0, -1)}; plaintext ${plain.slice(0, -1)} is allowed only for a sandbox on this machine's loopback (127.0.0.1, ::1, localhost)`,
    { field },
  );
}

export function checkNetworkUrls(network: Pick<NetworkConfig, 'restUrl' | 'wsUrl' | 'faucetUrl'>): Result<void> {
  for (const [field, url, secure] of [
    ['restUrl', network.restUrl, 'https:'],
    ['wsUrl', network.wsUrl, 'wss:'],
    ['faucetUrl', network.faucetUrl, 'https:'],
  ] as const) {
    const checked = checkNetworkUrl(field, url, secure);
    if (!checked.ok) return checked;
  }
  return ok(undefined);
}

/** The exchange's chain id against the expected one; null expected means "not known yet" (accepted, then kept). */
export function checkChainId(network: Pick<NetworkConfig, 'name' | 'chainId'>, answered: bigint): Result<void> {
  const expected = network.chainId ?? null;
  if (expected === null || expected === answered) return ok(undefined);
  return fail(
    NETWORK_CODES.CHAIN_ID_MISMATCH,
    `chain_id: ${network.name} answered chain id ${answered}, but this terminal expects ${expected}; nothing is signed for it (a signature names the chain id). Check the network's address.`,
    { field: 'chain_id', expected: expected.toString(), answered: answered.toString() },
  );
}

/** The WebSocket endpoint of a REST base URL: same host, secure scheme when REST is secure. */
export function websocketUrlFor(restUrl: string): string {
  const url = new URL(restUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/$/, '')}/v1/ws`;
  return url.toString();
}
