// The owner-call request (POST /v1/accounts/upgrade, call, calls, actions): the message is rebuilt
// from the calls alone, each call is shown whole, and a tampered call, selector, nonce or shape is
// refused with the field named, as for a withdrawal or a session.
import { describe, expect, it } from 'vitest';
import { buildOwnerCallRequest } from '../../../../shared/offline/build-request';
import { OFFLINE_CODES } from '../../../../shared/offline/codes';
import { formatDisplayLines, requestDisplayLines } from '../../../../shared/offline/describe';
import { LIMITS, parseOfflineRequest } from '../../../../shared/offline/request-format';
import { signVerifiedRequest } from '../../../../shared/offline/sign';
import { verifyOfflineRequest } from '../../../../shared/offline/verify-request';
import { verifyOfflineResponse } from '../../../../shared/offline/verify-response';
import { responseToJson } from '../../../../shared/offline/response-format';
import { U64_MAX } from '../../../../shared/encoding/decimal';
import { makeCall } from '../../../../shared/protocol/call';
import { sequentialNonce } from '../../../../shared/protocol/nonce-choice';
import { ascii, bytes32, hex, u64 } from '../../../support/shared/crypto/independent';
import { editable, ids, ledgerKey, NOW, ownerCallInput, ownerCallRequest, unwrap } from '../../../support/shared/offline/fixtures';

const at = { nowSeconds: NOW + 60n };

function selector(name: string): Buffer {
  return Buffer.concat([u64(name.length), ascii(name)]);
}

