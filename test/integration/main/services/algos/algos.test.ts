// Execution algorithms end to end against the sandbox, on a clock the test drives (main's algorithm
// clock and the sandbox's moved in step) and a market the test moves (`/control/markets/price`):
// each algorithm's children are checked on the exchange's own ledger (tagged with their parent in
// the journal, never more than the total filled, never beyond the limit), and the kill switch and a
// guard refusal are checked over running algorithms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../shared/clock';
import type { AlgoSpec, AlgoView } from '../../../../../shared/ipc/views/algos';
import type { Market } from '../../../../../shared/market/market';
import { ALGO_REASONS } from '../../../../../main/services/algos/codes';
import { ACCEPTING_DIALOG, caller, startOnboarded, until, value, type Harness } from '../../../../support/terminal-harness';

describe('execution algorithms against the sandbox', () => {
  let harness: Harness;
  let market: Market;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    const onboarded = await startOnboarded({ confirmer: ACCEPTING_DIALOG, algoClock: clock });
    harness = onboarded.harness;
    market = onboarded.markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC') ?? onboarded.market;
    await harness.control('/control/maker', { pinned: true });
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const h = () => harness.terminal.handlers;
  const algos = () => harness.terminal.runtime()!.algos!;
  /** Main's algorithm clock and the sandbox's, moved together; then one pass of the algorithms. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    if (ms > 0) await harness.control('/control/clock/advance', { ms });
    await algos().poll();
  };
  /**
   * Passes of the algorithms (the clock still) until `probe` holds: an algorithm waits a pass while
   * the trader's rate budget is short of its headroom, which the requests of a test before may
   * still hold for up to a second of wall time.
   */
  const settled = <T>(what: string, probe: () => Promise<T | false | undefined | null>) =>
    until(async () => {
      await algos().poll();
      return probe();
    }, 20_000, what);
  const view = async (id: string): Promise<AlgoView> => value(await h().getAlgos({}, caller)).find((algo) => algo.id === id)!;
  /** The algorithm's children as the exchange's ledger has them. */
  const onLedger = async (algo: AlgoView) => {
    const ids = new Set(algo.children.map((child) => child.orderId).filter((id) => id !== null));
    const orders = await harness.ledgerOrders(market.market_id);
    return orders.filter((order) => ids.has(order.order_id));
  };
  const filledOnLedger = async (algo: AlgoView) => (await onLedger(algo)).reduce((sum, order) => sum + BigInt(order.quantity_fill ?? '0'), 0n);
  const openOnLedger = async (algo: AlgoView) => (await onLedger(algo)).filter((order) => order.close !== true && order.cancel !== true);
  const moveTo = (price: bigint) => harness.control('/control/markets/price', { market_id: market.market_id, price: price.toString() });
  const spec = (side: 'Buy' | 'Sell', quantity: bigint, limitPrice: bigint | null, params: AlgoSpec['params']): AlgoSpec => ({ marketId: market.market_id, turbo: false, side, quantity, limitPrice, params });
  const journalOf = async (journalId: string) => value(await h().getJournal({ limit: 500 }, caller)).find((entry) => entry.kind === 'signed' && entry.id === journalId);

  it('TWAP: a slice at the touch every interval on the algorithm clock, filled to the total exactly, each child journaled with its parent', async () => {
    const { ask } = await harness.insidePrices(market);
    const slice = harness.sizeFor(market, ask);
    const started = value(await h().startAlgo(spec('Buy', slice * 4n, null, { kind: 'twap', durationMs: 40_000, intervalMs: 10_000, sizeJitterBps: 0n, timeJitterBps: 0n, slice: { kind: 'touch' } }), caller));
    expect(started.arrivalPrice).toBe(ask);
    await advance(0);
    let current = await view(started.id);
    expect(current.children).toHaveLength(1);
    expect(current.nextAt).toBe(started.startedAt + 10_000);
    for (let index = 0; index < 4; index++) await advance(10_000);
    await until(async () => (await view(started.id)).state === 'finished' || (await advance(1_000), false), 30_000, 'the TWAP to finish');
    current = await view(started.id);
    expect(current.filled).toBe(slice * 4n);
    expect(await filledOnLedger(current)).toBe(slice * 4n);
    expect(await openOnLedger(current)).toHaveLength(0);
    expect(current.averagePrice).not.toBeNull();
    expect(current.slippageBps).not.toBeNull();
    const entry = await journalOf(current.children[0]!.journalId);
    expect(entry?.parent).toBe(`${started.id}/c1`);
    expect(entry?.description).toMatch(/^TWAP \S+ slice 1\/4: Buy/);
  }, 120_000);

  it('TWAP of bounded market slices: paused at a limit below the touch, then resumed under a looser one and filled within its slippage', async () => {
    const { ask } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const slice = harness.sizeFor(market, ask);
    const started = value(await h().startAlgo(spec('Buy', slice * 2n, ask - 10n * tick, { kind: 'twap', durationMs: 20_000, intervalMs: 10_000, sizeJitterBps: 0n, timeJitterBps: 0n, slice: { kind: 'market', slippageBps: 50n } }), caller));
    await advance(0);
    let current = await settled('the pause at the limit', async () => ((await view(started.id)).state === 'paused' ? view(started.id) : false));
    expect(current.reason?.code).toBe(ALGO_REASONS.PRICE_LIMIT);
    expect(current.children).toHaveLength(0);
    value(await h().amendAlgoLimit({ id: started.id, limitPrice: ask + 100n * tick }, caller));
    value(await h().resumeAlgo({ id: started.id }, caller));
    await advance(0);
    await settled('the first slice', async () => (await view(started.id)).counts.filled >= 1);
    await advance(10_000);
    current = await settled('the TWAP to finish', async () => ((await view(started.id)).state === 'finished' ? view(started.id) : (await advance(1_000), false)));
    expect(current.filled).toBe(slice * 2n);
    expect(await filledOnLedger(current)).toBe(slice * 2n);
    for (const order of await onLedger(current)) expect(BigInt(order.price)).toBeLessThanOrEqual(ask + 100n * tick);
  }, 120_000);

  it('chase: joins the bid, follows it up as the market moves in one amend each, and finishes when the market comes down through it', async () => {
    const { bid, ask } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const quantity = harness.sizeFor(market, bid);
    const limit = ask + (ask - bid) + 100n * tick;
    const started = value(await h().startAlgo(spec('Buy', quantity, limit, { kind: 'chase', offsetTicks: 0n, maxAmendsPerMinute: 10 }), caller));
    await advance(0);
    let current = await settled('the first child', async () => ((await view(started.id)).children.at(-1)?.status === 'open' ? view(started.id) : false));
    expect(current.children.at(-1)).toMatchObject({ price: bid, status: 'open' });
    await moveTo(ask + 20n * tick);
    // The maker quotes around the new price on its next turn.
    const moved = await until(async () => {
      const inside = await harness.insidePrices(market);
      return inside.bid > bid ? inside : false;
    }, 20_000, 'the bid to move up');
    await advance(1_000);
    current = await settled('the amend', async () => ((await view(started.id)).children.at(-1)?.price === moved.bid && (await view(started.id)).children.at(-1)?.status === 'open' ? view(started.id) : false));
    expect(current.children.at(-1)).toMatchObject({ price: moved.bid, status: 'open' });
    expect(current.children.filter((child) => child.status === 'open')).toHaveLength(1);
    const open = await openOnLedger(current);
    expect(open.map((order) => BigInt(order.price))).toEqual([moved.bid]);
    // The market comes down through the chase: the house sweeps the bids, the child fills.
    await moveTo(moved.bid - 40n * tick);
    await until(async () => (await advance(1_000), (await view(started.id)).state === 'finished'), 30_000, 'the chase to finish');
    current = await view(started.id);
    expect(current.filled).toBe(quantity);
    expect(await filledOnLedger(current)).toBe(quantity);
    for (const child of current.children) expect(child.price).toBeLessThanOrEqual(limit);
  }, 120_000);

  it('iceberg: one visible slice at its price, refreshed as it fills, up to the total', async () => {
    const { bid } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const price = bid - 10n * tick;
    const visible = harness.sizeFor(market, price);
    const started = value(await h().startAlgo(spec('Buy', visible * 2n, null, { kind: 'iceberg', price, visible }), caller));
    await advance(0);
    let current = await settled('the first slice', async () => ((await view(started.id)).children.at(-1)?.status === 'open' ? view(started.id) : false));
    expect(await openOnLedger(current)).toHaveLength(1);
    expect(current.children[0]).toMatchObject({ price, quantity: visible });
    // The market comes down through its price: the visible slice fills, and the next one shows.
    await moveTo(price - 5n * tick);
    await until(async () => (await advance(1_000), (await view(started.id)).counts.filled >= 1), 30_000, 'the first slice to fill');
    await moveTo(price + 20n * tick);
    await advance(1_000);
    current = await settled('the next slice', async () => {
      const now = await view(started.id);
      return now.state === 'finished' || now.children.at(-1)?.status === 'open' ? now : false;
    });
    if (current.state !== 'finished') {
      expect(await openOnLedger(current)).toHaveLength(1);
      await moveTo(price - 5n * tick);
      await until(async () => (await advance(1_000), (await view(started.id)).state === 'finished'), 30_000, 'the iceberg to finish');
    }
    current = await view(started.id);
    expect(current.filled).toBe(visible * 2n);
    expect(await filledOnLedger(current)).toBe(visible * 2n);
    await moveTo(price + 20n * tick);
  }, 120_000);

  it('scale: its orders across the range, in batches of at most five, then cancelled with the algorithm', async () => {
    const { bid } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const from = bid - 50n * tick;
    const to = bid - 100n * tick;
    const each = harness.sizeFor(market, to);
    const asked = spec('Buy', each * 7n, null, { kind: 'scale', from, to, count: 7, shape: { distribution: 'flat' }, postOnly: true });
    const preview = value(await h().previewAlgo(asked, caller));
    expect(preview.children).toHaveLength(7);
    expect(preview.batches).toBe(2);
    const started = value(await h().startAlgo(asked, caller));
    await advance(0);
    let current = await settled('every scale order', async () => {
      const now = await view(started.id);
      return now.children.length === 7 && now.children.every((child) => child.status === 'open') ? now : false;
    });
    expect(current.children).toHaveLength(7);
    const open = await openOnLedger(current);
    expect(open).toHaveLength(7);
    expect(open.reduce((sum, order) => sum + BigInt(order.quantity), 0n)).toBe(each * 7n);
    expect(new Set(current.children.map((child) => child.journalId)).size).toBe(2);
    current = value(await h().cancelAlgo({ id: started.id }, caller));
    expect(current.state).toBe('cancelled');
    expect(await openOnLedger(current)).toHaveLength(0);
    await advance(5_000);
    expect((await view(started.id)).children).toHaveLength(7);
  }, 120_000);

  it('the kill switch cancels a running TWAP and chase and their children, and nothing is signed for them after', async () => {
    const { bid } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const quantity = harness.sizeFor(market, bid);
    const chase = value(await h().startAlgo(spec('Buy', quantity, null, { kind: 'chase', offsetTicks: 5n, maxAmendsPerMinute: 10 }), caller));
    const twap = value(await h().startAlgo(spec('Buy', quantity * 10n, null, { kind: 'twap', durationMs: 100_000, intervalMs: 10_000, sizeJitterBps: 0n, timeJitterBps: 0n, slice: { kind: 'touch' } }), caller));
    await advance(0);
    await settled('both running with children', async () => (await view(chase.id)).children.at(-1)?.status === 'open' && (await view(twap.id)).children.length > 0);
    expect(await openOnLedger(await view(chase.id))).toHaveLength(1);
    value(await h().cancelAllOrders({}, caller));
    for (const id of [chase.id, twap.id]) {
      const current = await view(id);
      expect(current.state).toBe('cancelled');
      expect(current.reason?.code).toBe(ALGO_REASONS.KILL_SWITCH);
      expect(await openOnLedger(current)).toHaveLength(0);
    }
    const counts = [(await view(chase.id)).children.length, (await view(twap.id)).children.length];
    await moveTo(bid + 20n * tick);
    for (let index = 0; index < 3; index++) await advance(10_000);
    expect([(await view(chase.id)).children.length, (await view(twap.id)).children.length]).toEqual(counts);
  }, 120_000);

  it('a guard refusal pauses the algorithm and names the guard; nothing was signed', async () => {
    const { bid } = await harness.insidePrices(market);
    const quantity = harness.sizeFor(market, bid);
    value(await h().updateSettings({ maxOrderNotional: { [market.market_id]: 1n } }, caller));
    try {
      const started = value(await h().startAlgo(spec('Buy', quantity, null, { kind: 'chase', offsetTicks: 0n, maxAmendsPerMinute: 10 }), caller));
      await advance(0);
      const current = await settled('the refusal', async () => ((await view(started.id)).state === 'paused' ? view(started.id) : false));
      expect(current.state).toBe('paused');
      expect(current.reason?.code).toBe(ALGO_REASONS.GUARD);
      expect(current.reason?.text).toContain('GUARD_MAX_NOTIONAL');
      expect(current.children.map((child) => child.status)).toEqual(['refused']);
      expect(await openOnLedger(current)).toHaveLength(0);
      value(await h().cancelAlgo({ id: started.id }, caller));
    } finally {
      value(await h().updateSettings({ maxOrderNotional: {} }, caller));
    }
  }, 120_000);
});
