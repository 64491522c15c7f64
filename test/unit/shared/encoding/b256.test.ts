import { describe, expect, it } from 'vitest';
import { b256, b256FromBytes, b256ToBytes, parseB256, parseOwnerB256, ZERO_B256 } from '../../../../shared/encoding/b256';

const lower = `0x${'ab'.repeat(32)}`;

describe('B256', () => {
  it('normalises case', () => {
    expect(parseB256(`0x${'AB'.repeat(32)}`, 'market_id')).toEqual({ ok: true, value: lower });
  });

  it('requires the prefix except for the owner header form', () => {
    const bare = 'ab'.repeat(32);
    const refused = parseB256(bare, 'market_id');
    expect(!refused.ok && refused.message).toBe(`market_id: expected 0x followed by 64 hex digits, got "${bare}"`);
    expect(parseOwnerB256(bare, 'Svc-Owner-Id')).toEqual({ ok: true, value: lower });
    expect(parseOwnerB256(lower, 'Svc-Owner-Id')).toEqual({ ok: true, value: lower });
    expect(parseOwnerB256(bare.slice(2), 'Svc-Owner-Id').ok).toBe(false);
  });

  it.each([`0x${'a'.repeat(63)}`, `0x${'a'.repeat(65)}`, `0x${'g'.repeat(64)}`, null, ''])('refuses %j', (value) => {
    const result = parseB256(value, 'contract_id');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.code).toBe('INVALID_B256');
  });

  it('converts to and from bytes', () => {
    const bytes = b256ToBytes(b256(lower));
    expect(bytes.length).toBe(32);
    expect(b256FromBytes(bytes)).toBe(lower);
    expect(b256ToBytes(ZERO_B256)).toEqual(new Uint8Array(32));
  });
});
