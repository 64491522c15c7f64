import { describe, expect, it } from 'vitest';
import { evmAddress, evmAddressText, isEvmStyleAddress, ledgerAddress, ownerStyleOf } from '../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../shared/crypto/keys';
import { b256 } from '../../../../shared/encoding/b256';
import { hex, nodeSha256, vendoredKeccak256 } from '../../../support/shared/crypto/independent';

const one = new Uint8Array(32);
one[31] = 1;
const key = Buffer.from('c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721', 'hex');

describe('addresses', () => {
  it('ledger style is SHA-256 of the 64-byte public key', () => {
    const publicKey = publicKeyOf(one);
    expect(ledgerAddress(publicKey)).toBe('0x09c0b2d1a486c439a87bcba6b46a7a1a23f3897cc83a94521a96da5c23bc58db');
    expect(ledgerAddress(publicKey)).toBe(`0x${hex(nodeSha256(publicKey.subarray(1)))}`);
    expect(ledgerAddress(publicKeyOf(key))).toBe('0x3027f9ce34c64560b7dccac4042ee7d3b476d522db5a8b1883c6e25fd6195a07');
  });

  it('EVM style is the Ethereum address left-padded (key 1 is the well-known 0x7e5f…5bdf)', () => {
    const publicKey = publicKeyOf(one);
    expect(evmAddress(publicKey)).toBe('0x0000000000000000000000007e5f4552091a69125d5dfcb7b8c2659029395bdf');
    expect(evmAddress(publicKeyOf(key))).toBe(`0x${'00'.repeat(12)}${hex(vendoredKeccak256(publicKeyOf(key).subarray(1)).subarray(12))}`);
    expect(evmAddressText(evmAddress(publicKey))).toBe('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf');
  });

  it('accepts a compressed public key', () => {
    const compressed = Buffer.from('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex');
    expect(ledgerAddress(compressed)).toBe(ledgerAddress(publicKeyOf(one)));
  });

  it('infers the style from 12 leading zero bytes', () => {
    expect(isEvmStyleAddress(evmAddress(publicKeyOf(key)))).toBe(true);
    expect(isEvmStyleAddress(ledgerAddress(publicKeyOf(key)))).toBe(false);
    expect(ownerStyleOf(b256(`0x${'00'.repeat(11)}01${'ff'.repeat(20)}`))).toBe('ledger');
    expect(ownerStyleOf(b256(`0x${'00'.repeat(12)}${'ff'.repeat(20)}`))).toBe('evm');
  });
});
