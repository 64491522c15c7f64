import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ParallelNonceAllocator } from '../../../../shared/nonce/allocator';
import { windowFromSnapshot } from '../../../../shared/nonce/lane-window';
import { positionIndex } from '../../../../shared/nonce/parallel-packing';
import { checkProperty } from '../../../support/property';

const now = 1_700_000_000n;

describe('parallel nonce allocator', () => {
  it('refuses to issue before it is seeded', () => {
    expect(new ParallelNonceAllocator(0).issue(now)).toMatchObject({ ok: false, code: 'NONCE_LANE_NOT_SEEDED' });
  });

  it('starts just after the highest consumed position, not in a hole, and stamps the expiry', () => {
    const allocator = new ParallelNonceAllocator(1);
    allocator.observeWindow(windowFromSnapshot({ lane: 1, base: 0n, slots: [{ word_position: 0n, bitmap: 0b1011n }] }));
    const issued = allocator.issue(now);
    expect(issued).toMatchObject({ ok: true, value: { fields: { lane: 1, word_position: 0n, bit_position: 4, expiry: now + 120n } } });
    expect(allocator.issue(now)).toMatchObject({ ok: true, value: { fields: { bit_position: 5 } } });
  });

  it('takes its ttl as a parameter', () => {
    const allocator = new ParallelNonceAllocator(0, { ttlSeconds: 3_600n });
    allocator.seedFromCursor({ lane: 0, next_index: 0n });
    expect(allocator.issue(now)).toMatchObject({ ok: true, value: { fields: { expiry: now + 3_600n } } });
    const late = new ParallelNonceAllocator(0);
    late.seedFromCursor({ lane: 0, next_index: 0n });
    expect(late.issue(0xffff_ffffn)).toMatchObject({ ok: false, code: 'NONCE_EXPIRY_OUT_OF_RANGE' });
  });

  it('skips positions another client consumed above the cursor', () => {
    const allocator = new ParallelNonceAllocator(0);
    allocator.seedFromCursor({ lane: 0, next_index: 0n });
    allocator.observeWindow(windowFromSnapshot({ lane: 0, base: 0n, slots: [] }));
    expect(allocator.issue(now)).toMatchObject({ ok: true, value: { fields: { bit_position: 0 } } });
    // Another device consumed 1 and 3; the window shows it. The cursor moves past the highest.
    allocator.observeWindow(windowFromSnapshot({ lane: 0, base: 0n, slots: [{ word_position: 0n, bitmap: 0b1010n }] }));
    expect(allocator.issue(now)).toMatchObject({ ok: true, value: { fields: { bit_position: 4 } } });
  });

  it('follows the window when it slides past the cursor', () => {
    const allocator = new ParallelNonceAllocator(0);
    allocator.seedFromCursor({ lane: 0, next_index: 5n });
    allocator.observeWindow(windowFromSnapshot({ lane: 0, base: 8n, slots: [] }));
    expect(allocator.issue(now)).toMatchObject({ ok: true, value: { fields: { word_position: 8n, bit_position: 0 } } });
  });

  it('refuses when every position of the window is issued', () => {
    const allocator = new ParallelNonceAllocator(0);
    allocator.observeWindow(windowFromSnapshot({ lane: 0, base: 0n, slots: [] }));
    allocator.seedFromCursor({ lane: 0, next_index: positionIndex(7n, 127) });
    expect(allocator.issue(now).ok).toBe(true);
    expect(allocator.issue(now)).toMatchObject({ ok: false, code: 'NONCE_WINDOW_FULL' });
  });

  it('a consumed upper-half position slides the local window', () => {
    const allocator = new ParallelNonceAllocator(0);
    allocator.observeWindow(windowFromSnapshot({ lane: 0, base: 0n, slots: [] }));
    allocator.seedFromCursor({ lane: 0, next_index: positionIndex(4n, 0) });
    const issued = allocator.issue(now);
    if (!issued.ok) throw new Error(issued.message);
    allocator.recordConsumed(issued.value.fields);
    expect(allocator.currentWindow()?.base).toBe(4n);
  });

  it('never reuses a position across a restart from the persisted cursor', () => {
    checkProperty(
      fc.property(
        fc.array(fc.record({ issues: fc.integer({ min: 0, max: 40 }), consume: fc.boolean(), restart: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        (steps) => {
          const issued = new Set<bigint>();
          const consumed: bigint[] = [];
          let persisted = { lane: 2, next_index: 0n };
          let allocator = new ParallelNonceAllocator(2);
          allocator.seedFromCursor(persisted);
          for (const step of steps) {
            if (step.restart) {
              // A restart: a new allocator from the saved cursor, then a window read that only shows consumed positions.
              allocator = new ParallelNonceAllocator(2);
              allocator.seedFromCursor(persisted);
              const words = new Map<bigint, bigint>();
              for (const index of consumed) words.set(index / 128n, (words.get(index / 128n) ?? 0n) | (1n << (index % 128n)));
              const base = 0n;
              allocator.observeWindow(windowFromSnapshot({ lane: 2, base, slots: [...words].map(([word_position, bitmap]) => ({ word_position, bitmap })) }));
            }
            for (let count = 0; count < step.issues; count++) {
              const result = allocator.issue(now);
              if (!result.ok) break;
              const index = positionIndex(result.value.fields.word_position, result.value.fields.bit_position);
              expect(issued.has(index)).toBe(false);
              issued.add(index);
              persisted = allocator.cursor()!;
              if (step.consume) {
                consumed.push(index);
                allocator.recordConsumed(result.value.fields);
              }
            }
          }
        },
      ),
    );
  });
});
