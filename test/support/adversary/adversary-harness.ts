// A terminal onboarded against a real sandbox through the adversarial proxy: the terminal knows
// only the proxy's address (a devnet-kind network on loopback, the sandbox's chain id expected);
// the tests read the exchange directly (`harness.base()` is the sandbox's own address), so a lie
// of the proxy never reaches the referee.
import { SANDBOX_CHAIN_ID, type NetworkConfig } from '../../../main/services/network/networks';
import type { Market } from '../../../shared/market/market';
import { startSandboxProcess, type SandboxProcess } from '../sandbox-process';
import { startOnboarded, type Harness } from '../terminal-harness';
import { startExchangeProxy, type ExchangeProxy } from './exchange-proxy';

export interface Adversary {
  readonly harness: Harness;
  readonly proxy: ExchangeProxy;
  readonly sandbox: SandboxProcess;
  readonly tradeAccountId: string;
  readonly markets: Market[];
  readonly market: Market;
  stop(): Promise<void>;
}

export function proxiedNetwork(proxyUrl: string): NetworkConfig {
  return { id: 'devnet', name: 'Sandbox behind a lying proxy', kind: 'devnet', restUrl: proxyUrl, wsUrl: null, faucetUrl: proxyUrl, faucetNetwork: 'sandbox', production: false, chainId: SANDBOX_CHAIN_ID };
}

export async function startAdversary(options: { lanes?: number; requestTimeoutMs?: number } = {}): Promise<Adversary> {
  const sandbox = await startSandboxProcess(['--control', '--chain-id', SANDBOX_CHAIN_ID.toString()]);
  let proxy: ExchangeProxy | undefined;
  try {
    proxy = await startExchangeProxy(sandbox.url);
    const onboarded = await startOnboarded({ ...options, networkOverride: proxiedNetwork(proxy.url), exchangeUrl: sandbox.url });
    const running = proxy;
    return {
      ...onboarded,
      proxy: running,
      sandbox,
      async stop() {
        await onboarded.harness.stop();
        await running.stop();
        await sandbox.stop();
      },
    };
  } catch (error) {
    await proxy?.stop();
    await sandbox.stop();
    throw error;
  }
}
