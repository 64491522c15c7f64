// The algorithm service's logic against a fake exchange and journal (the sandbox tests are in
// test/integration/main/services/algos): children recorded before they are signed and tagged with
// their parent, TWAP slices on the injected clock with the remainder rolled in, chase amends within
// the per-minute cap, iceberg refills, scale batches, pause / cancel / kill switch with nothing
// signed after, a guard refusal pausing, and a restart coming back paused with its children
// reconciled from the journal.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
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
import { checkProperty } from '../../../../support/property';
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

  it('the kill switch waits for a placement being signed, so the sweep sees the child it left; nothing is signed after', async () => {
    const { clock, exchange, store } = setup();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const deps = exchange.deps(clock, store);
    let signing = false;
    const service = new AlgoService({
      ...deps,
      place: async (input) => {
        signing = true;
        await held;
        return deps.place(input);
      },
    });
    await service.start();
    value(await service.startAlgo({ marketId: market.market_id, turbo: false, side: 'Buy', quantity: 2n * ETH, limitPrice: null, params: { kind: 'chase', offsetTicks: 0n, maxAmendsPerMinute: 5 } }));
    clock.advance(0);
    const passing = service.poll();
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(signing).toBe(true);
    let stoppedAt: number | null = null;
    const stopping = service.stopAll(undefined).then(() => (stoppedAt = exchange.orders.length));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stoppedAt).toBeNull();
    release();
    await stopping;
    await passing;
    // The child signed in flight landed before the kill switch answered: its sweep lists it.
    expect(stoppedAt).toBe(1);
    expect(service.list()[0]!.children.map((child) => child.status)).toEqual(['open']);
    exchange.touch = { bestBid: at(3005), bestAsk: at(3006) };
    await step(clock, service, 61_000);
    expect(exchange.orders).toHaveLength(1);
  });

  it("waits while the trader's rate budget is short of its headroom, and previews sign nothing", async () => {
    const { clock, exchange, store } = setup();
    let headroom = false;
    const service = new AlgoService({ ...exchange.deps(clock, store), rateHeadroom: () => headroom });
    await service.start();
    const preview = value(await service.preview(twap(4n * ETH)));
    expect(preview.children.map((child) => child.quantity)).toEqual([ETH, ETH, ETH, ETH]);
    expect(preview.children.every((child) => child.price === at(3000))).toBe(true);
    const chase = value(await service.preview({ marketId: market.market_id, turbo: false, side: 'Sell', quantity: ETH, limitPrice: null, params: { kind: 'chase', offsetTicks: 2n, maxAmendsPerMinute: 5 } }));
    expect(chase.children).toEqual([{ price: at(3000) + 20_000n, quantity: ETH }]);
    expect(exchange.orders).toHaveLength(0);
    value(await service.startAlgo(twap(4n * ETH)));
    await step(clock, service, 0);
    await step(clock, service, 1_000);
    expect(exchange.orders).toHaveLength(0);
    headroom = true;
    await step(clock, service, 1_000);
    expect(exchange.orders).toHaveLength(1);
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
    // Signed a step smaller than recorded (the market rules lowered it to a whole quote value): still its order.
    const order = { ...exchange.orders[0]!, orderId: `0x${'ff'.repeat(32)}`, quantity: ETH - 1_000_000n, filled: 0n, status: 'open' as const, tag };
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
    expect(view.children[1]!.quantity).toBe(ETH - 1_000_000n);
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

// ---- the guarantees as properties over random sessions ------------------------------------------

type Step =
  | { readonly kind: 'start'; readonly algo: 'twap' | 'chase' | 'iceberg' | 'scale'; readonly side: 'Buy' | 'Sell'; readonly size: number; readonly limit: number | null }
  | { readonly kind: 'fill'; readonly pick: number; readonly share: number }
  | { readonly kind: 'move'; readonly ticks: number }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'pause' | 'resume' | 'cancel'; readonly pick: number }
  | { readonly kind: 'limit'; readonly pick: number; readonly ticks: number }
  | { readonly kind: 'kill' }
  | { readonly kind: 'restart' }
  | { readonly kind: 'refuse' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('start' as const), algo: fc.constantFrom('twap' as const, 'chase' as const, 'iceberg' as const, 'scale' as const), side: fc.constantFrom('Buy' as const, 'Sell' as const), size: fc.integer({ min: 1, max: 6 }), limit: fc.option(fc.integer({ min: -20, max: 40 }), { nil: null }) }),
  fc.record({ kind: fc.constant('fill' as const), pick: fc.nat(), share: fc.constantFrom(0.25, 0.5, 1) }),
  fc.record({ kind: fc.constant('move' as const), ticks: fc.integer({ min: -30, max: 30 }) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1_000, 5_000, 10_000, 30_000, 61_000) }),
  fc.record({ kind: fc.constantFrom('pause' as const, 'resume' as const, 'cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('limit' as const), pick: fc.nat(), ticks: fc.integer({ min: -20, max: 40 }) }),
  fc.constant({ kind: 'kill' as const }),
  fc.constant({ kind: 'restart' as const }),
  fc.constant({ kind: 'refuse' as const }),
);

describe('AlgoService guarantees over random sessions', () => {
  it('never more than the total, never a child beyond the limit it had, nothing signed while stopped, exact after a restart', async () => {
    await checkProperty(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 5, maxLength: 30 }), async (steps) => {
        const { clock, exchange, store } = setup();
        let service = new AlgoService(exchange.deps(clock, store));
        await service.start();
        const tick = 10_000n;
        /** Algorithms that must sign nothing now (paused, cancelled, killed), by id. */
        const stopped = new Set<string>();
        const violations: string[] = [];
        const placedBy = (id: string) => exchange.orders.filter((order) => order.tag.startsWith(`${id}/`));
        const check = async () => {
          await service.poll();
          for (const view of service.list()) {
            const orders = placedBy(view.id);
            const filled = orders.reduce((sum, order) => sum + order.filled, 0n);
            const committed = orders.reduce((sum, order) => sum + (order.status === 'open' || order.status === 'partially-filled' ? order.quantity : order.filled), 0n);
            if (filled > view.spec.quantity || committed > view.spec.quantity) violations.push(`${view.id}: ${filled} filled, ${committed} committed of ${view.spec.quantity}`);
            if (view.filled !== filled) violations.push(`${view.id}: the view says ${view.filled} filled, the exchange ${filled}`);
            const limit = view.spec.limitPrice;
            if (limit !== null) {
              for (const order of orders) {
                const open = order.status === 'open' || order.status === 'partially-filled';
                if (open && (view.spec.side === 'Buy' ? order.price > limit : order.price < limit)) violations.push(`${view.id}: ${order.orderId} rests at ${order.price} beyond the limit ${limit}`);
              }
            }
          }
        };
        const pick = (index: number) => {
          const list = service.list();
          return list.length === 0 ? undefined : list[index % list.length];
        };
        for (const step of steps) {
          const before = new Map(service.list().map((view) => [view.id, placedBy(view.id).length]));
          const wasStopped = new Set(stopped);
          switch (step.kind) {
            case 'start': {
              const side = step.side;
              const touch = side === 'Buy' ? exchange.touch.bestAsk! : exchange.touch.bestBid!;
              const limit = step.limit === null ? null : side === 'Buy' ? touch + BigInt(step.limit) * tick : touch - BigInt(step.limit) * tick;
              const quantity = BigInt(step.size) * ETH;
              const params: AlgoSpec['params'] =
                step.algo === 'twap'
                  ? { kind: 'twap', durationMs: 60_000, intervalMs: 10_000, sizeJitterBps: 2_000n, timeJitterBps: 2_000n, slice: { kind: 'touch' } }
                  : step.algo === 'chase'
                    ? { kind: 'chase', offsetTicks: 1n, maxAmendsPerMinute: 3 }
                    : step.algo === 'iceberg'
                      ? { kind: 'iceberg', price: side === 'Buy' ? touch - 5n * tick : touch + 5n * tick, visible: ETH }
                      : { kind: 'scale', from: side === 'Buy' ? touch - 10n * tick : touch + 10n * tick, to: side === 'Buy' ? touch - 50n * tick : touch + 50n * tick, count: Math.min(6, step.size * 2), shape: { distribution: 'flat' }, postOnly: true };
              await service.startAlgo({ marketId: market.market_id, turbo: false, side, quantity, limitPrice: limit, params });
              break;
            }
            case 'fill': {
              const open = exchange.open();
              const order = open[step.pick % Math.max(1, open.length)];
              if (order !== undefined) {
                const left = order.quantity - order.filled;
                const quantity = step.share === 1 ? left : (left * BigInt(step.share * 100)) / 100n / 1_000_000n * 1_000_000n;
                if (quantity > 0n) exchange.fill(order.orderId, quantity);
              }
              break;
            }
            case 'move':
              exchange.touch = { bestBid: exchange.touch.bestBid! + BigInt(step.ticks) * tick, bestAsk: exchange.touch.bestAsk! + BigInt(step.ticks) * tick };
              break;
            case 'advance':
              clock.advance(step.ms);
              break;
            case 'pause': {
              const view = pick(step.pick);
              if (view !== undefined && (await service.pause(view.id)).ok) stopped.add(view.id);
              break;
            }
            case 'resume': {
              const view = pick(step.pick);
              if (view !== undefined && (await service.resume(view.id)).ok) stopped.delete(view.id);
              break;
            }
            case 'cancel': {
              const view = pick(step.pick);
              if (view !== undefined && (await service.cancel(view.id)).ok) {
                stopped.add(view.id);
                for (const order of placedBy(view.id)) if (order.status === 'open' || order.status === 'partially-filled') violations.push(`${view.id}: ${order.orderId} still open after cancel`);
              }
              break;
            }
            case 'limit': {
              const view = pick(step.pick);
              if (view === undefined) break;
              const touch = view.spec.side === 'Buy' ? exchange.touch.bestAsk! : exchange.touch.bestBid!;
              await service.amendLimit(view.id, view.spec.side === 'Buy' ? touch + BigInt(step.ticks) * tick : touch - BigInt(step.ticks) * tick);
              break;
            }
            case 'kill': {
              await service.stopAll(undefined);
              for (const view of service.list()) stopped.add(view.id);
              // The sweep that follows cancels every open order.
              exchange.orders = exchange.orders.map((order) => (order.status === 'open' || order.status === 'partially-filled' ? { ...order, status: 'cancelled' } : order));
              break;
            }
            case 'restart': {
              service.dispose();
              service = new AlgoService(exchange.deps(clock, store));
              await service.start();
              for (const view of service.list()) {
                if (view.state === 'running') violations.push(`${view.id}: running after a restart`);
                stopped.add(view.id);
              }
              break;
            }
            case 'refuse':
              exchange.refuseNext = { code: 'GUARD_ORDER_RATE', message: 'more than your maximum orders per minute' };
              break;
          }
          await check();
          for (const view of service.list()) {
            // Stopped by the trader, the kill switch or a restart before this step, and not resumed by it.
            const signed = placedBy(view.id).length > (before.get(view.id) ?? 0);
            if (wasStopped.has(view.id) && step.kind !== 'resume' && signed) violations.push(`${view.id}: signed a child while ${view.state} (step ${step.kind})`);
          }
        }
        expect(violations).toEqual([]);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});
