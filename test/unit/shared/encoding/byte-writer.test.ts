import { describe, expect, it } from 'vitest';
import { ByteWriter } from '../../../../shared/encoding/byte-writer';
import { BugError } from '../../../../shared/result';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('ByteWriter', () => {
  it('writes u64 and u256 big-endian', () => {
    expect(hex(new ByteWriter().u64(0x0102030405060708n).finish())).toBe('0102030405060708');
    expect(hex(new ByteWriter().u256(1n).finish())).toBe(`${'00'.repeat(31)}01`);
    expect(hex(new ByteWriter().u256((1n << 255n) | 0xffn).finish())).toBe(`80${'00'.repeat(30)}ff`);
  });

  it('writes a selector as u64 length then UTF-8 (create_order, spec example)', () => {
    expect(hex(new ByteWriter().selector('create_order').finish())).toBe(`000000000000000c${Buffer.from('create_order').toString('hex')}`);
  });

  it('writes Option and Vec with u64 markers', () => {
    const none = new ByteWriter().option<bigint>(null, (w, v) => w.u64(v)).finish();
    const some = new ByteWriter().option(5n, (w, v) => w.u64(v)).finish();
    const list = new ByteWriter().vec([1n, 2n], (w, v) => w.u64(v)).finish();
    expect(hex(none)).toBe('0000000000000000');
    expect(hex(some)).toBe('00000000000000010000000000000005');
    expect(hex(list)).toBe('000000000000000200000000000000010000000000000002');
  });

  it('grows past its initial capacity', () => {
    const writer = new ByteWriter(4);
    for (let index = 0; index < 100; index++) writer.u64(BigInt(index));
    const bytes = writer.finish();
    expect(bytes.length).toBe(800);
    expect(Buffer.from(bytes).readBigUInt64BE(99 * 8)).toBe(99n);
  });

  it('treats an out-of-range value as a bug', () => {
    expect(() => new ByteWriter().u64(-1n)).toThrow(BugError);
    expect(() => new ByteWriter().u64(1n << 64n)).toThrow(BugError);
    expect(() => new ByteWriter().bytes32(new Uint8Array(31))).toThrow(BugError);
  });
});
