import { describe, expect, it } from 'vitest';
import { personalSignDigest } from '../../../../shared/crypto/digest';
import { signDigest } from '../../../../shared/crypto/signature';
import { bytesToPrefixedHex } from '../../../../shared/encoding/hex';
import { withdrawBody } from '../../../../shared/protocol/owner-messages';
import { sessionBody } from '../../../../shared/protocol/session';
import { sequentialNonce } from '../../../../shared/protocol/nonce-choice';
import { canonicalJson } from '../../../../shared/offline/canonical-json';
import { OFFLINE_CODES } from '../../../../shared/offline/codes';
import { parseOfflineDocument } from '../../../../shared/offline/documents';
import { parseOfflineRequest, type OfflineRequest } from '../../../../shared/offline/request-format';
import { parseOfflineResponse, responseToJson, type OfflineResponse } from '../../../../shared/offline/response-format';
import { signVerifiedRequest } from '../../../../shared/offline/sign';
import { verifyOfflineResponse } from '../../../../shared/offline/verify-response';
import { verifyOfflineRequest } from '../../../../shared/offline/verify-request';
import { checkAssetLabels, parseAssetLabels } from '../../../../shared/offline/asset-labels';
import { curve, nodeSha256, vendoredKeccak256 } from '../../../support/shared/crypto/independent';
import { editable, evmKey, evmOwner, ids, ledgerKey, NOW, otherKey, parallelWithdrawRequest, sessionRequest, unwrap, withdrawRequest } from '../../../support/shared/offline/fixtures';

const later = { nowSeconds: NOW + 3_600n };

function json(response: OfflineResponse): Record<string, unknown> {
  return JSON.parse(canonicalJson(responseToJson(response))) as Record<string, unknown>;
}

/** Recover with elliptic (not @noble/curves) and hash the public key ourselves. */
function independentRecover(signatureHex: string, digest: Uint8Array, style: 'ledger' | 'evm'): string {
  const bytes = Buffer.from(signatureHex.slice(2), 'hex');
  const recovery = bytes[32]! >> 7;
  const s = Buffer.from(bytes.subarray(32));
  s[0] = s[0]! & 0x7f;
  const point = curve.recoverPubKey(Buffer.from(digest), { r: bytes.subarray(0, 32).toString('hex'), s: s.toString('hex') }, recovery);
  const raw = Buffer.from(point.encode('array', false) as number[]).subarray(1);
  if (style === 'ledger') return `0x${nodeSha256(raw).toString('hex')}`;
  return `0x${'00'.repeat(12)}${vendoredKeccak256(raw).subarray(12).toString('hex')}`;
}

