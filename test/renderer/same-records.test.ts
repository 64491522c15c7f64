import { describe, expect, it } from 'vitest';
import { sameRecords } from '../../renderer/src/stores/terminal-store';

describe('sameRecords (a push that repeats a list is not applied again)', () => {
  const fill = { orderId: '0x01', marketId: '0xaa', side: 'Buy', price: 3_000_000_000n, quantity: 10_000_000n, fee: 30n, turbo: false, account: '0xbb', time: 1 };

  it('is true for the same records in the same order, fresh objects and all', () => {
    expect(sameRecords([fill, { ...fill, time: 2 }], [{ ...fill }, { ...fill, time: 2 }])).toBe(true);
    expect(sameRecords([], [])).toBe(true);
  });

  it('is false for a changed field (bigints by value), another length, another order or a field more', () => {
    expect(sameRecords([fill], [{ ...fill, quantity: 10_000_001n }])).toBe(false);
    expect(sameRecords([fill], [fill, fill])).toBe(false);
    expect(sameRecords([fill, { ...fill, time: 2 }], [{ ...fill, time: 2 }, fill])).toBe(false);
    expect(sameRecords<object>([fill], [{ ...fill, extra: 1 }])).toBe(false);
    expect(sameRecords<object>([{ ...fill, price: null }], [{ ...fill, price: 0n }])).toBe(false);
  });

  it('counts a field holding an object as changed, unless the record is the very same object', () => {
    const nested = { ...fill, band: { min: 1n } };
    expect(sameRecords([nested], [nested])).toBe(true);
    expect(sameRecords([nested], [{ ...nested }])).toBe(false);
  });
});
