// The algorithm service's logic against a fake exchange and journal (the sandbox tests are in
// test/integration/main/services/algos): children recorded before they are signed and tagged with
// their parent, TWAP slices on the injected clock with the remainder rolled in, chase amends within
// the per-minute cap, iceberg refills, scale batches, pause / cancel / kill switch with nothing
// signed after, a guard refusal pausing, and a restart coming back paused with its children
// reconciled from the journal.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../shared/clock';
import type { CancelReport, OrderView, PlacedOrder } from '../../../../../shared/ipc/views';
import type { AlgoSpec, AlgoView } from '../../../../../shared/ipc/views/algos';
import { fail, ok, type Result } from '../../../../../shared/result';
import { AlgoService, type AlgoServiceDeps, type BookTouch } from '../../../../../main/services/algos/algo-service';
import { AlgoStore, ALGOS_FILE } from '../../../../../main/services/algos/algo-store';
import { ALGO_REASONS } from '../../../../../main/services/algos/codes';
import type { JournalRecord } from '../../../../../main/services/journal/journal';
import type { PlaceIntent } from '../../../../../main/services/trading/order-intents';
import type { AlgoParent } from '../../../../../main/services/trading/trading-service';
import { ethUsdcSixDecimals as market } from '../../../../support/shared/market/fixtures';

const ACCOUNT = `0x${'22'.repeat(32)}`;
const ETH = 1_000_000_000n;
const at = (usdc: number) => BigInt(Math.round(usdc * 100)) * 10_000n;

interface FakeOrder extends OrderView {
  readonly tag: string;
}

/** An exchange of our own orders only: placed, filled by the test, cancelled; and the journal of their requests. */
class FakeExchange {
  orders: FakeOrder[] = [];
  records: JournalRecord[] = [];
  touch: BookTouch = { bestBid: at(2999), bestAsk: at(3000) };
  /** What the store held for each child (by tag) when it was signed. */
  storedAtSigning: string[] = [];
  refuseNext: { code: string; message: string } | null = null;
  signedAfter: string[] = [];
  private ids = 0;

  constructor(private readonly path: string) {}

  private record(tag: string, orderIds: string[], status: 'accepted' | 'refused'): string {
    const id = `j${this.records.length + 1}`;
    this.records.push({
      signed: { kind: 'signed', seq: this.records.length, at: 0, id, networkId: 'sandbox', account: ACCOUNT, endpoint: 'POST /v1/session/actions', nonce: { mode: 'none' }, actions: [], description: tag, parent: tag },
      outcome: { kind: 'outcome', seq: 0, at: 0, id, status, txId: null, orderIds, code: null, message: null },
      reconciled: null,
    });
    return id;
  }

  private create(intent: PlaceIntent, tag: string): FakeOrder {
    const orderId = `0x${(++this.ids).toString(16).padStart(64, '0')}`;
    const order: FakeOrder = { orderId, marketId: market.market_id, side: intent.side, orderType: intent.orderType.kind, price: intent.price, quantity: intent.quantity, filled: 0n, averagePrice: 0n, status: 'open', turbo: false, account: ACCOUNT, time: 0, tag };
    this.orders.push(order);
    return order;
  }

  fill(orderId: string, quantity: bigint, price?: bigint): void {
    this.orders = this.orders.map((order) => {
      if (order.orderId !== orderId) return order;
      const filled = order.filled + quantity;
      return { ...order, filled, averagePrice: price ?? order.price, status: filled >= order.quantity ? 'filled' : 'partially-filled' };
    });
  }

  open(): FakeOrder[] {
    return this.orders.filter((order) => order.status === 'open' || order.status === 'partially-filled');
  }

