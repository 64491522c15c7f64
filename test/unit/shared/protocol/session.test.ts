import { describe, expect, it } from 'vitest';
import { ledgerAddress } from '../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../shared/crypto/keys';
import { signDigest, verifySignature } from '../../../../shared/crypto/signature';
import { b256 } from '../../../../shared/encoding/b256';
import { checkSessionGrant, sessionBody, sessionDigest, sessionMessage, type SessionGrant } from '../../../../shared/protocol/session';
import { ascii, hex, nodeSha256 } from '../../../support/shared/crypto/independent';
import { ids } from '../../../support/shared/protocol/fixtures';
import * as vectors from '../../../support/shared/protocol/messages.vectors';

const grant: SessionGrant = {
  nonce: 7n,
  chain_id: 0n,
  session_address: b256(vectors.sessionAddress),
  expiry: 1_700_003_600n,
  contract_ids: [ids.book, ids.registry],
};

const SESSION_MESSAGE_HEX =
  '00000000000000070000000000000000000000000000000b7365745f73657373696f6e000000000000000100000000000000003027f9ce34c64560b7dccac4042ee7d3b476d522db5a8b1883c6e25fd6195a07000000006553ff100000000000000002' +
  `${'c1'.repeat(32)}${'5e'.repeat(32)}`;

describe('session creation (spec 5.6)', () => {
  it('the session address is the ledger address of the session key', () => {
    expect(ledgerAddress(publicKeyOf(vectors.sessionKey))).toBe(vectors.sessionAddress);
  });

  it('known answer: the message, row by row', () => {
    expect(hex(sessionMessage(grant))).toBe(SESSION_MESSAGE_HEX);
    expect(hex(sessionMessage(grant))).toBe(hex(vectors.sessionMessage));
  });

  it('known answer: the ledger-style owner digest', () => {
    const payload = Buffer.concat([Buffer.from([0x19]), ascii('Chain Signed Message:'), Buffer.from([0x0a]), ascii('163'), vectors.sessionMessage]);
    expect(hex(sessionDigest(grant, 'ledger'))).toBe('58a9305863ccbda8c6386fd775403cd6f19c6536268df88abf0574969f985e67');
    expect(hex(sessionDigest(grant, 'ledger'))).toBe(hex(nodeSha256(payload)));
  });

  it('the owner signs it and the service can verify it', () => {
    const owner = ledgerAddress(publicKeyOf(vectors.ownerKey));
    const digest = sessionDigest(grant, 'ledger');
    const signature = signDigest(digest, vectors.ownerKey);
    expect(verifySignature(signature, digest, owner, 'ledger').ok).toBe(true);
    const body = sessionBody(ids.tradeAccount, grant, signature);
    expect(JSON.parse(JSON.stringify(body))).toEqual({
      contract_id: ids.tradeAccount,
      session_id: { Address: vectors.sessionAddress },
      signature: { Secp256k1: `0x${hex(signature)}` },
      contract_ids: [ids.book, ids.registry],
      nonce: '7',
      expiry: '1700003600',
    });
  });

  it('refuses an expiry under one hour, in milliseconds, or an empty scope', () => {
    expect(checkSessionGrant(grant, 1_700_000_000n).ok).toBe(true);
    expect(checkSessionGrant(grant, 1_700_000_001n)).toMatchObject({ ok: false, code: 'EXPIRY_TOO_SOON' });
    expect(checkSessionGrant({ ...grant, expiry: 1_700_003_600_000n }, 1_700_000_000n)).toMatchObject({ ok: false, code: 'EXPIRY_IN_MILLISECONDS' });
    expect(checkSessionGrant({ ...grant, contract_ids: [] }, 1_700_000_000n)).toMatchObject({ ok: false, code: 'NO_CONTRACTS' });
  });
});
