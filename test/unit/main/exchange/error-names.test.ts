// Refusal bodies that name their error (`{code, name, message}`, docs/protocol.md "Response variants
// accepted"): still a refusal, never a revert; the name is kept for the trader and the caller.
import { describe, expect, it } from 'vitest';
import { actionsResultSchema } from '../../../../shared/api/account-schemas';
import { responseFailure } from '../../../../main/exchange/errors';

const read = { label: 'GET /v1/depth', write: false, signed: false, parallelNonce: false };
const signed = { label: 'POST /v1/session/actions', write: true, signed: true, parallelNonce: true };

describe('error names on the wire', () => {
  it('keeps the name of a refusal and says it beside the code', () => {
    const failure = responseFailure(read, 404, { code: 2001, name: 'MarketNotFound', message: 'Market 0xab has no Turbo order book' });
    expect(failure).toMatchObject({ code: 'REQUEST_REFUSED', details: { exchangeCode: 2001, exchangeName: 'MarketNotFound' } });
    expect(failure?.message).toContain('code 2001 MarketNotFound');
  });

  it('a named refusal of a signed write is pre-flight (nonce not consumed), not a revert', () => {
    const body = { code: 2001, name: 'MarketNotFound', message: 'Market 0xab has no Turbo order book' };
    expect(responseFailure(signed, 400, body)).toMatchObject({ code: 'PREFLIGHT_REFUSED', details: { nonceConsumed: false, exchangeName: 'MarketNotFound' } });
    expect(actionsResultSchema.parse(body)).toEqual({ kind: 'refused', code: 2001, name: 'MarketNotFound', message: body.message });
  });

  it('a refusal without a name is read as before', () => {
    const failure = responseFailure(read, 404, { code: 2002, message: 'no such order' });
    expect(failure?.details).not.toHaveProperty('exchangeName');
    expect(failure?.message).toContain('code 2002)');
  });
});