  private placed(tag: string, intents: readonly PlaceIntent[]): Result<PlacedOrder> {
    this.storedAtSigning.push(readFileSync(this.path, 'utf8'));
    if (this.refuseNext !== null) {
      const refusal = this.refuseNext;
      this.refuseNext = null;
      return fail(refusal.code, refusal.message);
    }
    const orders = intents.map((intent) => this.create(intent, tag));
    const journalId = this.record(tag, orders.map((order) => order.orderId), 'accepted');
    return ok({ journalId, orders, adjustments: [] });
  }

  deps(clock: ManualClock, store: AlgoStore, notices: string[] = [], views: (readonly AlgoView[])[] = []): AlgoServiceDeps {
    return {
      networkId: 'sandbox',
      store,
      clock,
      seed: () => 0.5,
      account: () => ACCOUNT,
      market: () => ok(market),
      touch: () => Promise.resolve(ok(this.touch)),
      place: (input: PlaceIntent & { parent: AlgoParent }) => Promise.resolve(this.placed(input.parent.tag, [input])),
      placeBatch: (_marketId, _turbo, intents, parent) => Promise.resolve(this.placed(parent.tag, intents)),
      amend: (_marketId, _turbo, orderId, price, parent) => {
        const old = this.orders.find((order) => order.orderId === orderId);
        if (old === undefined || old.status === 'filled' || old.status === 'cancelled') return Promise.resolve(fail('ONCHAIN_REVERT', 'not open'));
        this.orders = this.orders.map((order) => (order.orderId === orderId ? { ...order, status: 'cancelled' } : order));
        return Promise.resolve(this.placed(parent.tag, [{ side: old.side, orderType: { kind: 'Limit' }, price, quantity: old.quantity - old.filled }]));
      },
      cancel: (_marketId, _turbo, orderIds) => {
        const cancelled: string[] = [];
        this.orders = this.orders.map((order) => {
          if (!orderIds.includes(order.orderId as never) || order.status === 'filled' || order.status === 'cancelled') return order;
          cancelled.push(order.orderId);
          return { ...order, status: 'cancelled' };
        });
        const report: CancelReport = { requested: orderIds.length, cancelled, failed: [], batches: 1, triggersRequested: 0, triggersCancelled: [], triggersFailed: [], unread: [] } as unknown as CancelReport;
        return Promise.resolve(ok(report));
      },
      readOrder: (_marketId, _turbo, orderId) => {
        const order = this.orders.find((candidate) => candidate.orderId === orderId);
        return Promise.resolve(order === undefined ? fail('REQUEST_REFUSED', 'no such order') : ok(order));
      },
      journalRecords: (parent) => this.records.filter((record) => record.signed.parent === parent),
      ordersOf: (entry) => Promise.resolve(ok(this.orders.filter((order) => order.tag === entry.parent))),
      rateHeadroom: () => true,
      notice: (_level, text) => notices.push(text),
      log: () => undefined,
      publish: (algos) => views.push(algos),
    };
  }
}

function setup(): { clock: ManualClock; exchange: FakeExchange; service: AlgoService; store: AlgoStore; dir: string; notices: string[]; views: (readonly AlgoView[])[] } {
  const dir = mkdtempSync(join(tmpdir(), 'lt-algos-'));
  const clock = new ManualClock(1_700_000_000_000);
  const store = new AlgoStore(join(dir, ALGOS_FILE), () => undefined, () => clock.now());
  const exchange = new FakeExchange(join(dir, ALGOS_FILE));
  const notices: string[] = [];
  const views: (readonly AlgoView[])[] = [];
  const service = new AlgoService(exchange.deps(clock, store, notices, views));
  return { clock, exchange, service, store, dir, notices, views };
}

const twap = (quantity: bigint, limitPrice: bigint | null = null): AlgoSpec => ({
  marketId: market.market_id,
  turbo: false,
  side: 'Buy',
  quantity,
  limitPrice,
  params: { kind: 'twap', durationMs: 40_000, intervalMs: 10_000, sizeJitterBps: 0n, timeJitterBps: 0n, slice: { kind: 'touch' } },
});

