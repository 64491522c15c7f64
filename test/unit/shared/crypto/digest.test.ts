import { describe, expect, it } from 'vitest';
import { personalSignDigest, personalSignPayload, sessionActionDigest } from '../../../../shared/crypto/digest';
import { ascii, hex, nodeSha256, vendoredKeccak256 } from '../../../support/shared/crypto/independent';

const message = ascii('session actions vector');

describe('digests', () => {
  it('session actions: SHA-256 of the message, no prefix', () => {
    expect(hex(sessionActionDigest(message))).toBe('d24cb71b8a40d86366fc3042f738b93529a9357038976253cdf9fddb9638e426');
    expect(hex(sessionActionDigest(message))).toBe(hex(nodeSha256(message)));
  });

  it('ledger personal sign: SHA-256(0x19 ‖ "Chain Signed Message:" ‖ 0x0a ‖ decimal length ‖ message)', () => {
    const payload = Buffer.concat([Buffer.from([0x19]), ascii('Chain Signed Message:'), Buffer.from([0x0a]), ascii('22'), message]);
    expect(hex(personalSignPayload(message, 'ledger'))).toBe(hex(payload));
    expect(hex(personalSignDigest(message, 'ledger'))).toBe('4922946df766fbc444dd75d9bb8448efb4187758ed316508fb8cb313cdf6558a');
    expect(hex(personalSignDigest(message, 'ledger'))).toBe(hex(nodeSha256(payload)));
  });

  it('EVM personal sign: Keccak-256 with "EVM Signed Message:"', () => {
    const payload = Buffer.concat([Buffer.from([0x19]), ascii('EVM Signed Message:'), Buffer.from([0x0a]), ascii('22'), message]);
    expect(hex(personalSignPayload(message, 'evm'))).toBe(hex(payload));
    expect(hex(personalSignDigest(message, 'evm'))).toBe('81d0180ddb790b7a0600aee08c88468c119cc9f8f0fb6175bd28d25bf15c80a2');
    expect(hex(personalSignDigest(message, 'evm'))).toBe(hex(vendoredKeccak256(payload)));
  });

  it('the length is the decimal byte count of the message, not of the text', () => {
    const long = new Uint8Array(1234);
    const payload = personalSignPayload(long, 'ledger');
    expect(Buffer.from(payload.subarray(23, 27)).toString('ascii')).toBe('1234');
    expect(payload.length).toBe(1 + 21 + 1 + 4 + 1234);
  });
});
