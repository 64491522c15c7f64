// The market's order index keys orders by their sequence; a lookup by id must still answer only
// the order whose id is exactly the one asked for, as a Map keyed by the id string did, and a
// reverted placement must leave nothing behind.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountOrders } from '../../../sandbox/ledger/order-index';
import type { OrderRecord } from '../../../sandbox/ledger/orders';
import { isRevert } from '../../../sandbox/ledger/revert';
import { ETH, fixture, place, placed, USDC } from '../../support/sandbox/ledger-fixture';
import { checkProperty } from '../../support/property';

describe('order index', () => {
  it('finds an order by its exact id only', () => {
    const f = fixture();
    const orders = Array.from({ length: 5000 }, (_, i) => placed(place(f, f.alice, 'Buy', (1000n + BigInt(i % 7)) * USDC, ETH / 10n)));
    for (const order of [orders[0], orders[4095], orders[4096], orders[4999]]) {
      expect(f.market.orders.get(order!.id)).toBe(order);
      expect(f.market.orders.has(order!.id)).toBe(true);
    }
    const id = orders[4096]!.id;
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(id.slice(-16)).toBe(`00${(4097).toString(16).padStart(14, '0')}`);
    // Same sequence, not the same id: another case, another prefix, another kind, padding, junk.
    for (const other of [id.toUpperCase().replace('0X', '0x'), `0x1${id.slice(3)}`, `${id.slice(0, -16)}01${id.slice(-14)}`, `${id}0`, id.slice(0, -1), `${id.slice(0, -14)}0000000000100g`, '', 'constructor']) {
      if (other === id) continue;
      expect(f.market.orders.get(other)).toBeUndefined();
    }
    expect(f.market.orders.size).toBe(5000);
    expect([...f.market.orders.values()]).toEqual(orders);
  });

  it('drops an order placed in a reverted batch', () => {
    const f = fixture();
    const kept = placed(place(f, f.alice, 'Buy', 1000n * USDC, ETH));
    let dropped: string | undefined;
    const result = f.ledger.transact(() => {
      const order = f.market.createOrder({ account: f.alice, txId: 'tx-revert', timestamp: 1n }, { side: 'Buy', price: 1001n * USDC, quantity: ETH, orderType: { kind: 'Spot' } });
      if (!isRevert(order)) dropped = order.id;
      return f.market.createOrder({ account: f.alice, txId: 'tx-revert', timestamp: 1n }, { side: 'Buy', price: 0n, quantity: ETH, orderType: { kind: 'Spot' } });
    });
    expect(isRevert(result)).toBe(true);
    expect(dropped).toBeDefined();
    expect(f.market.orders.get(dropped as string)).toBeUndefined();
    expect([...f.market.orders.values()]).toEqual([kept]);
    expect([...(f.market.ordersByAccount.get(f.alice.id) ?? [])]).toEqual([kept]);
    // The sequence is reused by the next order, under the same id as the dropped one had.
    const next = placed(place(f, f.alice, 'Buy', 1002n * USDC, ETH));
    expect(next.id).toBe(dropped);
    expect(f.market.orders.get(next.id)).toBe(next);
  });
});

describe('account orders', () => {
  it('iterates, counts and removes exactly as a Set of the same orders would', () => {
    // Orders are added in increasing sequence (a revert frees the last sequence for reuse);
    // removals hit any of them, in any order.
    const step = fc.oneof(fc.record({ kind: fc.constant('add' as const), gap: fc.integer({ min: 0, max: 3 }) }), fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }), fc.constant({ kind: 'revert' as const }));
    checkProperty(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const list = new AccountOrders();
        const reference = new Set<OrderRecord>();
        let sequence = 0;
        let last: OrderRecord | undefined;
        for (const s of steps) {
          if (s.kind === 'add') {
            sequence += 1 + s.gap;
            last = { sequence } as OrderRecord;
            list.add(last);
            reference.add(last);
          } else if (s.kind === 'revert') {
            if (last === undefined) continue;
            expect(list.delete(last)).toBe(reference.delete(last));
            sequence = last.sequence - 1;
            last = undefined;
          } else {
            const all = [...reference];
            const victim = all[s.pick % Math.max(1, all.length)];
            if (victim === undefined) continue;
            expect(list.delete(victim)).toBe(true);
            reference.delete(victim);
            expect(list.delete(victim)).toBe(false);
            if (victim === last) last = undefined;
          }
          expect(list.size).toBe(reference.size);
        }
        expect([...list]).toEqual([...reference]);
        for (const order of reference) expect(list.has(order)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