describe('offline signature: sign and verify', () => {
  it('signs the rebuilt digest; the signature recovers (independently) to the owner; the online side accepts it and builds the body', () => {
    const verified = withdrawRequest();
    const response = unwrap(signVerifiedRequest(verified, ledgerKey));
    expect(response).toMatchObject({ request_id: verified.request.request_id, request_hash: verified.hash, signer: verified.request.owner.address });
    expect(independentRecover(response.signature, verified.digest, 'ledger')).toBe(verified.request.owner.address);
    const accepted = unwrap(verifyOfflineResponse(verified.request, json(response), later));
    const signature = Buffer.from(response.signature.slice(2), 'hex');
    expect(accepted.body).toEqual({
      kind: 'withdraw',
      body: withdrawBody(ids.tradeAccount, { nonce: sequentialNonce(3n), chain_id: 0n }, { to: { Address: ids.referer }, amount: 12_500_000n, asset_id: ids.quoteAsset }, signature),
    });
    expect(accepted.body.body?.signature).toEqual({ Secp256k1: response.signature });
  });

  it('an EVM-style owner signs the Keccak personal-sign digest', () => {
    const verified = withdrawRequest({ owner: evmOwner });
    expect(verified.request.owner.address.startsWith(`0x${'00'.repeat(12)}`)).toBe(true);
    const response = unwrap(signVerifiedRequest(verified, evmKey));
    expect(independentRecover(response.signature, verified.digest, 'evm')).toBe(evmOwner.address);
    expect(verifyOfflineResponse(verified.request, json(response), later).ok).toBe(true);
  });

  it('a parallel-nonce withdraw gets the typed signature tag; a session gets the PUT /v1/session body', () => {
    const parallel = parallelWithdrawRequest();
    const accepted = unwrap(verifyOfflineResponse(parallel.request, json(unwrap(signVerifiedRequest(parallel, ledgerKey))), later));
    expect(accepted.body.body).toMatchObject({ parallel_nonce: String(parallel.request.nonce.value), signature: { TypedSecp256k1: expect.any(String) as unknown } });
    const session = sessionRequest();
    const signed = unwrap(signVerifiedRequest(session, ledgerKey));
    const sessionAccepted = unwrap(verifyOfflineResponse(session.request, json(signed), later));
    if (session.request.kind !== 'session') throw new Error('session expected');
    expect(sessionAccepted.body).toEqual({
      kind: 'session',
      body: sessionBody(ids.tradeAccount, { nonce: 7n, chain_id: 0n, session_address: session.request.session.session_address, expiry: session.request.session.expiry, contract_ids: session.request.session.contract_ids }, Buffer.from(signed.signature.slice(2), 'hex')),
    });
  });

  it('the signer refuses a key that is not the owner', () => {
    expect(signVerifiedRequest(withdrawRequest(), otherKey)).toMatchObject({ ok: false, code: OFFLINE_CODES.WRONG_OWNER, message: expect.stringContaining('request.owner.address: the request is for owner') as unknown });
    // The EVM owner's key used as a ledger-style key gives another address.
    expect(signVerifiedRequest(withdrawRequest(), evmKey)).toMatchObject({ ok: false, code: OFFLINE_CODES.WRONG_OWNER });
  });

  it('response round trip and strict parse', () => {
    const response = unwrap(signVerifiedRequest(withdrawRequest(), ledgerKey));
    expect(unwrap(parseOfflineResponse(json(response)))).toEqual(response);
    expect(unwrap(parseOfflineDocument(json(response)))).toEqual({ kind: 'response', response });
    const request = withdrawRequest().request;
    expect(unwrap(parseOfflineDocument(editable(request)))).toEqual({ kind: 'request', request });
    expect(parseOfflineDocument({ format: 'x' })).toMatchObject({ ok: false, code: OFFLINE_CODES.UNKNOWN_FORMAT });
    const future = { ...json(response), version: 2 };
    expect(parseOfflineResponse(future)).toMatchObject({ ok: false, code: OFFLINE_CODES.UNKNOWN_VERSION });
    const extra = { ...json(response), note: 'x' };
    expect(parseOfflineResponse(extra)).toMatchObject({ ok: false, code: OFFLINE_CODES.MALFORMED });
  });
});

