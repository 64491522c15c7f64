// A test build that pins a fake mainnet: the host's main bundled with build variables naming a
// sandbox on loopback (LT_TEST_BUILD=1, the only build that may pin plaintext, and only on
// loopback), through the release build's own `define` (build/pinned-networks.ts). The page can
// then select "Mainnet (test build)", confirms it as it would the real one, and trades data from
// the pinned sandbox, whose chain id (not the embedded sandbox's) is the one required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { buildPinnedHost, type PinnedBuild } from '../support/pinned-build';
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process';
import { screenshots, until } from '../support/terminal-page';

const FAKE_MAINNET_CHAIN_ID = 7777n;

describe('a test build with a fake mainnet pinned to a sandbox', () => {
  let sandbox: SandboxProcess;
  let pinned: PinnedBuild;
  let terminal: OpenTerminal;
  let page: Page;
  const shot = screenshots(() => page, 'pinned-mainnet');

  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--chain-id', FAKE_MAINNET_CHAIN_ID.toString()]);
    pinned = await buildPinnedHost({
      LT_TEST_BUILD: '1',
      LT_MAINNET_REST_URL: sandbox.url,
      LT_MAINNET_WS_URL: `${sandbox.url.replace(/^http/, 'ws')}/v1/ws`,
      LT_MAINNET_CHAIN_ID: FAKE_MAINNET_CHAIN_ID.toString(),
    });
    terminal = await openTerminal({ bridge: true, host: { entry: pinned.entry } });
    page = terminal.page;
  });

  afterAll(async () => {
    await terminal?.close();
    await sandbox?.stop();
    pinned?.remove();
  });

  it('selects mainnet in the page and connects to the pinned sandbox, checking its chain id', async () => {
    const api = terminal.api;
    const networks = await api.listNetworks({});
    expect(networks.ok && networks.value.find((network) => network.id === 'mainnet')).toMatchObject({
      name: 'Mainnet (test build)',
      configured: true,
      production: true,
      restUrl: sandbox.url,
    });
    // Still pinned: the page cannot point it anywhere else.
    expect(await api.configureNetwork({ networkId: 'mainnet', restUrl: 'https://exchange.example', wsUrl: null, faucetUrl: null })).toMatchObject({ ok: false, code: 'NETWORK_PINNED' });

    const option = page.getByTestId('network-select').locator('option[value=mainnet]');
    await expect.poll(() => option.textContent()).toBe('Mainnet (test build)');
    await page.getByTestId('network-select').selectOption('mainnet');
    // A production network asks first, in the page, as the real mainnet would.
    await page.getByTestId('confirm-dialog').waitFor();
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => page.getByTestId('network-select').inputValue(), { timeout: 30_000 }).toBe('mainnet');

    const markets = await until(async () => {
      const listed = await api.listMarkets({});
      return listed.ok && listed.value.networkId === 'mainnet' && listed.value.markets.length > 0 ? listed.value : null;
    }, "the fake mainnet's markets");
    expect(markets.chainId).toBe(FAKE_MAINNET_CHAIN_ID);
    await until(async () => {
      const connection = await api.getConnection({});
      return connection.ok && connection.value.networkId === 'mainnet' && connection.value.rest === 'up' && connection.value.stream === 'up' ? connection.value : null;
    }, "the fake mainnet's REST and stream up");
    await expect.poll(() => page.getByTestId('connection').first().getAttribute('data-freshness'), { timeout: 30_000 }).toBe('live');
    await shot('01-mainnet-test-build');
    expect(terminal.pageErrors).toEqual([]);
  });
});
