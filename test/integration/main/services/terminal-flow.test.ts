// Main's services end to end against a real sandbox child process: onboarding from nothing,
// market data through the hub, orders placed, filled and cancelled. The keychain is an in-memory
// store here (the real keychain has its own integration test and the e2e run uses it).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSandboxSpawner } from '../../../../main/services/network/sandbox-process-node';
import { systemClock } from '../../../../main/services/system-clock';
import { createTerminal, type Terminal } from '../../../../main/services/terminal';
import type { BookFrame, FillNotice, OrdersSnapshot } from '../../../../shared/ipc/views';
import { ok } from '../../../../shared/result';
import { MemorySecretStore } from '../../../support/memory-secret-store';
import { caller, until, value } from '../../../support/terminal-harness';


describe('terminal services against the sandbox', () => {
  let terminal: Terminal;
  const pushes: { stream: string; payload: unknown }[] = [];

  beforeAll(async () => {
    terminal = createTerminal({
      clock: systemClock,
      host: 'browser',
      version: 'test',
      dataDir: mkdtempSync(join(tmpdir(), 'lt-flow-')),
      openKeychain: () => Promise.resolve(ok(new MemorySecretStore())),
      spawnSandbox: nodeSandboxSpawner({ modulePath: join(process.cwd(), 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] }),
      random: (length) => new Uint8Array(randomBytes(length)),
      sandboxArgs: ['--control', '--maker-profile', 'thin-legacy'],
    });
    terminal.windows.attach('w1', { send: (stream, payload) => pushes.push({ stream, payload }) });
    value(await terminal.start());
  });

  afterAll(async () => {
    await terminal?.stop();
  });

  it('onboards from nothing to a live session', async () => {
    const h = terminal.handlers;
    const markets = value(await h.listMarkets({}, caller));
    expect(markets.markets.length).toBeGreaterThanOrEqual(4);
    expect(value(await h.getAccountState({}, caller)).canTrade).toBe(false);
    const owner = value(await h.createOwnerKey({ style: 'ledger' }, caller));
    expect(owner.address).toMatch(/^0x[0-9a-f]{64}$/);
    const account = value(await h.createTradeAccount({}, caller));
    expect(account.tradeAccountId).toMatch(/^0x[0-9a-f]{64}$/);
    value(await h.mintFromFaucet({}, caller));
    value(await h.whitelistAccount({}, caller));
    const session = value(await h.createSession({ marketIds: markets.markets.map((market) => market.market_id), days: 30 }, caller));
    expect(session.state).toBe('active');
    const state = value(await h.getAccountState({}, caller));
    expect(state.canTrade).toBe(true);
    expect(state.steps.map((step) => step.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
  });

  it('streams a live book, places an order that rests, one that fills, and cancels everything', async () => {
    const h = terminal.handlers;
    const markets = value(await h.listMarkets({}, caller));
    const market = markets.markets[0]!;
    value(await h.subscribeBook({ marketId: market.market_id, precision: 10n, levels: 20 }, caller));
    const frame = await until(() => pushes.map((push) => push.payload as BookFrame).find((payload) => (payload as BookFrame).state === 'live' && (payload as BookFrame).bids?.length > 0 && (payload as BookFrame).asks?.length > 0));
    const bestBid = frame.bids[0]!.price;
    const bestAsk = frame.asks[0]!.price;
    expect(bestBid).toBeLessThan(bestAsk);

    const tick = 10n ** BigInt(market.quote.decimals - market.quote.max_precision);
    const restingPrice = ((bestBid * 9n) / 10n / tick) * tick;
    const quantityStep = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    // The smallest quantity on the step that passes min_order at a price and the dust threshold.
    const smallest = (price: bigint) => {
      const byValue = ((market.min_order * 10n ** BigInt(market.base.decimals)) / price / quantityStep + 2n) * quantityStep;
      const byDust = ((market.dust + quantityStep - 1n) / quantityStep) * quantityStep;
      return byValue > byDust ? byValue : byDust;
    };
    let quantity = smallest(restingPrice);
    const rest = await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: restingPrice, quantity }, caller);
    const placed = value(rest);
    expect(placed.orders).toHaveLength(1);
    const restingId = placed.orders[0]!.orderId;
    const open = value(await h.getOrders({}, caller));
    expect(open.open.some((order) => order.orderId === restingId)).toBe(true);

    quantity = smallest(bestAsk);
    const take = value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ((bestAsk * 11n) / 10n / tick) * tick, quantity }, caller));
    expect(take.orders[0]!.filled).toBeGreaterThan(0n);
    await until(() => pushes.find((push) => push.stream === 'fill' && (push.payload as FillNotice).fill.orderId === take.orders[0]!.orderId));

    const report = value(await h.cancelAllOrders({}, caller));
    expect(report.cancelled).toContain(restingId);
    expect(report.failed).toEqual([]);
    const after = value(await h.getOrders({}, caller));
    expect(after.open.some((order) => order.orderId === restingId)).toBe(false);
    const snapshot = pushes.filter((push) => push.stream === 'orders').at(-1)?.payload as OrdersSnapshot;
    expect(snapshot.fills.length).toBeGreaterThan(0);
    const journal = value(await h.getJournal({ limit: 20 }, caller));
    expect(journal.filter((entry) => entry.kind === 'signed').length).toBeGreaterThanOrEqual(3);
  });

  it('funds locked by an order on a Turbo book show under that book, marked Turbo, and count in the totals', async () => {
    const h = terminal.handlers;
    const market = value(await h.listMarkets({}, caller)).markets[0]!;
    value(await h.subscribeBook({ marketId: market.market_id, precision: 10n, levels: 20 }, caller));
    const frame = await until(() => pushes.map((push) => push.payload as BookFrame).find((payload) => payload.state === 'live' && payload.bids?.length > 0));
    const tick = 10n ** BigInt(market.quote.decimals - market.quote.max_precision);
    const price = ((frame.bids[0]!.price * 95n) / 100n / tick) * tick;
    const quantity = 10n ** BigInt(market.base.decimals - 2); // 0.01 base: above the Turbo book's minimum
    const placed = value(await h.placeOrder({ marketId: market.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Spot' }, price, quantity }, caller));
    expect(placed.orders[0]).toMatchObject({ turbo: true });
    const lockedValue = (price * quantity) / 10n ** BigInt(market.base.decimals);
    const quote = await until(async () => {
      const usdc = value(await h.getBalances({}, caller)).find((balance) => balance.assetId === market.quote.asset);
      return usdc?.books.some((book) => book.turbo && book.locked >= lockedValue) ? usdc : undefined;
    }, 10_000, 'the Turbo book in the balances');
    const turboBook = quote.books.find((book) => book.turbo)!;
    expect(turboBook.marketId).toBe(market.market_id);
    expect(quote.locked).toBeGreaterThanOrEqual(turboBook.locked);
    value(await h.cancelAllOrders({}, caller));
  });

  it('a request committed but whose answer was lost is reconciled, not resent', async () => {
    const h = terminal.handlers;
    const base = terminal.restUrl()!;
    const markets = value(await h.listMarkets({}, caller));
    const market = markets.markets[1]!;
    const ladder = await (await fetch(`${base}/v1/depth?market_id=${market.market_id}&precision=10`)).json() as { view?: { buys: { price: string }[] }; orders?: { buys: { price: string }[] } };
    const bestBid = BigInt((ladder.view ?? ladder.orders)!.buys[0]!.price);
    const tick = 10n ** BigInt(market.quote.decimals - market.quote.max_precision);
    const price = ((bestBid * 95n) / 100n / tick) * tick;
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    // Twice the minimum: the quantity may be lowered to a whole quote value before signing.
    const byValue = ((2n * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 2n) * step;
    const byDust = ((market.dust + step - 1n) / step) * step;
    const quantity = byValue > byDust ? byValue : byDust;

    await fetch(`${base}/control/faults/drop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 1, method: 'POST', path_prefix: '/v1/session/actions' }) });
    const lost = await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price, quantity }, caller);
    expect(lost).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });

    // The next request waits for the reconciliation, which finds the order that landed.
    const next = value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: price - tick, quantity }, caller));
    expect(next.orders).toHaveLength(1);
    const journal = value(await h.getJournal({ limit: 50 }, caller));
    const reconciled = journal.find((entry) => entry.kind === 'reconciled');
    expect(reconciled).toMatchObject({ status: 'landed' });

    const ledger = await (await fetch(`${base}/control/ledger/orders?market_id=${market.market_id}`)).json() as { orders: { price: string; quantity: string; side: string }[] };
    // Exactly one order at the lost request's price: it landed once and was not sent again.
    const atLostPrice = ledger.orders.filter((order) => order.price === price.toString() && order.side === 'Buy');
    expect(atLostPrice).toHaveLength(1);
    const open = value(await h.getOrders({}, caller)).open.filter((order) => order.marketId === market.market_id);
    expect(open.map((order) => order.price).sort()).toEqual([price - tick, price].sort());
  });
});
