// Network addresses: https and wss everywhere but this machine's loopback; the chain id answered
// must be the one expected (or is learned when none is).
import { describe, expect, it } from 'vitest';
import { checkChainId, checkNetworkUrl, checkNetworkUrls, isLoopbackHost } from '../../../../../main/services/network/networks';

describe('network addresses', () => {
  it('plaintext only on loopback', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '[::1]', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['127.0.0.1.evil.example', 'localhost.evil.example', '10.0.0.1', '0.0.0.0', '192.0.2.2', 'example.com', '[::ffff:7f00:1]']) expect(isLoopbackHost(host), host).toBe(false);
    expect(checkNetworkUrl('restUrl', 'https://exchange.example', 'https:').ok).toBe(true);
    expect(checkNetworkUrl('restUrl', 'http://127.0.0.1:4000', 'https:').ok).toBe(true);
    expect(checkNetworkUrl('restUrl', 'http://exchange.example', 'https:')).toMatchObject({ ok: false, code: 'INSECURE_NETWORK_URL', details: { field: 'restUrl' } });
    expect(checkNetworkUrl('restUrl', 'ftp://exchange.example', 'https:').ok).toBe(false);
    expect(checkNetworkUrl('wsUrl', 'ws://exchange.example/v1/ws', 'wss:')).toMatchObject({ ok: false, code: 'INSECURE_NETWORK_URL' });
    expect(checkNetworkUrl('wsUrl', 'ws://[::1]:4000/v1/ws', 'wss:').ok).toBe(true);
    expect(checkNetworkUrl('wsUrl', 'https://exchange.example', 'wss:').ok).toBe(false);
    expect(checkNetworkUrls({ restUrl: 'https://a.example', wsUrl: null, faucetUrl: 'http://b.example' })).toMatchObject({ ok: false, details: { field: 'faucetUrl' } });
  });

  it('the chain id answered must be the expected one; none expected is accepted (then kept by the runtime)', () => {
    expect(checkChainId({ name: 'Testnet', chainId: 0n }, 0n).ok).toBe(true);
    expect(checkChainId({ name: 'Testnet', chainId: 0n }, 9889n)).toMatchObject({ ok: false, code: 'CHAIN_ID_MISMATCH', details: { expected: '0', answered: '9889' } });
    expect(checkChainId({ name: 'Testnet', chainId: null }, 5n).ok).toBe(true);
    expect(checkChainId({ name: 'Testnet' }, 5n).ok).toBe(true);
  });
});
