import { describe, expect, it } from 'vitest';
import { parseSignatureJson, signatureToJson } from '../../../../shared/crypto/signature-json';

const bytes = Uint8Array.from({ length: 64 }, (_, index) => index);

describe('signature JSON', () => {
  it('writes both variants with 0x and 128 hex digits', () => {
    const hexText = `0x${Buffer.from(bytes).toString('hex')}`;
    expect(signatureToJson(bytes, 'Secp256k1')).toEqual({ Secp256k1: hexText });
    expect(signatureToJson(bytes, 'TypedSecp256k1')).toEqual({ TypedSecp256k1: hexText });
    expect(parseSignatureJson({ TypedSecp256k1: hexText }, 'signature')).toEqual({ ok: true, value: { variant: 'TypedSecp256k1', bytes } });
  });

  it.each([{ Secp256r1: '0x00' }, { Secp256k1: '0x00' }, { Secp256k1: `0x${'00'.repeat(64)}`, Ed25519: 'x' }, '0x00'])('refuses %j', (value) => {
    expect(parseSignatureJson(value, 'signature')).toMatchObject({ ok: false, code: 'INVALID_SIGNATURE' });
  });
});
