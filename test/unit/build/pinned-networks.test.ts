import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PINNED_MAINNET_DEFINE, pinnedMainnetForBuild, pinnedNetworksDefine, RELEASE_NETWORKS_FILE } from '../../../build/pinned-networks';

const root = resolve(import.meta.dirname, '../../..');
const variables = { LT_MAINNET_REST_URL: 'https://api.exchange.example', LT_MAINNET_WS_URL: 'wss://api.exchange.example/v1/ws', LT_MAINNET_CHAIN_ID: '42' };

function networksFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'lt-networks-')), 'networks.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('the mainnet a build pins', () => {
  it('is none in the checked-in reviewed file, and the define says null', () => {
    const file = JSON.parse(readFileSync(join(root, RELEASE_NETWORKS_FILE), 'utf8')) as { mainnet: unknown };
    expect(file.mainnet).toBeNull();
    expect(pinnedMainnetForBuild({}, root)).toBeNull();
    expect(pinnedNetworksDefine({}, root)).toEqual({ [PINNED_MAINNET_DEFINE]: 'null' });
  });

  it('comes from all three build variables, as a JSON literal for main only', () => {
    const define = pinnedNetworksDefine(variables, root);
    expect(JSON.parse(define[PINNED_MAINNET_DEFINE]!)).toEqual({ restUrl: 'https://api.exchange.example', wsUrl: 'wss://api.exchange.example/v1/ws', chainId: '42', test: false });
  });

  it('comes from a reviewed file', () => {
    const file = networksFile({ about: 'release', mainnet: { restUrl: 'https://api.exchange.example', wsUrl: 'wss://api.exchange.example/v1/ws', chainId: '42' } });
    expect(pinnedMainnetForBuild({ LT_NETWORKS_FILE: file }, root)).toMatchObject({ restUrl: 'https://api.exchange.example', chainId: 42n, test: false });
  });

  it.each([
    [{ ...variables, LT_MAINNET_CHAIN_ID: '' }, /LT_MAINNET_CHAIN_ID is missing/],
    [{ LT_MAINNET_REST_URL: variables.LT_MAINNET_REST_URL }, /LT_MAINNET_WS_URL is missing/],
    [{ ...variables, LT_MAINNET_REST_URL: 'http://api.exchange.example' }, /LT_MAINNET_REST_URL "http:\/\/api\.exchange\.example" must use https/],
    [{ ...variables, LT_MAINNET_CHAIN_ID: 'one' }, /LT_MAINNET_CHAIN_ID "one" is not a positive whole number/],
    [{ ...variables, LT_TEST_BUILD: 'yes' }, /LT_TEST_BUILD "yes" is not 1/],
    [{ ...variables, LT_TEST_BUILD: '1' }, /LT_MAINNET_REST_URL "https:\/\/api\.exchange\.example" is not on this machine's loopback/],
  ])('fails the build on %j, naming the variable and the value', (env, message) => {
    expect(() => pinnedMainnetForBuild(env, root)).toThrow(message);
  });

  it('fails the build on a bad file, naming the file, the field and the value', () => {
    expect(() => pinnedMainnetForBuild({ LT_NETWORKS_FILE: networksFile('{') }, root)).toThrow(/cannot be read as JSON/);
    expect(() => pinnedMainnetForBuild({ LT_NETWORKS_FILE: networksFile({}) }, root)).toThrow(/mainnet is missing/);
    expect(() => pinnedMainnetForBuild({ LT_NETWORKS_FILE: networksFile({ mainnet: null, testnet: {} }) }, root)).toThrow(/testnet \{\} is not a field/);
    const insecure = networksFile({ mainnet: { restUrl: 'http://api.exchange.example', wsUrl: 'wss://api.exchange.example/v1/ws', chainId: '42' } });
    expect(() => pinnedMainnetForBuild({ LT_NETWORKS_FILE: insecure }, root)).toThrow(new RegExp(`${insecure.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} mainnet: restUrl "http://api.exchange.example" must use https`));
  });

  it('fails the build when both the file and the variables pin mainnet', () => {
    const file = networksFile({ mainnet: { restUrl: 'https://other.example', wsUrl: 'wss://other.example/v1/ws', chainId: '7' } });
    expect(() => pinnedMainnetForBuild({ ...variables, LT_NETWORKS_FILE: file }, root)).toThrow(/pinned both in .* and by LT_MAINNET_\*/);
  });

  it('marks a test build, which alone may pin a fake mainnet on loopback over plaintext', () => {
    const local = { LT_MAINNET_REST_URL: 'http://127.0.0.1:4000', LT_MAINNET_WS_URL: 'ws://127.0.0.1:4000/v1/ws', LT_MAINNET_CHAIN_ID: '7777' };
    expect(() => pinnedMainnetForBuild(local, root)).toThrow(/LT_MAINNET_REST_URL "http:\/\/127\.0\.0\.1:4000" must use https/);
    expect(pinnedMainnetForBuild({ ...local, LT_TEST_BUILD: '1' }, root)).toEqual({ restUrl: 'http://127.0.0.1:4000', wsUrl: 'ws://127.0.0.1:4000/v1/ws', chainId: 7777n, test: true });
  });
});
