import { describe, expect, it } from 'vitest';
import { personalSignDigest } from '../../../../shared/crypto/digest';
import { bytesToPrefixedHex } from '../../../../shared/encoding/hex';
import { withdrawMessage } from '../../../../shared/protocol/owner-messages';
import { sequentialNonce } from '../../../../shared/protocol/nonce-choice';
import { buildWithdrawRequest, buildSessionRequest, offlineNonceTtlSeconds } from '../../../../shared/offline/build-request';
import { canonicalJson, canonicalHash, prettyCanonicalJson } from '../../../../shared/offline/canonical-json';
import { OFFLINE_CODES } from '../../../../shared/offline/codes';
import { formatDisplayLines, requestDisplayLines } from '../../../../shared/offline/describe';
import { parseOfflineRequest, requestHash, requestToJson } from '../../../../shared/offline/request-format';
import { verifyOfflineRequest, MAXIMUM_REQUEST_LIFETIME_SECONDS } from '../../../../shared/offline/verify-request';
import { ascii, bytes32, hex, u64 } from '../../../support/shared/crypto/independent';
import * as vectors from '../../../support/shared/protocol/messages.vectors';
import {
  editable,
  evmOwner,
  ids,
  ledgerOwner,
  NOW,
  parallel,
  parallelWithdrawRequest,
  sessionAddress,
  sessionRequest,
  unwrap,
  withdrawInput,
  withdrawRequest,
} from '../../../support/shared/offline/fixtures';

const at = { nowSeconds: NOW + 60n };

