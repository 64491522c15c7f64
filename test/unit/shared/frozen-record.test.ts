// What may be kept instead of copied: only an object nothing can change. The bridge encoder keeps
// the text of such a record and the window hub keeps it by reference, so a wrong "yes" here would
// put an old price or status on a trader's screen.
import { describe, expect, it } from 'vitest';
import { isFrozenRecord } from '../../../shared/frozen-record';
import { encodeFrame } from '../../../shared/ipc/codec';

const view = () => ({ orderId: '0x01', price: 3_000_000_000n, filled: 0n, status: 'open', turbo: false, time: 1, note: null, gone: undefined });

describe('frozen records', () => {
  it('is a frozen plain object whose members are all primitive data', () => {
    expect(isFrozenRecord(Object.freeze(view()))).toBe(true);
    expect(isFrozenRecord(Object.freeze({}))).toBe(true);
  });

  it('is not anything that could still change or compute its members', () => {
    expect(isFrozenRecord(view())).toBe(false);
    expect(isFrozenRecord(Object.seal(view()))).toBe(false);
    expect(isFrozenRecord(Object.freeze({ ...view(), nested: { price: 1n } }))).toBe(false);
    expect(isFrozenRecord(Object.freeze({ ...view(), list: [1n] }))).toBe(false);
    let reads = 0n;
    expect(isFrozenRecord(Object.freeze({ get price() { return reads++; } }))).toBe(false);
    expect(isFrozenRecord(Object.freeze([1n, 2n]))).toBe(false);
    expect(isFrozenRecord(Object.freeze(new (class { price = 1n })()))).toBe(false);
    expect(isFrozenRecord(Object.freeze(Object.assign(Object.create(null) as object, { price: 1n })))).toBe(false);
    expect(isFrozenRecord(Object.freeze({ call: () => 1 }))).toBe(false);
  });

  it('encodes to the same text as the same data unfrozen, on every push', () => {
    const plain = { t: 'push', payload: { open: [view(), { ...view(), orderId: '0x02', filled: 5n }] } };
    const frozen = { t: 'push', payload: { open: plain.payload.open.map((order) => Object.freeze({ ...order })) } };
    const expected = encodeFrame(plain);
    expect(encodeFrame(frozen)).toBe(expected);
    expect(encodeFrame(frozen)).toBe(expected);
    expect(expected).toContain('"filled":{"$bigint":"5"}');
  });

  it('writes a record that is not frozen as it is now, however often it was written before', () => {
    const order = view();
    expect(encodeFrame(order)).toContain('"price":{"$bigint":"3000000000"}');
    order.price = 3_100_000_000n;
    expect(encodeFrame(order)).toContain('"price":{"$bigint":"3100000000"}');
    let price = 1n;
    const computed = Object.freeze({
      get price() {
        return price;
      },
    });
    expect(encodeFrame(computed)).toBe('{"price":{"$bigint":"1"}}');
    price = 2n;
    expect(encodeFrame(computed)).toBe('{"price":{"$bigint":"2"}}');
  });
});