function refusal(value: unknown): { code: string; message: string; details?: Record<string, unknown> } {
  const result = verifyOfflineRequest(value, at);
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

type Json = Record<string, unknown>;
const ownerCall = (json: Json) => json.owner_call as Json & { calls: Json[]; parameters: Json[] };

describe('owner-call request: building', () => {
  it('signs nonce ‖ chain id ‖ call_contracts ‖ the calls (known answer, written with Buffer)', () => {
    const verified = ownerCallRequest({ nonce: sequentialNonce(5n) });
    const data = Buffer.concat([u64(1), bytes32(ids.tradeAccount)]);
    const expected = Buffer.concat([
      u64(5),
      u64(0),
      selector('call_contracts'),
      u64(1),
      bytes32(ids.book),
      selector('settle_balance'),
      u64(0),
      bytes32(ids.zero),
      u64(U64_MAX),
      u64(1),
      u64(data.length),
      data,
    ]);
    expect(verified.request.message).toBe(`0x${hex(expected)}`);
    expect(verified.request.description).toBe(
      `Owner call for trade account ${ids.tradeAccount}: settle_balance on ${ids.book} (POST /v1/accounts/actions; method "settleBalance" per the online terminal)`,
    );
  });

  it('an upgrade signs no call: nonce ‖ chain id ‖ set_proxy_target_with_signature', () => {
    const implementation = ids.child;
    const verified = ownerCallRequest({ nonce: sequentialNonce(5n), endpoint: 'upgrade', method: 'upgrade', implementation, calls: [], parameters: [{ name: 'implementation', value: implementation }] });
    expect(verified.request.message).toBe(`0x${hex(Buffer.concat([u64(5), u64(0), selector('set_proxy_target_with_signature')]))}`);
    expect(verified.warnings.join(' ')).toContain('carries no implementation');
  });

  it('round trip: the text parses back to the same request, and a signature for it is accepted', () => {
    const verified = ownerCallRequest();
    const json = editable(verified.request);
    expect(unwrap(parseOfflineRequest(json))).toEqual(verified.request);
    const response = unwrap(signVerifiedRequest(verified, ledgerKey));
    const accepted = unwrap(verifyOfflineResponse(verified.request, responseToJson(response), at));
    // The body is main's to rebuild from its own table (the actions endpoint names owner actions).
    expect(accepted.body).toEqual({ kind: 'owner-call', body: null });
    expect(accepted.verified.message).toEqual(verified.message);
  });

  it('the display shows every call whole, the stated method and parameters marked as not signed', () => {
    const twoCalls = ownerCallRequest({
      method: 'settleBooks',
      endpoint: 'calls',
      parameters: [
        { name: 'marketId', value: ids.market },
        { name: 'secondMarketId', value: ids.child },
      ],
      calls: [makeCall(ids.book, 'settle_balance', Uint8Array.from([1, 2])), makeCall(ids.turboBook, 'settle_balance', null, { amount: 7n, asset: ids.quoteAsset })],
    });
    const text = formatDisplayLines(requestDisplayLines(twoCalls.request, twoCalls.hash));
    expect(text).toContain('Endpoint:');
    expect(text).toContain('POST /v1/accounts/calls');
    expect(text).toContain('settleBooks (stated by the online terminal; the calls below are what is signed)');
    expect(text).toContain(`Parameter secondMarketId: ${ids.child} (stated by the online terminal, not signed)`);
    expect(text).toMatch(new RegExp(`Call 1/2 contract: +${ids.book}\n`));
    expect(text).toMatch(/Call 1\/2 function: +settle_balance\n/);
    expect(text).toMatch(/Call 1\/2 call data: +0x0102 \(2 bytes\)\n/);
    expect(text).toMatch(new RegExp(`Call 2/2 contract: +${ids.turboBook}\n`));
    expect(text).toMatch(new RegExp(`Call 2/2 forwards: +7 raw units of asset ${ids.quoteAsset}\n`));
    expect(text).toMatch(/Call 2\/2 call data: +none\n/);
    expect(twoCalls.warnings.join(' ')).toContain('Call 2 forwards funds');
  });
});

describe('owner-call request: refusals', () => {
  it('a tampered call: selector, contract, call data or gas, with the old message and digest', () => {
    const edits: ((call: Json) => void)[] = [
      (call) => (call.selector = 'withdraw'),
      (call) => (call.contract_id = ids.turboBook),
      (call) => (call.call_data = '0x00'),
      (call) => (call.gas = '1'),
      (call) => (call.amount = '5'),
    ];
    for (const edit of edits) {
      const json = editable(ownerCallRequest().request);
      edit(ownerCall(json).calls[0]!);
      expect(refusal(json).code).toBe(OFFLINE_CODES.MESSAGE_MISMATCH);
    }
  });

  it('a tampered call with the message rebuilt but the old digest; a tampered nonce', () => {
    const other = ownerCallRequest({ calls: [makeCall(ids.turboBook, 'settle_balance', null)] }).request;
    const json = editable(ownerCallRequest().request);
    ownerCall(json).calls = ownerCall(editable(other)).calls;
    json.message = other.message;
    expect(refusal(json).code).toBe(OFFLINE_CODES.DIGEST_MISMATCH);
    const nonce = editable(ownerCallRequest({ nonce: sequentialNonce(5n) }).request);
    nonce.nonce = { kind: 'sequential', value: '6' };
    expect(refusal(nonce).code).toBe(OFFLINE_CODES.MESSAGE_MISMATCH);
  });

  it('stated words that differ from the fields: another method name or parameter', () => {
    const json = editable(ownerCallRequest().request);
    ownerCall(json).method = 'whitelist';
    expect(refusal(json)).toMatchObject({ code: OFFLINE_CODES.DESCRIPTION_MISMATCH });
  });

  it('the shape of each endpoint: an upgrade with a call or without implementation, a call with two, an action with none', () => {
    const upgradeWithCall = editable(ownerCallRequest().request);
    ownerCall(upgradeWithCall).endpoint = 'upgrade';
    ownerCall(upgradeWithCall).implementation = ids.child;
    expect(buildOwnerCallRequest(ownerCallInput({ endpoint: 'upgrade', implementation: ids.child }))).toMatchObject({ ok: false, details: { field: 'request.owner_call.calls' } });
    expect(buildOwnerCallRequest(ownerCallInput({ endpoint: 'upgrade', calls: [] }))).toMatchObject({ ok: false, details: { field: 'request.owner_call.implementation' } });
    const call = makeCall(ids.book, 'cancel_order', null);
    expect(buildOwnerCallRequest(ownerCallInput({ endpoint: 'call', calls: [call, call] }))).toMatchObject({ ok: false, code: OFFLINE_CODES.INVALID_FIELD, details: { field: 'request.owner_call.calls' } });
    expect(buildOwnerCallRequest(ownerCallInput({ calls: [] }))).toMatchObject({ ok: false, details: { field: 'request.owner_call.calls' } });
    expect(buildOwnerCallRequest(ownerCallInput({ implementation: ids.child }))).toMatchObject({ ok: false, details: { field: 'request.owner_call.implementation' } });
    expect(
      buildOwnerCallRequest(ownerCallInput({ parameters: [{ name: 'marketId', value: ids.market }, { name: 'marketId', value: ids.child }] })),
    ).toMatchObject({ ok: false, details: { field: 'request.owner_call.parameters[1].name' } });
  });

  it('strict shape with limits, each field named: too many calls, oversized call data, a control character, a bad selector, an extra key', () => {
    const call = makeCall(ids.book, 'settle_balance', null);
    const cases: [Partial<Parameters<typeof ownerCallInput>[0]>, string][] = [
      [{ endpoint: 'calls', calls: Array.from({ length: LIMITS.maxCalls + 1 }, () => call) }, 'request.owner_call.calls'],
      [{ calls: [makeCall(ids.book, 'settle_balance', new Uint8Array(LIMITS.maxCallDataBytes + 1))] }, 'request.owner_call.calls[0].call_data'],
      [{ parameters: [{ name: 'marketId', value: 'ETH\u001b[2J' }] }, 'request.owner_call.parameters[0].value'],
      [{ calls: [makeCall(ids.book, 'settle balance\n', null)] }, 'request.owner_call.calls[0].selector'],
      [{ method: 'settle_balance' }, 'request.owner_call.method'],
    ];
    for (const [overrides, field] of cases) {
      const result = buildOwnerCallRequest(ownerCallInput(overrides));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toContain(field);
    }
    const extra = editable(ownerCallRequest().request);
    (ownerCall(extra).calls[0] as Json).note = 'x';
    expect(refusal(extra).message).toContain('request.owner_call.calls[0]');
    const bigAmount = editable(ownerCallRequest().request);
    ownerCall(bigAmount).calls[0]!.amount = (U64_MAX + 1n).toString();
    expect(refusal(bigAmount)).toMatchObject({ code: OFFLINE_CODES.MALFORMED, details: { field: 'request.owner_call.calls[0].amount' } });
  });

  it('a build of this format that does not know the kind refuses it by name (the kind is part of the strict union)', () => {
    const json = editable(ownerCallRequest().request);
    json.kind = 'owner-kall';
    expect(refusal(json).message).toContain('request.kind');
  });
});
