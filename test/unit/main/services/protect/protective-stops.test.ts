// Trailing stops and break-even managed by main, against a fake exchange of legs: a stop trails
// the reference and is never loosened, moves are coalesced and paced, the trader is told at a
// sane rate, a stop survives a restart of the service (a new service over the same file), and the
// kill switch disarms them all.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_MOVE_MS, NOTICE_MS, ProtectiveStops } from '../../../../../main/services/protect/protective-stops';
import { openProtectiveStore } from '../../../../../main/services/protect/protective-store';
import { ManualClock } from '../../../../../shared/clock';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { TriggerView } from '../../../../../shared/ipc/views/triggers';
import type { Market } from '../../../../../shared/market/market';
import { fail, ok } from '../../../../../shared/result';

const USDC = 1_000_000n;
const market: Market = {
  contract_id: `0x${'c1'.repeat(32)}` as B256,
  market_id: `0x${'a1'.repeat(32)}` as B256,
  base: { symbol: 'ETH', asset: `0x${'ba'.repeat(32)}` as B256, decimals: 9, max_precision: 4 },
  quote: { symbol: 'USDC', asset: `0x${'9c'.repeat(32)}` as B256, decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: USDC,
  dust: 1_000_000n,
  price_window: 20,
};

function legId(n: number): string {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

/** The legs on the exchange, a price, and what the service did. */
class FakeExchange {
  legs = new Map<string, TriggerView>();
  price = 3_000n * USDC;
  moves: bigint[] = [];
  notices: string[] = [];
  refuse = false;
  /** Whether a read of the legs reaches every book. */
  readable = true;
  private next = 1;
  /** Resolves a held move when set. */
  hold: Promise<void> | null = null;

  addStop(side: 'Buy' | 'Sell', triggerPrice: bigint): string {
    const id = legId(this.next++);
    this.legs.set(id, { triggerId: id, marketId: market.market_id, turbo: false, side, triggerPrice, state: 'pending' } as unknown as TriggerView);
    return id;
  }

  service(dir: string, clock: ManualClock): ProtectiveStops {
    return new ProtectiveStops({
      networkId: 'sandbox',
      store: openProtectiveStore(dir, () => undefined),
      clock,
      market: () => ok(market),
      leg: (id) => this.legs.get(id),
      refreshLegs: () => Promise.resolve(this.readable),
      move: async ({ triggerId, triggerPrice }) => {
        if (this.hold) await this.hold;
        const leg = this.legs.get(triggerId);
        if (this.refuse || leg === undefined) return fail('CANCEL_FAILED', 'the leg could not be moved');
        this.legs.delete(triggerId);
        const id = this.addStop(leg.side, triggerPrice);
        this.moves.push(triggerPrice);
        return ok({ journalId: 'j', order: null, triggers: [this.legs.get(id) as TriggerView], adjustments: [] });
      },
      reference: () => Promise.resolve(ok(this.price)),
      entry: () => Promise.resolve(ok(3_000n * USDC)),
      notice: (_level, text) => this.notices.push(text),
      log: () => undefined,
      publish: () => undefined,
    });
  }

  /** The single pending stop's trigger. */
  trigger(): bigint {
    const pending = [...this.legs.values()];
    expect(pending).toHaveLength(1);
    return (pending[0] as TriggerView).triggerPrice;
  }
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'protective-'));
  const clock = new ManualClock(1_000_000);
  const exchange = new FakeExchange();
  return { dir, clock, exchange, service: exchange.service(dir, clock) };
}

