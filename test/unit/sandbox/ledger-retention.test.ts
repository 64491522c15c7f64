// What the ledger keeps for reads, kept cheaply on the matching path (docs/sandbox.md,
// "Performance"): each structure must answer exactly as the plain one it replaced.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RetentionQueue } from '../../../sandbox/ledger/market';
import { listAppended, listItems, listLength, truncated, type OrderRecord, type ShortList } from '../../../sandbox/ledger/orders';
import { BoundedLog } from '../../../sandbox/ledger/trades';
import { fixture } from '../../support/sandbox/ledger-fixture';
import { checkProperty } from '../../support/property';

describe('bounded log (a ring)', () => {
  it('holds the last `capacity` items oldest first, whatever the reads in between', () => {
    checkProperty(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.boolean(), { maxLength: 80 }), (capacity, reads) => {
        const log = new BoundedLog<number>(capacity);
        const pushed: number[] = [];
        reads.forEach((read, i) => {
          log.push(i);
          pushed.push(i);
          if (read) expect([...log.all()]).toEqual(pushed.slice(-capacity));
          expect(log.length).toBe(Math.min(pushed.length, capacity));
        });
        expect([...log.all()]).toEqual(pushed.slice(-capacity));
      }),
      { numRuns: 300 },
    );
  });
});

describe('retention queue (a ring)', () => {
  it('forgets exactly the oldest closed order once past its capacity, in closing order', () => {
    checkProperty(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 60 }), (capacity, count) => {
        const forgotten: number[] = [];
        const queue = new RetentionQueue(capacity, (order) => forgotten.push(order.sequence));
        for (let i = 0; i < count; i++) {
          queue.push({ sequence: i } as OrderRecord);
          // As the array it replaced: after each push, everything but the last `capacity` is forgotten.
          expect(forgotten).toEqual(Array.from({ length: Math.max(0, i + 1 - capacity) }, (_, n) => n));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('price window', () => {
  it('refuses exactly the prices more than the window away: |price - reference| * 100 > reference * window', () => {
    const f = fixture();
    // Calls in a row with the reference and window changing or not (the bounds are cached per pair).
    const call = fc.record({ reference: fc.bigInt({ min: 1n, max: 10n ** 20n }), offset: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), window: fc.integer({ min: 1, max: 100 }), repeat: fc.nat(3) });
    checkProperty(
      fc.property(fc.array(call, { minLength: 1, maxLength: 20 }), (calls) => {
        for (const { reference, offset, window, repeat } of calls) {
          // Around the bound too: the prices at and next to reference ± reference * window / 100.
          const reach = (reference * BigInt(window)) / 100n;
          for (const price of [reference + offset, reference + reach, reference + reach + 1n, reference - reach, reference - reach - 1n, reference]) {
            if (price <= 0n) continue;
            const distance = price > reference ? price - reference : reference - price;
            for (let i = 0; i <= repeat; i++) expect(f.market.outsideWindow(price, reference, window)).toBe(distance * 100n > reference * BigInt(window));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('short list (the fills and history of an order)', () => {
  it('reads as the array it replaced under appends and undo truncations', () => {
    const op = fc.oneof(fc.record({ kind: fc.constant('append' as const), value: fc.nat(1000) }), fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat(12) }));
    checkProperty(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        let list: ShortList<{ value: number }> = undefined;
        let model: { value: number }[] = [];
        for (const step of ops) {
          if (step.kind === 'append') {
            const item = { value: step.value };
            list = listAppended(list, item);
            model = [...model, item];
          } else {
            const length = Math.min(step.keep, model.length);
            list = truncated(list, length);
            model = model.slice(0, length);
          }
          expect(listLength(list)).toBe(model.length);
          expect(listItems(list)).toEqual(model);
          listItems(list).forEach((item, i) => expect(item).toBe(model[i]));
        }
      }),
      { numRuns: 300 },
    );
  });
});
