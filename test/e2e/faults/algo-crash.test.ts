// Main is killed (SIGKILL of the host's process group, no shutdown code) while an execution
// algorithm is signing a child (the exchange holds that request past the crash), once during a
// TWAP and once during a chase's amend, and started again on the same data directory and
// keychain. After the restart each algorithm is paused (reason: the restart), its child left
// signing is found through the journal and the exchange and never signed again, its state matches
// the exchange's ledger exactly, and nothing is signed for it until the trader resumes it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { AlgoSpec, AlgoView } from '../../../shared/ipc/views/algos';
import type { Market } from '../../../shared/market/market';
import type { Result } from '../../../shared/result';
import { ALGO_REASONS } from '../../../main/services/algos/codes';
import { openTerminal, type OpenTerminal } from '../../support/open-terminal';
import { startSandboxProcess, type SandboxProcess } from '../../support/sandbox-process';
import { until } from '../../support/terminal-harness';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

interface LedgerOrder {
  readonly order_id: string;
  readonly owner?: { ContractId?: string };
  readonly price: string;
  readonly quantity: string;
  readonly quantity_fill?: string;
  readonly close?: boolean;
  readonly cancel?: boolean;
}

describe('main killed while an algorithm signs a child', () => {
  let sandbox: SandboxProcess;
  let terminal: OpenTerminal | null = null;
  let api: TerminalApi;
  let market: Market;
  let account: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-algo-crash-data-'));
  const keyringHome = mkdtempSync(join(tmpdir(), 'lt-algo-crash-keyring-'));

  const post = (path: string, body: unknown) => fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ledger = async (): Promise<LedgerOrder[]> => {
    const body = (await (await fetch(`${sandbox.url}/control/ledger/orders?market_id=${market.market_id}`)).json()) as { orders: LedgerOrder[] };
    return body.orders.filter((order) => order.owner?.ContractId === account);
  };
  const inside = async (): Promise<{ bid: bigint; ask: bigint }> => {
    const depth = (await (await fetch(`${sandbox.url}/v1/depth?market_id=${market.market_id}&precision=10`)).json()) as Record<string, { buys: { price: string }[]; sells: { price: string }[] } | undefined>;
    const sides = (depth.view ?? depth.orders)!;
    return { bid: BigInt(sides.buys[0]!.price), ask: BigInt(sides.sells[0]!.price) };
  };
  const sizeAt = (price: bigint) => {
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    const byValue = ((2n * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 2n) * step;
    const byDust = ((market.dust + step - 1n) / step) * step;
    return byValue > byDust ? byValue : byDust;
  };
  const tick = () => 10n ** BigInt(market.quote.decimals - market.quote.max_precision);
  const algo = async (id: string): Promise<AlgoView | undefined> => value(await api.getAlgos({})).find((candidate) => candidate.id === id);
  /** The exchange holds the next signed request for a while; main is killed while it waits, and the request lands after. */
  const crashWhileSigning = async (signing: () => Promise<boolean>) => {
    await post('/control/faults/delay', { count: 1, delay_ms: 4000, method: 'POST', path_prefix: '/v1/session/actions' });
    await until(signing, 30_000, 'a child being signed');
    await terminal!.restartHost({ crash: true, whileDown: () => new Promise((resolve) => setTimeout(resolve, 5000)) });
    api = terminal!.api;
    await until(async () => (await api.getAlgos({})).ok, 30_000, 'the algorithms after the restart');
  };
  /** Paused by the restart with every child resolved (none signing or unknown). */
  const settledAfterRestart = (id: string) =>
    until(async () => {
      const view = await algo(id);
      return view !== undefined && view.state === 'paused' && view.children.every((child) => child.status !== 'signing' && child.status !== 'unknown') ? view : false;
    }, 60_000, 'the algorithm reconciled and paused');
  /** The algorithm's state is the exchange's: the same orders, the same fills, nothing doubled. */
  const expectExact = async (view: AlgoView, before: ReadonlySet<string>) => {
    const mine = (await ledger()).filter((order) => !before.has(order.order_id));
    const childOrders = view.children.map((child) => child.orderId).filter((id) => id !== null);
    expect(new Set(childOrders).size).toBe(childOrders.length);
    expect([...childOrders].sort()).toEqual(mine.map((order) => order.order_id).sort());
    const filled = mine.reduce((sum, order) => sum + BigInt(order.quantity_fill ?? '0'), 0n);
    expect(view.filled).toBe(filled);
    for (const child of view.children) {
      const order = mine.find((candidate) => candidate.order_id === child.orderId);
      if (order === undefined) continue;
      expect(child.filled).toBe(BigInt(order.quantity_fill ?? '0'));
      expect(child.status === 'open').toBe(order.close !== true && order.cancel !== true);
    }
    return mine;
  };

  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--control']);
    terminal = await openTerminal({ browser: false, bridge: true, host: { dataDir, keyringHome, args: ['--exchange-url', sandbox.url] } });
    api = terminal.api;
    await until(async () => (await api.listMarkets({})).ok, 30_000, 'markets');
    const markets = value(await api.listMarkets({})).markets;
    market = markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC') ?? markets[0]!;
    value(await api.createOwnerKey({ style: 'ledger' }));
    account = value(await api.createTradeAccount({})).tradeAccountId;
    value(await api.mintFromFaucet({}));
    value(await api.whitelistAccount({}));
    value(await api.createSession({ marketIds: markets.map((candidate) => candidate.market_id), days: 1 }));
    await post('/control/maker', { pinned: true });
  }, 180_000);

  afterAll(async () => {
    await terminal?.close();
    await sandbox?.stop();
  });

  it('TWAP: back paused with the slice it was signing found on the exchange, nothing doubled, state exact', async () => {
    const before = new Set((await ledger()).map((order) => order.order_id));
    const { bid } = await inside();
    const slice = sizeAt(bid);
    const spec: AlgoSpec = { marketId: market.market_id, turbo: false, side: 'Buy', quantity: slice * 5n, limitPrice: null, params: { kind: 'twap', durationMs: 10_000, intervalMs: 2_000, sizeJitterBps: 0n, timeJitterBps: 0n, slice: { kind: 'touch' } } };
    const started = value(await api.startAlgo(spec));
    await until(async () => ((await algo(started.id))?.children.length ?? 0) >= 2, 30_000, 'two slices');
    let signing = -1;
    await crashWhileSigning(async () => {
      signing = (await algo(started.id))?.children.findIndex((child) => child.status === 'signing') ?? -1;
      return signing >= 0;
    });
    const view = await settledAfterRestart(started.id);
    expect(view.reason?.code).toBe(ALGO_REASONS.RESTART);
    // The slice being signed landed after the crash: found through the journal and the exchange.
    expect(view.children[signing]?.orderId).not.toBeNull();
    const journal = value(await api.getJournal({ limit: 500 }));
    const landed = journal.find((entry) => entry.kind === 'reconciled' && entry.id === view.children[signing]!.journalId);
    expect(landed?.status).toBe('landed');
    const mine = await expectExact(view, before);
    expect(view.filled).toBeLessThanOrEqual(spec.quantity);
    // Nothing restarts trading by itself.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect((await ledger()).filter((order) => !before.has(order.order_id))).toHaveLength(mine.length);
    expect((await algo(started.id))?.state).toBe('paused');
    value(await api.cancelAlgo({ id: started.id }));
  }, 180_000);

  it('chase: back paused after a crash during its amend, one child open on the exchange, state exact', async () => {
    const before = new Set((await ledger()).map((order) => order.order_id));
    const { bid, ask } = await inside();
    const spec: AlgoSpec = { marketId: market.market_id, turbo: false, side: 'Buy', quantity: sizeAt(bid), limitPrice: ask + (ask - bid) + 200n * tick(), params: { kind: 'chase', offsetTicks: 0n, maxAmendsPerMinute: 30 } };
    const started = value(await api.startAlgo(spec));
    await until(async () => (await algo(started.id))?.children.at(-1)?.status === 'open', 30_000, 'the chase resting');
    let signing = -1;
    await crashWhileSigning(async () => {
      // The market moves up; the chase amends into the held request.
      await post('/control/markets/price', { market_id: market.market_id, price: (ask + 20n * tick()).toString() });
      signing = (await algo(started.id))?.children.findIndex((child) => child.status === 'signing') ?? -1;
      return signing >= 0;
    });
    const view = await settledAfterRestart(started.id);
    expect(view.reason?.code).toBe(ALGO_REASONS.RESTART);
    // The amend landed after the crash: the replacement is the child, the order it replaced ended.
    expect(view.children[signing]?.orderId).not.toBeNull();
    expect(view.children.slice(0, signing).every((child) => child.status !== 'open')).toBe(true);
    const mine = await expectExact(view, before);
    expect(mine.filter((order) => order.close !== true && order.cancel !== true).length).toBeLessThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect((await ledger()).filter((order) => !before.has(order.order_id))).toHaveLength(mine.length);
    value(await api.cancelAlgo({ id: started.id }));
  }, 180_000);
});
