// The network an AccountService under test belongs to: the local sandbox, never reached (the
// tests script the exchange), and a keychain that is there.
import type { NetworkConfig } from '../../../../main/services/network/networks';

export const TEST_SANDBOX_NETWORK: NetworkConfig = { id: 'sandbox', name: 'Sandbox', kind: 'sandbox', restUrl: 'http://127.0.0.1:1', wsUrl: null, faucetUrl: null, faucetNetwork: 'sandbox', production: false, chainId: 9889n };
export const TEST_KEYCHAIN = { available: true, description: 'test', reason: null, commands: [] };