describe('a trailing stop managed by main', () => {
  it('follows the reference up, never loosens, and paces its moves', async () => {
    const { clock, exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    const armed = await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 1_000n }, breakEvenAfterTicks: null });
    expect(armed.ok).toBe(true);
    const seen: bigint[] = [];
    for (const price of [3_000n, 3_020n, 2_950n, 3_030n, 2_800n, 3_040n]) {
      exchange.price = price * USDC;
      clock.advance(MIN_MOVE_MS);
      await service.poll();
      seen.push(exchange.trigger() / USDC);
    }
    expect(seen).toEqual([2_990n, 3_010n, 3_010n, 3_020n, 3_020n, 3_030n]);
    // Every move tightened.
    for (let index = 1; index < exchange.moves.length; index += 1) expect(exchange.moves[index]).toBeGreaterThan(exchange.moves[index - 1] as bigint);
  });

  it('coalesces the moves of a fast market into one per pause, to the latest target, and tells the trader at a sane rate', async () => {
    const { clock, exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 1_000n }, breakEvenAfterTicks: null });
    exchange.notices = [];
    exchange.price = 3_000n * USDC;
    await service.poll();
    for (let step = 1; step <= 20; step += 1) {
      exchange.price = (3_000n + BigInt(step)) * USDC;
      clock.advance(200);
      await service.poll();
    }
    // 4 s of a price rising every 200 ms: the first move and one after the pause.
    expect(exchange.moves.length).toBeLessThanOrEqual(2);
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.trigger()).toBe(3_010n * USDC);
    expect(exchange.notices.length).toBeLessThanOrEqual(1);
  });

  it("tells the trigger as it is when the notice is shown, in the market's price format", async () => {
    const { clock, exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 1_000n }, breakEvenAfterTicks: null });
    exchange.notices = [];
    exchange.price = 3_000n * USDC;
    await service.poll();
    expect(exchange.notices.at(-1)).toContain('trigger now 2,990.00 USDC');
    // Two more moves inside the notice pause, then the market stops.
    for (const price of [3_010n, 3_020n]) {
      exchange.price = price * USDC;
      clock.advance(MIN_MOVE_MS);
      await service.poll();
    }
    expect(exchange.trigger()).toBe(3_010n * USDC);
    expect(exchange.notices).toHaveLength(1);
    // Once the pause is over the trader is told where the stop is now, not where it was.
    clock.advance(NOTICE_MS);
    await service.poll();
    expect(exchange.notices).toHaveLength(2);
    expect(exchange.notices.at(-1)).toContain('trailed (2 moves): trigger now 3,010.00 USDC');
  });

  it('moves a buy stop of a short only down', async () => {
    const { clock, exchange, service } = setup();
    const triggerId = exchange.addStop('Buy', 3_100n * USDC);
    await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'ask', distance: { kind: 'percent', basisPoints: 100n }, breakEvenAfterTicks: null });
    exchange.price = 3_000n * USDC;
    await service.poll();
    expect(exchange.trigger()).toBe(3_030n * USDC);
    exchange.price = 3_050n * USDC;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.trigger()).toBe(3_030n * USDC);
  });

  it('moves to break-even after N ticks of profit, once', async () => {
    const { clock, exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'last', distance: null, breakEvenAfterTicks: 500n });
    exchange.price = 3_004n * USDC;
    await service.poll();
    expect(exchange.moves).toEqual([]);
    exchange.price = 3_005n * USDC;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.trigger()).toBe(3_000n * USDC);
    expect(service.list()[0]?.breakEven?.done).toBe(true);
    expect(exchange.notices.some((text) => text.includes('break-even'))).toBe(true);
  });

  it('keeps working after a restart of the service, and says so', async () => {
    const { dir, clock, exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 1_000n }, breakEvenAfterTicks: null });
    exchange.price = 3_000n * USDC;
    await service.poll();
    service.dispose();

    const restarted = exchange.service(dir, clock);
    exchange.notices = [];
    restarted.start();
    expect(exchange.notices.join('\n')).toMatch(/kept working after the restart: sell stop at 2,990.00 USDC, trailing 1000 ticks from the bid/);
    exchange.price = 3_050n * USDC;
    clock.advance(MIN_MOVE_MS);
    await restarted.poll();
    expect(exchange.trigger()).toBe(3_040n * USDC);
    restarted.dispose();
  });

  it('keeps a stop whose leg cannot be read yet (no complete read of the legs)', async () => {
    const { exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 1_000n }, breakEvenAfterTicks: null });
    const leg = exchange.legs.get(triggerId);
    exchange.legs.clear();
    exchange.readable = false;
    await service.poll();
    expect(service.list()).toHaveLength(1);
    exchange.legs.set(triggerId, leg as TriggerView);
    exchange.readable = true;
    await service.poll();
    expect(exchange.trigger()).toBe(2_990n * USDC);
  });

  it('ends the management of a leg that fired or was cancelled', async () => {
    const { exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 1_000n }, breakEvenAfterTicks: null });
    exchange.legs.clear();
    await service.poll();
    expect(service.list()).toEqual([]);
    expect(exchange.notices.join('\n')).toMatch(/no longer pending/);
  });

  it('is disarmed by the kill switch, which waits for a move in flight', async () => {
    const { clock, exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 1_000n }, breakEvenAfterTicks: null });
    let release = () => undefined as void;
    exchange.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    exchange.price = 3_000n * USDC;
    const polling = service.poll();
    let swept = false;
    const killing = service.stopAll(undefined).then(() => {
      swept = true;
    });
    await Promise.resolve();
    expect(swept).toBe(false);
    release();
    await Promise.all([polling, killing]);
    expect(service.list()).toEqual([]);
    exchange.hold = null;
    exchange.price = 3_100n * USDC;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.moves).toEqual([2_990n * USDC]);
    expect(exchange.notices.join('\n')).toMatch(/disarmed by the kill switch/);
  });

  it('refuses to trail a take-profit (a leg on the profit side of the price)', async () => {
    const { exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 3_100n * USDC);
    const armed = await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 10n }, breakEvenAfterTicks: null });
    expect(armed.ok ? 'armed' : armed.code).toBe('NOT_A_STOP_LOSS');
  });

  it('moves to break-even now when the price is past the entry, and refuses when it is not', async () => {
    const { exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    const armed = await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: null, breakEvenAfterTicks: 100_000n });
    if (!armed.ok) throw new Error(armed.message);
    exchange.price = 2_999n * USDC;
    const early = await service.breakEvenNow(armed.value.id);
    expect(early.ok ? 'moved' : early.code).toBe('BREAK_EVEN_NOT_REACHED');
    exchange.price = 3_001n * USDC;
    const moved = await service.breakEvenNow(armed.value.id);
    expect(moved.ok).toBe(true);
    expect(exchange.trigger()).toBe(3_000n * USDC);
  });

  it('disarm leaves the leg where it is and moves it no more', async () => {
    const { clock, exchange, service } = setup();
    const triggerId = exchange.addStop('Sell', 2_900n * USDC);
    const armed = await service.arm({ marketId: market.market_id, turbo: false, triggerId, reference: 'bid', distance: { kind: 'ticks', ticks: 1_000n }, breakEvenAfterTicks: null });
    if (!armed.ok) throw new Error(armed.message);
    expect(service.disarm(armed.value.id).ok).toBe(true);
    exchange.price = 3_100n * USDC;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.moves).toEqual([]);
    expect(exchange.trigger()).toBe(2_900n * USDC);
  });
});
