import { describe, expect, it } from 'vitest';
import { parsePinnedMainnet, PIN_CODE } from '../../../../../main/services/network/pinned-endpoints';
import { PINNED_MAINNET } from '../../../../../main/services/network/pinned-mainnet';

const release = { restUrl: 'https://api.exchange.example/', wsUrl: 'wss://api.exchange.example/v1/ws', chainId: '1' };

describe('parsePinnedMainnet', () => {
  it('takes a release pin (https, wss, a chain id) and trims the trailing slash', () => {
    expect(parsePinnedMainnet(release, 'file')).toEqual({ ok: true, value: { restUrl: 'https://api.exchange.example', wsUrl: 'wss://api.exchange.example/v1/ws', chainId: 1n, test: false } });
    expect(parsePinnedMainnet(null, 'file')).toEqual({ ok: true, value: null });
  });

  it.each([
    [{ ...release, restUrl: 'http://api.exchange.example' }, 'restUrl', /must use https/],
    [{ ...release, wsUrl: 'ws://api.exchange.example/v1/ws' }, 'wsUrl', /must use wss/],
    [{ ...release, restUrl: 'https://127.0.0.1:8443' }, 'restUrl', /only a build marked as a test build/],
    [{ ...release, restUrl: 'not a url' }, 'restUrl', /is not a URL/],
    [{ ...release, restUrl: 'https://user:secret@api.exchange.example' }, 'restUrl', /credentials/],
    [{ ...release, wsUrl: 'wss://api.exchange.example/v1/ws?token=1' }, 'wsUrl', /query or fragment/],
    [{ restUrl: release.restUrl, wsUrl: release.wsUrl }, 'chainId', /is missing/],
    [{ ...release, chainId: '0x1' }, 'chainId', /positive whole number/],
    [{ ...release, chainId: '18446744073709551616' }, 'chainId', /fits a u64/],
    [{ ...release, faucetUrl: 'https://faucet.example' }, 'faucetUrl', /not a field/],
    [{ ...release, test: 'yes' }, 'test', /true or false/],
    [{ ...release, restUrl: undefined }, 'restUrl', /is missing/],
  ])('refuses %j, naming %s and the value', (value, field, why) => {
    const parsed = parsePinnedMainnet(value, 'build/networks.release.json mainnet');
    expect(parsed).toMatchObject({ ok: false, code: PIN_CODE, details: { field } });
    if (parsed.ok) return;
    expect(parsed.message).toMatch(why);
    expect(parsed.message).toContain('build/networks.release.json mainnet');
    expect(parsed.message).toContain(field);
  });

  it('lets only a test build pin plaintext, and then only on loopback', () => {
    const local = { restUrl: 'http://127.0.0.1:4000', wsUrl: 'ws://127.0.0.1:4000/v1/ws', chainId: '7777' };
    expect(parsePinnedMainnet(local, 'vars')).toMatchObject({ ok: false, details: { field: 'restUrl' } });
    expect(parsePinnedMainnet({ ...local, test: true }, 'vars')).toMatchObject({ ok: true, value: { restUrl: 'http://127.0.0.1:4000', chainId: 7777n, test: true } });
    expect(parsePinnedMainnet({ ...release, test: true }, 'vars')).toMatchObject({ ok: false, details: { field: 'restUrl' } });
    expect(parsePinnedMainnet({ ...local, wsUrl: 'ws://10.0.0.2/v1/ws', test: true }, 'vars')).toMatchObject({ ok: false, details: { field: 'wsUrl' } });
    expect(parsePinnedMainnet({ ...local, restUrl: 'ftp://127.0.0.1', test: true }, 'vars')).toMatchObject({ ok: false, details: { field: 'restUrl' } });
  });

  it('pins nothing when main runs from source (the name is defined only in a build)', () => {
    expect(PINNED_MAINNET).toBeNull();
  });
});
