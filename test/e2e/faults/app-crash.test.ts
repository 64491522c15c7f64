// The app is killed (SIGKILL, no shutdown code) while a signed order is on its way, and started
// again on the same data directory and keychain. Before it signs anything new it reconciles the
// journal with the exchange: the order that landed is found, nothing is sent twice, and the
// journal, the app's open orders and the exchange's ledger agree.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import { openTerminal, type OpenTerminal } from '../../support/open-terminal';
import { startSandboxProcess, type SandboxProcess } from '../../support/sandbox-process';
import { until } from '../../support/terminal-harness';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

describe('app killed mid-submission', () => {
  let sandbox: SandboxProcess;
  let terminal: OpenTerminal | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-crash-data-'));
  const keyringHome = mkdtempSync(join(tmpdir(), 'lt-crash-keyring-'));

  const boot = async (): Promise<TerminalApi> => {
    terminal = await openTerminal({ browser: false, bridge: true, host: { dataDir, keyringHome, args: ['--exchange-url', sandbox.url] } });
    return terminal.api;
  };

  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--control']);
  });

  afterAll(async () => {
    await terminal?.close();
    await sandbox?.stop();
  });

  it('reconciles the journal with the exchange on start and does not resend', async () => {
    let api = await boot();
    await until(async () => (await api.listMarkets({})).ok, 30_000, 'markets');
    const market = value(await api.listMarkets({})).markets[0]!;
    value(await api.createOwnerKey({ style: 'ledger' }));
    const account = value(await api.createTradeAccount({}));
    value(await api.mintFromFaucet({}));
    value(await api.whitelistAccount({}));
    value(await api.createSession({ marketIds: [market.market_id], days: 1 }));

    const depth = (await (await fetch(`${sandbox.url}/v1/depth?market_id=${market.market_id}&precision=10`)).json()) as Record<string, { buys: { price: string }[] } | undefined>;
    const tick = 10n ** BigInt(market.quote.decimals - market.quote.max_precision);
    const price = ((BigInt((depth.view ?? depth.orders)!.buys[0]!.price) * 97n) / 100n / tick) * tick;
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    const byValue = ((2n * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 2n) * step;
    const byDust = ((market.dust + step - 1n) / step) * step;
    const quantity = byValue > byDust ? byValue : byDust;

    // The exchange holds the request for three seconds; the app dies one second in.
    await fetch(`${sandbox.url}/control/faults/delay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 1, delay_ms: 3000, method: 'POST', path_prefix: '/v1/session/actions' }) });
    let early: unknown = null;
    void api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price, quantity }).then((result) => (early = result));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Still on its way when the app dies (an early answer would mean it never reached the exchange).
    expect(early).toBeNull();
    // The exchange executes the request after the app is gone; then the app starts again on the same data and keychain.
    await terminal!.restartHost({ crash: true, whileDown: () => new Promise((resolve) => setTimeout(resolve, 3000)) });
    api = terminal!.api;
    await until(async () => {
      const journal = await api.getJournal({ limit: 50 });
      return journal.ok && journal.value.some((entry) => entry.kind === 'reconciled');
    }, 30_000, 'the reconciliation at start');
    const journal = value(await api.getJournal({ limit: 50 }));
    const reconciled = journal.find((entry) => entry.kind === 'reconciled')!;
    expect(reconciled.status).toBe('landed');
    expect(journal.filter((entry) => entry.kind === 'signed' && entry.endpoint === 'POST /v1/session/actions')).toHaveLength(1);

    const ledger = (await (await fetch(`${sandbox.url}/control/ledger/orders?market_id=${market.market_id}`)).json()) as { orders: { order_id: string; owner?: { ContractId?: string }; price: string; close?: boolean }[] };
    const ours = ledger.orders.filter((order) => order.owner?.ContractId === account.tradeAccountId);
    expect(ours).toHaveLength(1);
    expect(ours[0]!.price).toBe(price.toString());
    await until(async () => {
      const open = await api.getOrders({});
      return open.ok && open.value.open.map((order) => order.orderId).join() === ours.map((order) => order.order_id).join();
    }, 20_000, 'the app to show the order that landed');
    // Trading goes on after the reconciliation, with the keys from the keychain.
    expect(value(await api.getAccountState({})).canTrade).toBe(true);
    const next = value(await api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: price - tick, quantity }));
    expect(next.orders).toHaveLength(1);
  });
});