describe('offline signature: what the online side refuses', () => {
  const verified = withdrawRequest();
  const response = unwrap(signVerifiedRequest(verified, ledgerKey));

  it('an answer to another request (id)', () => {
    const other = withdrawRequest({ random: () => new Uint8Array(16).fill(0xee) });
    expect(verifyOfflineResponse(other.request, json(response), later)).toMatchObject({ ok: false, code: OFFLINE_CODES.RESPONSE_MISMATCH, message: expect.stringContaining('response.request_id') as unknown });
  });

  it('a signature over a request altered on the way (same id, other hash): consistent tampering is caught by the hash', () => {
    // A tamperer edits amount, message, digest and words consistently; the signer would accept
    // it (and a person would see 999), but the online side's pending request has another hash.
    const tampered = editable(verified.request);
    const edited = { ...tampered, withdraw: { ...(tampered.withdraw as object), amount: '999000000' } };
    const reparsed = unwrap(parseOfflineRequest(edited));
    const rebuilt = withdrawRequest({ amount: 999_000_000n, random: () => Buffer.from(verified.request.request_id, 'hex') });
    expect(reparsed.request_id).toBe(rebuilt.request.request_id);
    const signedTampered = unwrap(signVerifiedRequest(unwrap(verifyOfflineRequest(editable(rebuilt.request), later)), ledgerKey));
    expect(verifyOfflineResponse(verified.request, json(signedTampered), later)).toMatchObject({
      ok: false,
      code: OFFLINE_CODES.RESPONSE_MISMATCH,
      message: expect.stringContaining('response.request_hash') as unknown,
    });
  });

  it('a signer field that is not the owner', () => {
    expect(verifyOfflineResponse(verified.request, { ...json(response), signer: evmOwner.address }, later)).toMatchObject({ ok: false, code: OFFLINE_CODES.WRONG_OWNER });
  });

  it('a signature by another key, or over another digest', () => {
    const byOther = bytesToPrefixedHex(signDigest(verified.digest, otherKey));
    expect(verifyOfflineResponse(verified.request, { ...json(response), signature: byOther }, later)).toMatchObject({
      ok: false,
      code: OFFLINE_CODES.SIGNATURE_INVALID,
      message: expect.stringContaining('response.signature: signature recovers to') as unknown,
    });
    // The right key over the EVM-style digest of the same message (a style confusion).
    const wrongDigest = bytesToPrefixedHex(signDigest(personalSignDigest(Buffer.from(verified.request.message.slice(2), 'hex'), 'evm'), ledgerKey));
    expect(verifyOfflineResponse(verified.request, { ...json(response), signature: wrongDigest }, later)).toMatchObject({ ok: false, code: OFFLINE_CODES.SIGNATURE_INVALID });
  });

  it('a malleated (n - s) signature: its top bit lands on the recovery id, so it is another signature and is refused', () => {
    const bytes = Buffer.from(response.signature.slice(2), 'hex');
    const n = BigInt(`0x${curve.n!.toString(16)}`);
    const s = BigInt(`0x${Buffer.concat([Buffer.from([bytes[32]! & 0x7f]), bytes.subarray(33)]).toString('hex')}`);
    const high = Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex');
    const malleated = Buffer.concat([bytes.subarray(0, 32), high]);
    expect(verifyOfflineResponse(verified.request, { ...json(response), signature: `0x${malleated.toString('hex')}` }, later)).toMatchObject({
      ok: false,
      code: OFFLINE_CODES.SIGNATURE_INVALID,
    });
  });

  it('a signature that comes back after the request expired', () => {
    expect(verifyOfflineResponse(verified.request, json(response), { nowSeconds: verified.request.expires_at })).toMatchObject({
      ok: false,
      code: OFFLINE_CODES.EXPIRED,
      message: expect.stringContaining('request.expires_at: the request expired') as unknown,
    });
  });
});

describe('trusted asset labels', () => {
  const labels = unwrap(
    parseAssetLabels({ format: 'ledger-terminal/asset-labels', version: 1, assets: [{ network: 'testnet', asset_id: ids.quoteAsset, symbol: 'USDC', decimals: 6 }] }),
  );
  const request: OfflineRequest = withdrawRequest().request;

  it('accepts a request labelled as the list says', () => {
    expect(checkAssetLabels(request, labels).ok).toBe(true);
    expect(checkAssetLabels(sessionRequest().request, labels).ok).toBe(true);
  });

  it('refuses a relabelled asset (other decimals would misstate the amount) and an unknown asset', () => {
    const relabelled = withdrawRequest({ asset: { id: ids.quoteAsset, symbol: 'USDC', decimals: 9 } }).request;
    expect(checkAssetLabels(relabelled, labels)).toMatchObject({ ok: false, code: OFFLINE_CODES.ASSET_LABEL_MISMATCH, message: expect.stringContaining('with 9 decimals') as unknown });
    const unknown = withdrawRequest({ asset: { id: ids.baseAsset, symbol: 'ETH', decimals: 9 } }).request;
    expect(checkAssetLabels(unknown, labels)).toMatchObject({ ok: false, code: OFFLINE_CODES.ASSET_UNKNOWN });
    expect(checkAssetLabels({ ...request, network: 'mainnet' }, labels)).toMatchObject({ ok: false, code: OFFLINE_CODES.ASSET_UNKNOWN });
  });

  it('parses the list strictly', () => {
    expect(parseAssetLabels({ format: 'ledger-terminal/asset-labels', version: 1, assets: [{ network: 'testnet', asset_id: ids.quoteAsset, symbol: 'U\u0053DC\u200b', decimals: 6 }] })).toMatchObject({
      ok: false,
      code: OFFLINE_CODES.MALFORMED,
      message: expect.stringContaining('assets file.assets[0].symbol') as unknown,
    });
  });
});