async function step(clock: ManualClock, service: AlgoService, ms: number): Promise<void> {
  clock.advance(ms);
  await service.poll();
}

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

describe('AlgoService', () => {
  it('places TWAP slices on the clock, each recorded as signing before it is signed and tagged with its parent, and rolls an unfilled slice into the next', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    const started = value(await service.startAlgo(twap(4n * ETH)));
    expect(started.arrivalPrice).toBe(at(3000));
    await step(clock, service, 0);
    expect(exchange.orders).toHaveLength(1);
    const first = exchange.orders[0]!;
    expect(first.tag).toBe(`${started.id}/c1`);
    expect(first.price).toBe(at(3000));
    // The store held the child, signing, before the request was signed.
    expect(exchange.storedAtSigning[0]).toContain('"signing"');
    exchange.fill(first.orderId, first.quantity / 2n);
    await step(clock, service, 10_000);
    // The first slice's unfilled half was cancelled and rolled into the second.
    expect(exchange.orders[0]!.status).toBe('cancelled');
    expect(exchange.orders[1]!.quantity).toBe(ETH + ETH / 2n);
    const view = service.list()[0]!;
    expect(view.filled).toBe(ETH / 2n);
    expect(view.counts).toEqual({ open: 1, filled: 0, cancelled: 1 });
    for (const order of exchange.open()) exchange.fill(order.orderId, order.quantity - order.filled);
    await step(clock, service, 10_000);
    for (const order of exchange.open()) exchange.fill(order.orderId, order.quantity - order.filled);
    await step(clock, service, 10_000);
    for (const order of exchange.open()) exchange.fill(order.orderId, order.quantity - order.filled);
    await step(clock, service, 1_000);
    const done = service.list()[0]!;
    expect(done.filled).toBe(4n * ETH);
    expect(done.state).toBe('finished');
    expect(exchange.orders.reduce((sum, order) => sum + order.filled, 0n)).toBe(4n * ETH);
  });

  it('pauses a TWAP when the touch is beyond its limit, and signs nothing while paused', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    exchange.touch = { bestBid: at(3010), bestAsk: at(3011) };
    const started = value(await service.startAlgo(twap(4n * ETH, at(3005))));
    await step(clock, service, 0);
    const view = service.list().find((algo) => algo.id === started.id)!;
    expect(view.state).toBe('paused');
    expect(view.reason?.code).toBe(ALGO_REASONS.PRICE_LIMIT);
    await step(clock, service, 60_000);
    expect(exchange.orders).toHaveLength(0);
  });

  it('cancel: its open child is cancelled and nothing is signed after', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    const started = value(await service.startAlgo(twap(4n * ETH)));
    await step(clock, service, 0);
    expect(exchange.open()).toHaveLength(1);
    const cancelled = value(await service.cancel(started.id));
    expect(cancelled.state).toBe('cancelled');
    expect(exchange.open()).toHaveLength(0);
    await step(clock, service, 60_000);
    expect(exchange.orders).toHaveLength(1);
  });

  it('the kill switch cancels every algorithm before the sweep, waiting for a placement in flight', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    value(await service.startAlgo(twap(4n * ETH)));
    const polled = step(clock, service, 0);
    const stopped = await service.stopAll(undefined);
    await polled;
    expect(stopped).toBe(1);
    // The placement in flight landed before stopAll answered: the sweep would see it.
    const countAtSweep = exchange.orders.length;
    await step(clock, service, 60_000);
    expect(exchange.orders.length).toBe(countAtSweep);
    expect(service.list()[0]!.reason?.code).toBe(ALGO_REASONS.KILL_SWITCH);
  });

  it('a guard refusal pauses the algorithm, naming the guard', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    exchange.refuseNext = { code: 'GUARD_MAX_NOTIONAL', message: 'above your maximum notional of 1,000 USDC on ETH/USDC' };
    value(await service.startAlgo(twap(4n * ETH)));
    await step(clock, service, 0);
    const view = service.list()[0]!;
    expect(view.state).toBe('paused');
    expect(view.reason?.code).toBe(ALGO_REASONS.GUARD);
    expect(view.reason?.text).toContain('maximum notional');
    expect(view.children[0]!.status).toBe('refused');
    await step(clock, service, 60_000);
    expect(exchange.orders).toHaveLength(0);
  });

  it('chase: follows the bid with one amend per move, within its amends per minute, and finishes when filled', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    value(await service.startAlgo({ marketId: market.market_id, turbo: false, side: 'Buy', quantity: 2n * ETH, limitPrice: at(3010), params: { kind: 'chase', offsetTicks: 0n, maxAmendsPerMinute: 2 } }));
    await step(clock, service, 0);
    expect(exchange.open().map((order) => order.price)).toEqual([at(2999)]);
    for (const bid of [3001, 3002, 3003]) {
      exchange.touch = { bestBid: at(bid), bestAsk: at(bid + 1) };
      await step(clock, service, 1_000);
    }
    // Two amends in the minute: the third waits.
    expect(exchange.open().map((order) => order.price)).toEqual([at(3002)]);
    await step(clock, service, 60_000);
    expect(exchange.open().map((order) => order.price)).toEqual([at(3003)]);
    exchange.touch = { bestBid: at(3020), bestAsk: at(3021) };
    await step(clock, service, 1_000);
    expect(service.list()[0]!.reason?.code).toBe(ALGO_REASONS.PRICE_LIMIT);
    value(await service.amendLimit(service.list()[0]!.id, at(3030)));
    value(await service.resume(service.list()[0]!.id));
    await step(clock, service, 61_000);
    const resting = exchange.open();
    expect(resting.map((order) => order.price)).toEqual([at(3020)]);
    exchange.fill(resting[0]!.orderId, resting[0]!.quantity);
    await step(clock, service, 1_000);
    expect(service.list()[0]!.state).toBe('finished');
    expect(exchange.orders.reduce((sum, order) => sum + order.filled, 0n)).toBe(2n * ETH);
  });

  it('a tightened limit cancels a child resting beyond it, and the chase pauses at the limit', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    const started = value(await service.startAlgo({ marketId: market.market_id, turbo: false, side: 'Buy', quantity: 2n * ETH, limitPrice: at(3010), params: { kind: 'chase', offsetTicks: 0n, maxAmendsPerMinute: 5 } }));
    await step(clock, service, 0);
    expect(exchange.open().map((order) => order.price)).toEqual([at(2999)]);
    value(await service.amendLimit(started.id, at(2998)));
    expect(exchange.open()).toEqual([]);
    await step(clock, service, 1_000);
    const view = service.list()[0]!;
    expect(view.state).toBe('paused');
    expect(view.reason?.code).toBe(ALGO_REASONS.PRICE_LIMIT);
    expect(exchange.orders).toHaveLength(1);
  });

  it('iceberg: one visible slice at a time, refreshed as it fills, up to the total', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    value(await service.startAlgo({ marketId: market.market_id, turbo: false, side: 'Sell', quantity: 3n * ETH, limitPrice: null, params: { kind: 'iceberg', price: at(3005), visible: ETH } }));
    for (let round = 0; round < 3; round++) {
      await step(clock, service, 1_000);
      const open = exchange.open();
      expect(open).toHaveLength(1);
      expect(open[0]!.quantity).toBe(ETH);
      exchange.fill(open[0]!.orderId, ETH);
    }
    await step(clock, service, 1_000);
    expect(exchange.orders).toHaveLength(3);
    expect(service.list()[0]!.state).toBe('finished');
  });

  it('scale: the planned orders in batches of at most five, all tagged with the parent', async () => {
    const { clock, exchange, service } = setup();
    await service.start();
    const preview = value(await service.preview({ marketId: market.market_id, turbo: false, side: 'Buy', quantity: 7n * ETH, limitPrice: null, params: { kind: 'scale', from: at(2990), to: at(2900), count: 7, shape: { distribution: 'flat' }, postOnly: true } }));
    expect(preview.children).toHaveLength(7);
    expect(preview.batches).toBe(2);
    expect(exchange.orders).toHaveLength(0);
    value(await service.startAlgo(preview.spec));
    await step(clock, service, 0);
    await step(clock, service, 1_000);
    expect(exchange.orders).toHaveLength(7);
    expect(new Set(exchange.orders.map((order) => order.tag)).size).toBe(2);
    expect(exchange.orders.reduce((sum, order) => sum + order.quantity, 0n)).toBe(7n * ETH);
    for (const order of exchange.open()) exchange.fill(order.orderId, order.quantity);
    await step(clock, service, 1_000);
    expect(service.list()[0]!.state).toBe('finished');
  });

  it('after a restart a running algorithm is paused, and a child left signing is found through the journal, never signed again', async () => {
    const { clock, exchange, service, store } = setup();
    await service.start();
    value(await service.startAlgo(twap(4n * ETH)));
    await step(clock, service, 0);
    exchange.fill(exchange.orders[0]!.orderId, ETH / 4n);
    await service.poll();
    service.dispose();
    // A crash while the second slice was signed: the store says signing, the journal has its request.
    const records = store.load();
    const algo = records[0]!;
    const tag = `${algo.id}/c2`;
    records[0] = { ...algo, next: 2, children: [...algo.children, { key: 'c2', journalId: null, orderId: null, price: at(3000), quantity: ETH, filled: 0n, fillPrice: 0n, status: 'signing', placedAt: clock.now(), label: 'slice 2/4' }] };
    store.save(records);
    const order = { ...exchange.orders[0]!, orderId: `0x${'ff'.repeat(32)}`, quantity: ETH, filled: 0n, status: 'open' as const, tag };
    exchange.orders.push(order);
    exchange.records.push({
      signed: { kind: 'signed', seq: 9, at: 0, id: 'j-crash', networkId: 'sandbox', account: ACCOUNT, endpoint: 'POST /v1/session/actions', nonce: { mode: 'none' }, actions: [], description: tag, parent: tag },
      outcome: null,
      reconciled: { kind: 'reconciled', seq: 10, at: 0, id: 'j-crash', status: 'landed', detail: 'landed' },
    });
    const notices: string[] = [];
    const restarted = new AlgoService(exchange.deps(clock, store, notices));
    const placedBefore = exchange.orders.length;
    await restarted.start();
    const view = restarted.list()[0]!;
    expect(view.state).toBe('paused');
    expect(view.reason?.code).toBe(ALGO_REASONS.RESTART);
    expect(view.children.map((child) => child.status)).toEqual(['open', 'open']);
    expect(view.children[1]!.orderId).toBe(order.orderId);
    expect(view.children[1]!.journalId).toBe('j-crash');
    expect(view.filled).toBe(ETH / 4n);
    await step(clock, restarted, 60_000);
    expect(exchange.orders.length).toBe(placedBefore);
    expect(notices.join(' ')).toContain('paused by the restart');
  });

  it('a damaged line of the file loses that algorithm only', async () => {
    const { service, store, dir } = setup();
    await service.start();
    value(await service.startAlgo(twap(4n * ETH)));
    value(await service.startAlgo(twap(2n * ETH)));
    const path = join(dir, ALGOS_FILE);
    const lines = readFileSync(path, 'utf8').split('\n');
    // One byte of the first line's JSON broken.
    lines[0] = `#${lines[0]!.slice(1)}`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, lines.join('\n'));
    const loaded = store.load();
    expect(loaded).toHaveLength(1);
    expect(loaded[0]!.spec.quantity).toBe(2n * ETH);
  });
});
