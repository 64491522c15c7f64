// A position's take-profit / stop-loss pair managed by main, against a fake exchange of legs and a
// position: armed sized to the position, grown by a fill, shrunk by a partial close, cancelled when
// flat; held while a close runs; kept after a restart of the service (and said so); stopped by the
// kill switch; never placed again once it fired.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PositionBrackets } from '../../../../../main/services/protect/position-brackets';
import { openProtectiveStore } from '../../../../../main/services/protect/protective-store';
import { MIN_MOVE_MS } from '../../../../../main/services/protect/protective-stops';
import { ManualClock } from '../../../../../shared/clock';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { TriggerView } from '../../../../../shared/ipc/views/triggers';
import type { Market } from '../../../../../shared/market/market';
import { fail, ok } from '../../../../../shared/result';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;
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

class FakeExchange {
  /** Pending legs: id → size. */
  legs = new Map<string, bigint>();
  /** Side and trigger price of each leg, as the book lists them. */
  legPrices = new Map<string, bigint>();
  position = 2n * ETH;
  replaced: { cancel: readonly string[]; quantity: bigint | null }[] = [];
  notices: string[] = [];
  refuse = false;
  private next = 1;

  service(dir: string, clock: ManualClock): PositionBrackets {
    return new PositionBrackets({
      networkId: 'sandbox',
      store: openProtectiveStore(dir, () => undefined),
      clock,
      market: () => ok(market),
      position: () => Promise.resolve(ok({ size: this.position, entry: 3_000n * USDC })),
      pending: (id) => this.legs.has(id),
      pendingLegs: () => [...this.legs].map(([id, quantity]) => ({ triggerId: id, side: 'Sell', triggerPrice: this.legPrices.get(id) ?? 0n, quantity }) as TriggerView),
      refreshLegs: () => Promise.resolve(true),
      mark: () => Promise.resolve(ok(3_000n * USDC)),
      replace: async (input) => {
        if (this.refuse) return fail('GUARD_ORDER_RATE', 'too many orders');
        this.replaced.push({ cancel: input.cancel, quantity: input.quantity });
        for (const id of input.cancel) this.legs.delete(id);
        const triggers: TriggerView[] = [];
        if (input.quantity !== null) {
          for (const price of [input.takeProfit, input.stopLoss].filter((price) => price !== null)) {
            const id = `0x${(this.next++).toString(16).padStart(64, '0')}`;
            this.legs.set(id, input.quantity);
            this.legPrices.set(id, price);
            triggers.push({ triggerId: id } as TriggerView);
          }
        }
        return ok({ journalId: 'j', order: null, triggers, adjustments: [] });
      },
      notice: (_level, text) => this.notices.push(text),
      log: () => undefined,
      publish: () => undefined,
    });
  }

  sizes(): bigint[] {
    return [...this.legs.values()];
  }
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'position-brackets-'));
  const clock = new ManualClock(1_000_000);
  const exchange = new FakeExchange();
  return { dir, clock, exchange, service: exchange.service(dir, clock) };
}

const arm = { marketId: market.market_id, turbo: false, takeProfit: 3_200n * USDC, stopLoss: 2_800n * USDC };

