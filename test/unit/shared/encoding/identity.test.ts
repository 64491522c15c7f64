import { describe, expect, it } from 'vitest';
import { b256 } from '../../../../shared/encoding/b256';
import { ByteWriter } from '../../../../shared/encoding/byte-writer';
import { formatIdentity, identityToJson, parseIdentity } from '../../../../shared/encoding/identity';

const id = b256(`0x${'11'.repeat(32)}`);

describe('Identity', () => {
  it('parses both variants', () => {
    expect(parseIdentity({ Address: id }, 'to')).toEqual({ ok: true, value: { Address: id } });
    expect(parseIdentity({ ContractId: id }, 'to')).toEqual({ ok: true, value: { ContractId: id } });
  });

  it.each([{}, { Address: id, ContractId: id }, { Wallet: id }, [id], id, null])('refuses %j', (value) => {
    const result = parseIdentity(value, 'to');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.startsWith('to')).toBe(true);
  });

  it('names the nested field when the id is bad', () => {
    const result = parseIdentity({ Address: '0x12' }, 'to');
    expect(!result.ok && result.message).toBe('to.Address: expected 0x followed by 64 hex digits, got "0x12"');
  });

  it('encodes the discriminant then the 32 bytes', () => {
    const address = new ByteWriter().identity({ Address: id }).finish();
    const contract = new ByteWriter().identity({ ContractId: id }).finish();
    expect(Buffer.from(address).toString('hex')).toBe(`0000000000000000${'11'.repeat(32)}`);
    expect(Buffer.from(contract).toString('hex')).toBe(`0000000000000001${'11'.repeat(32)}`);
  });

  it('formats and serialises', () => {
    expect(formatIdentity({ ContractId: id })).toBe(`ContractId ${id}`);
    expect(JSON.stringify(identityToJson({ Address: id }))).toBe(`{"Address":"${id}"}`);
  });
});