function refusal(value: unknown, options = at): { code: string; message: string } {
  const result = verifyOfflineRequest(value, options);
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

describe('offline request: building and round trip', () => {
  it('a withdraw request carries the message of shared/protocol (known answer) and its personal-sign digest', () => {
    const verified = withdrawRequest({ amount: 250_000_000n, asset: { id: ids.quoteAsset, symbol: 'USDC', decimals: 9 } });
    const request = verified.request;
    expect(request.message).toBe(`0x${hex(vectors.withdrawSequential)}`);
    expect(request.digest).toBe(bytesToPrefixedHex(personalSignDigest(vectors.withdrawSequential, 'ledger')));
    expect(request.description).toBe(`Withdraw 0.25 USDC (asset ${ids.quoteAsset}) from trade account ${ids.tradeAccount} to Address ${ids.referer}`);
    expect(request.expires_at - request.created_at).toBe(86_400n);
    expect(request.request_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('the description follows the brief: amount in words, asset id, trade account, destination', () => {
    expect(withdrawRequest().request.description).toBe(
      `Withdraw 12.5 USDC (asset ${ids.quoteAsset}) from trade account ${ids.tradeAccount} to Address ${ids.referer}`,
    );
  });

  it('a parallel nonce is carried packed and unpacked, with the typed (u256) message', () => {
    const request = parallelWithdrawRequest().request;
    expect(request.nonce).toMatchObject({ kind: 'parallel', lane: 1, word_position: 17n, bit_position: 3 });
    if (request.nonce.kind !== 'parallel') throw new Error('parallel expected');
    const expected = withdrawMessage({ nonce: { kind: 'parallel', value: request.nonce.value }, chain_id: 0n }, { to: { Address: ids.referer }, amount: 12_500_000n, asset_id: ids.quoteAsset });
    expect(request.message).toBe(bytesToPrefixedHex(expected));
  });

  it('a session request carries the spec 5.6 message (known answer)', () => {
    const request = sessionRequest().request;
    expect(request.kind).toBe('session');
    // Spec 5.6 row by row, written with Buffer rather than shared/encoding.
    const expected = Buffer.concat([u64(7), u64(0), u64(11), ascii('set_session'), u64(1), u64(0), bytes32(sessionAddress), u64(NOW + 30n * 86_400n), u64(2), bytes32(ids.book), bytes32(ids.registry)]);
    expect(request.message).toBe(`0x${hex(expected)}`);
    expect(request.description).toBe(
      `Let session key ${sessionAddress} trade for trade account ${ids.tradeAccount} on 2 contracts until 2023-12-14T22:13:20Z (expiry 1702592000)`,
    );
  });

  it('round trip: JSON text, compact or indented, parses back to the same request and hash', () => {
    for (const verified of [withdrawRequest(), parallelWithdrawRequest(), sessionRequest(), withdrawRequest({ owner: evmOwner })]) {
      const json = requestToJson(verified.request);
      const compact = canonicalJson(json);
      const pretty = prettyCanonicalJson(json);
      expect(unwrap(parseOfflineRequest(JSON.parse(compact)))).toEqual(verified.request);
      expect(unwrap(parseOfflineRequest(JSON.parse(pretty)))).toEqual(verified.request);
      expect(canonicalHash(JSON.parse(pretty))).toBe(verified.hash);
      expect(requestHash(verified.request)).toBe(verified.hash);
      expect(unwrap(verifyOfflineRequest(JSON.parse(pretty), at)).hash).toBe(verified.hash);
    }
  });

  it('the canonical text has sorted keys and only ASCII', () => {
    const text = canonicalJson(requestToJson(withdrawRequest().request));
    expect(text.startsWith('{"chain_id":"0","created_at":"1700000000","description":')).toBe(true);
    expect(/^[\x20-\x7e]*$/.test(text)).toBe(true);
    expect(canonicalJson({ b: 1, a: ['é', null, true] })).toBe('{"a":["\\u00e9",null,true],"b":1}');
    expect(() => canonicalJson({ a: 1.5 })).toThrow(/only safe integers/);
  });

  it('the display shows every field, the nonce expiry, the message and the digest in full', () => {
    const verified = parallelWithdrawRequest();
    const text = formatDisplayLines(requestDisplayLines(verified.request, verified.hash));
    for (const needle of [verified.request.description, verified.request.message, verified.request.digest, verified.hash, ids.quoteAsset, '12500000 raw units = 12.5 USDC', 'lane 1, word 17, bit 3', 'unusable after 2023-11-15T23:13:20Z = 1700090000', 'Address 0x4e4e']) {
      expect(text).toContain(needle);
    }
  });

  it('the builder refuses what the signer would refuse: a zero amount, a parallel nonce shorter than the request, a long lifetime', () => {
    expect(buildWithdrawRequest(withdrawInput({ amount: 0n }))).toMatchObject({ ok: false, code: OFFLINE_CODES.INVALID_FIELD });
    expect(buildWithdrawRequest(withdrawInput({ nonce: parallel(NOW + 120n) }))).toMatchObject({ ok: false, code: OFFLINE_CODES.NONCE_EXPIRY });
    expect(buildWithdrawRequest(withdrawInput({ lifetimeSeconds: MAXIMUM_REQUEST_LIFETIME_SECONDS + 1n }))).toMatchObject({ ok: false, code: OFFLINE_CODES.BAD_LIFETIME });
    expect(buildWithdrawRequest(withdrawInput({ asset: { id: ids.quoteAsset, symbol: 'US\u001b[2KDC', decimals: 6 } }))).toMatchObject({
      ok: false,
      code: OFFLINE_CODES.MALFORMED,
      message: expect.stringContaining('request.withdraw.asset_symbol') as unknown,
    });
    expect(buildWithdrawRequest(withdrawInput({ amount: 1n << 64n }))).toMatchObject({ ok: false, code: OFFLINE_CODES.MALFORMED, message: expect.stringContaining('request.withdraw.amount') as unknown });
    const soon = buildSessionRequest({
      network: 'testnet', chain_id: 0n, owner: ledgerOwner, trade_account_id: ids.tradeAccount, nowSeconds: NOW, random: () => new Uint8Array(16),
      nonce: 1n, session_address: sessionAddress, expiry: NOW + 60n, contract_ids: [ids.book],
    });
    expect(soon).toMatchObject({ ok: false, code: OFFLINE_CODES.INVALID_FIELD, message: expect.stringContaining('less than one hour') as unknown });
  });
});

describe('offline request: refusals', () => {
  it('tampered message bytes', () => {
    const json = editable(withdrawRequest().request);
    const message = json.message as string;
    json.message = `${message.slice(0, -2)}${message.endsWith('00') ? '01' : '00'}`;
    const result = refusal(json);
    expect(result.code).toBe(OFFLINE_CODES.MESSAGE_MISMATCH);
    expect(result.message).toMatch(/^request\.message: .*first difference at byte 111/);
  });

  it('tampered digest', () => {
    const json = editable(withdrawRequest().request);
    json.digest = `0x${'ab'.repeat(32)}`;
    expect(refusal(json)).toMatchObject({ code: OFFLINE_CODES.DIGEST_MISMATCH, message: expect.stringMatching(/^request\.digest: stated 0xabab/) as unknown });
  });

  it('tampered amount with the old message and digest left in place', () => {
    const json = editable(withdrawRequest().request);
    (json.withdraw as Record<string, unknown>).amount = '999000000';
    expect(refusal(json).code).toBe(OFFLINE_CODES.MESSAGE_MISMATCH);
  });

  it('tampered amount and message, with the old digest', () => {
    const original = withdrawRequest().request;
    const json = editable(original);
    (json.withdraw as Record<string, unknown>).amount = '999000000';
    json.message = bytesToPrefixedHex(withdrawMessage({ nonce: sequentialNonce(3n), chain_id: 0n }, { to: { Address: ids.referer }, amount: 999_000_000n, asset_id: ids.quoteAsset }));
    expect(refusal(json).code).toBe(OFFLINE_CODES.DIGEST_MISMATCH);
  });

  it('tampered words: a description that says something else than the fields', () => {
    const json = editable(withdrawRequest().request);
    json.description = (json.description as string).replace('12.5 USDC', '1.25 USDC');
    expect(refusal(json)).toMatchObject({ code: OFFLINE_CODES.DESCRIPTION_MISMATCH, message: expect.stringContaining('request.description') as unknown });
  });

  it('wrong style: an EVM style on a ledger address, and a ledger style on an EVM address', () => {
    const ledgerJson = editable(withdrawRequest().request);
    (ledgerJson.owner as Record<string, unknown>).style = 'evm';
    expect(refusal(ledgerJson)).toMatchObject({ code: OFFLINE_CODES.STYLE_MISMATCH, message: expect.stringContaining('request.owner.style: stated "evm"') as unknown });
    const evmJson = editable(withdrawRequest({ owner: evmOwner }).request);
    (evmJson.owner as Record<string, unknown>).style = 'ledger';
    expect(refusal(evmJson)).toMatchObject({ code: OFFLINE_CODES.STYLE_MISMATCH, message: expect.stringContaining('first 12 bytes are zero') as unknown });
  });

  it('expired, named with the time it expired', () => {
    const json = editable(withdrawRequest().request);
    const result = refusal(json, { nowSeconds: NOW + 86_400n });
    expect(result.code).toBe(OFFLINE_CODES.EXPIRED);
    expect(result.message).toContain('request.expires_at: the request expired at 2023-11-15T22:13:20Z (1700086400), 0 seconds ago');
  });

  it('created in the future (a clock is wrong), or with an inconsistent or overlong lifetime', () => {
    expect(refusal(editable(withdrawRequest().request), { nowSeconds: NOW - 301n }).code).toBe(OFFLINE_CODES.NOT_YET_VALID);
    expect(verifyOfflineRequest(editable(withdrawRequest().request), { nowSeconds: NOW - 300n }).ok).toBe(true);
    const backwards = editable(withdrawRequest().request);
    backwards.expires_at = backwards.created_at;
    expect(refusal(backwards).code).toBe(OFFLINE_CODES.BAD_LIFETIME);
  });

  it('malformed parallel nonce: stated fields differ from the packed value, reserved bits, or on a session', () => {
    const lane = editable(parallelWithdrawRequest().request);
    (lane.nonce as Record<string, unknown>).lane = 2;
    expect(refusal(lane)).toMatchObject({ code: OFFLINE_CODES.MALFORMED_NONCE, message: expect.stringContaining('request.nonce.lane: stated 2, but the packed nonce') as unknown });
    const expiry = editable(parallelWithdrawRequest().request);
    (expiry.nonce as Record<string, unknown>).expiry = '4102444800';
    expect(refusal(expiry)).toMatchObject({ code: OFFLINE_CODES.MALFORMED_NONCE, message: expect.stringContaining('request.nonce.expiry') as unknown });
    const reserved = editable(parallelWithdrawRequest().request);
    const nonce = reserved.nonce as Record<string, unknown>;
    nonce.value = ((1n << 200n) | BigInt(nonce.value as string)).toString();
    expect(refusal(reserved)).toMatchObject({ code: OFFLINE_CODES.MALFORMED_NONCE, message: expect.stringContaining('reserved bits') as unknown });
    const session = editable(sessionRequest().request);
    session.nonce = (editable(parallelWithdrawRequest().request).nonce as unknown);
    expect(refusal(session)).toMatchObject({ code: OFFLINE_CODES.MALFORMED_NONCE, message: expect.stringContaining('sequential nonce (spec 5.6)') as unknown });
  });

  it('a parallel nonce that expires before the request', () => {
    const json = editable(parallelWithdrawRequest().request);
    const nonceExpiry = BigInt((json.nonce as Record<string, unknown>).expiry as string);
    json.expires_at = (nonceExpiry + 1n).toString();
    expect(refusal(json)).toMatchObject({ code: OFFLINE_CODES.NONCE_EXPIRY, message: expect.stringContaining('request.nonce.expiry: the parallel nonce is unusable after') as unknown });
  });

  it('unknown version and unknown format are refused before anything else', () => {
    const json = editable(withdrawRequest().request);
    json.version = 2;
    json.surprise = 'a field this signer would not show';
    expect(refusal(json)).toMatchObject({ code: OFFLINE_CODES.UNKNOWN_VERSION, message: 'request.version: version 2 is not supported; this build understands version 1 only' });
    const other = editable(withdrawRequest().request);
    other.format = 'ledger-terminal/offline-signature';
    expect(refusal(other).code).toBe(OFFLINE_CODES.UNKNOWN_FORMAT);
    expect(refusal([]).code).toBe(OFFLINE_CODES.UNKNOWN_FORMAT);
  });

  it('strict shape: an extra key, uppercase hex, a leading zero, a control character, each named', () => {
    const cases: [(json: Record<string, unknown>) => void, string][] = [
      [(json) => (json.note = 'hi'), 'request'],
      [(json) => ((json.withdraw as Record<string, unknown>).asset_id = ids.quoteAsset.toUpperCase().replace('0X', '0x')), 'request.withdraw.asset_id'],
      [(json) => ((json.withdraw as Record<string, unknown>).amount = '012500000'), 'request.withdraw.amount'],
      [(json) => (json.description = 'Withdraw\u001b[8m'), 'request.description'],
      [(json) => ((json.withdraw as Record<string, unknown>).to = { Address: ids.referer, ContractId: ids.referer }), 'request.withdraw.to'],
      [(json) => delete json.expires_at, 'request.expires_at'],
    ];
    for (const [edit, field] of cases) {
      const json = editable(withdrawRequest().request);
      edit(json);
      const result = refusal(json);
      expect(result.code).toBe(OFFLINE_CODES.MALFORMED);
      expect(result.message.startsWith(field)).toBe(true);
    }
  });

  it('the session policy of the service: expiry at least an hour ahead, in seconds', () => {
    const json = editable(sessionRequest().request);
    expect(refusal(json, { nowSeconds: NOW + 30n * 86_400n - 60n }).code).toBe(OFFLINE_CODES.EXPIRED);
    const warned = unwrap(verifyOfflineRequest(json, at));
    expect(warned.warnings.join(' ')).toContain('Sequential nonce 7');
  });
});

describe('offline nonce lifetime', () => {
  it('a nonce issued with offlineNonceTtlSeconds(lifetime) outlives a request of that lifetime', () => {
    expect(offlineNonceTtlSeconds()).toBe(90_000n);
    for (const lifetime of [3_600n, 86_400n, 3n * 86_400n]) {
      const built = buildWithdrawRequest(withdrawInput({ lifetimeSeconds: lifetime, nonce: parallel(NOW + offlineNonceTtlSeconds(lifetime)) }));
      expect(built.ok).toBe(true);
    }
  });
});