describe('a position TP/SL managed by main', () => {
  it('is placed sized to the position, grows with a fill, shrinks with a partial close, and goes when flat', async () => {
    const { clock, exchange, service } = setup();
    const armed = await service.arm(arm);
    expect(armed.ok && armed.value.side).toBe('Sell');
    expect(exchange.sizes()).toEqual([2n * ETH, 2n * ETH]);
    expect(exchange.notices.at(-1)).toContain('TP 3,200.00 USDC, SL 2,800.00 USDC');

    exchange.position = 3n * ETH;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.sizes()).toEqual([3n * ETH, 3n * ETH]);
    // One batch: the old pair cancelled where the new one is placed.
    expect(exchange.replaced.at(-1)?.cancel).toHaveLength(2);

    exchange.position = ETH;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.sizes()).toEqual([ETH, ETH]);

    exchange.position = 0n;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.sizes()).toEqual([]);
    expect(service.list()).toEqual([]);
    expect(exchange.notices.at(-1)).toContain('the position is flat');
  });

  it('refuses a take-profit below the price of a long, naming the field and the value', async () => {
    const { exchange, service } = setup();
    const refused = await service.arm({ ...arm, takeProfit: 2_900n * USDC });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.code).toBe('PRICE_WRONG_SIDE');
      expect(refused.details?.field).toBe('takeProfit');
      expect(refused.message).toContain('2,900.00 USDC');
    }
    expect(exchange.replaced).toEqual([]);
  });

  it('refuses a flat book', async () => {
    const { exchange, service } = setup();
    exchange.position = 0n;
    const refused = await service.arm(arm);
    expect(!refused.ok && refused.code).toBe('POSITION_FLAT');
  });

  it('after a resize the exchange answered once main had stopped, finds its pair on the book and manages it again', async () => {
    const { dir, clock, exchange, service } = setup();
    await service.arm(arm);
    service.dispose();
    // The resize landed (old pair cancelled, new one placed) but main stopped before recording it.
    for (const id of [...exchange.legs.keys()]) exchange.legs.delete(id);
    for (const price of [arm.takeProfit, arm.stopLoss]) {
      const id = `0x${'f'.repeat(63)}${price === arm.takeProfit ? '1' : '2'}`;
      exchange.legs.set(id, 2n * ETH);
      exchange.legPrices.set(id, price);
    }
    const restarted = exchange.service(dir, clock);
    clock.advance(MIN_MOVE_MS);
    await restarted.poll();
    expect(restarted.list()).toHaveLength(1);
    expect(restarted.list()[0]!.legIds).toEqual([...exchange.legs.keys()]);
    expect(exchange.replaced).toHaveLength(1);
    expect(exchange.notices.at(-1)).toContain('managed again');
    // Still resized with the position after that.
    exchange.position = 3n * ETH;
    clock.advance(MIN_MOVE_MS);
    await restarted.poll();
    expect(exchange.sizes()).toEqual([3n * ETH, 3n * ETH]);
  });

  it('a lifted pair placed again just before main stopped is found on the book, not placed twice', async () => {
    const { dir, clock, exchange, service } = setup();
    await service.arm(arm);
    // Lifted for a close (no legs recorded), then placed again at the exchange while main stopped.
    const release = await service.hold(market.market_id, false);
    service.dispose();
    expect(exchange.legs.size).toBe(0);
    for (const price of [arm.takeProfit, arm.stopLoss]) {
      const id = `0x${'e'.repeat(63)}${price === arm.takeProfit ? '1' : '2'}`;
      exchange.legs.set(id, 2n * ETH);
      exchange.legPrices.set(id, price);
    }
    void release;
    const restarted = exchange.service(dir, clock);
    clock.advance(MIN_MOVE_MS);
    await restarted.poll();
    expect(exchange.legs.size).toBe(2);
    expect(restarted.list()[0]!.legIds).toEqual([...exchange.legs.keys()]);
  });

  it('is never placed again once a leg fired', async () => {
    const { clock, exchange, service } = setup();
    await service.arm(arm);
    exchange.legs.clear();
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(service.list()).toEqual([]);
    expect(exchange.replaced).toHaveLength(1);
    expect(exchange.notices.at(-1)).toContain('no longer pending');
  });

  it('is lifted for a close and placed again at the size left once released', async () => {
    const { clock, exchange, service } = setup();
    await service.arm(arm);
    const release = await service.hold(market.market_id, false);
    expect(exchange.sizes()).toEqual([]);
    exchange.position = ETH;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    // Held: nothing placed while the close runs.
    expect(exchange.sizes()).toEqual([]);
    release();
    await service.poll();
    expect(exchange.sizes()).toEqual([ETH, ETH]);
  });

  it('keeps working after a restart and says so', async () => {
    const { dir, clock, exchange, service } = setup();
    await service.arm(arm);
    service.dispose();
    const again = exchange.service(dir, clock);
    again.start();
    expect(exchange.notices.at(-1)).toContain('kept working after the restart');
    exchange.position = 3n * ETH;
    clock.advance(MIN_MOVE_MS);
    await again.poll();
    expect(exchange.sizes()).toEqual([3n * ETH, 3n * ETH]);
    again.dispose();
  });

  it('is stopped by the kill switch before its sweep, and no longer resized', async () => {
    const { clock, exchange, service } = setup();
    await service.arm(arm);
    expect(await service.stopAll(undefined)).toBe(1);
    exchange.legs.clear();
    exchange.position = 3n * ETH;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.sizes()).toEqual([]);
    expect(service.list()).toEqual([]);
  });

  it('brackets a fill on a market with an automatic bracket, at the entry plus / minus the offsets, and never a position found at the start', async () => {
    const { clock, exchange, service } = setup();
    expect(service.setAuto({ marketId: market.market_id, unit: 'ticks', takeProfit: 1_000n, stopLoss: 500n }).ok).toBe(true);
    // The first read is a baseline: the position already there is left to the trader.
    await service.poll();
    expect(exchange.replaced).toEqual([]);
    // A fill adds to it: a pair at 3,000 + 10 and 3,000 - 5, sized to the position.
    exchange.position = 3n * ETH;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    const [bracket] = service.list();
    expect(bracket).toMatchObject({ automatic: true, takeProfit: 3_010n * USDC, stopLoss: 2_995n * USDC, placed: 3n * ETH });
    expect(exchange.sizes()).toEqual([3n * ETH, 3n * ETH]);
    // A later fill resizes the same pair; no second pair.
    exchange.position = 4n * ETH;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(service.list()).toHaveLength(1);
    expect(exchange.sizes()).toEqual([4n * ETH, 4n * ETH]);
  });

  it('keeps the pair where it is when a resize is refused, says why, and tries again later', async () => {
    const { clock, exchange, service } = setup();
    await service.arm(arm);
    exchange.refuse = true;
    exchange.position = 3n * ETH;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.sizes()).toEqual([2n * ETH, 2n * ETH]);
    expect(exchange.notices.at(-1)).toContain('too many orders');
    exchange.refuse = false;
    clock.advance(MIN_MOVE_MS);
    await service.poll();
    expect(exchange.sizes()).toEqual([2n * ETH, 2n * ETH]);
    clock.advance(30_000);
    // The pass the clock's timer began ran at the time it was due; one more runs at the time now.
    await service.poll();
    await service.poll();
    expect(exchange.sizes()).toEqual([3n * ETH, 3n * ETH]);
  });
});
