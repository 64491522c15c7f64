// Referral codes: look a code up (GET /analytics/v1/referral/code-info) and register its owner as
// this account's referer with a RegisterReferer session action, signed by the session key through
// the trading submitter (journaled, reconciled like every order). Invalid, inactive and own codes
// are refused with the reason before anything is signed.
import type { B256 } from '../../../shared/encoding/b256';
import type { ReferralCodeView, ReferralRegistrationView } from '../../../shared/ipc/views';
import { fail, ok, type Result } from '../../../shared/result';
import { CUSTODY_CODES } from './codes';
import type { CustodyKeys, CustodyRuntime, ReferralInfo } from './custody-runtime';

function usability(code: string, info: ReferralInfo, owner: string | null): { usable: boolean; code: string | null; reason: string | null } {
  if (!info.valid || info.ownerAddress === null) return { usable: false, code: CUSTODY_CODES.REFERRAL_INVALID, reason: `code: ${JSON.stringify(code)} is not a referral code the exchange knows` };
  if (!info.isActive) return { usable: false, code: CUSTODY_CODES.REFERRAL_INACTIVE, reason: `code: ${JSON.stringify(code)} exists but is not active any more; ask its owner for a current one` };
  if (owner !== null && info.ownerAddress.toLowerCase() === owner) return { usable: false, code: CUSTODY_CODES.REFERRAL_SELF, reason: `code: ${JSON.stringify(code)} belongs to this owner (${owner}); an account cannot refer itself` };
  return { usable: true, code: null, reason: null };
}

export async function lookupReferral(rt: CustodyRuntime, code: string): Promise<Result<ReferralCodeView>> {
  const info = await rt.referralInfo(code);
  if (!info.ok) return fail(info.code, `The referral code could not be looked up: ${info.message}`, info.details);
  const verdict = usability(code, info.value, rt.activeOwner()?.address ?? null);
  return ok({ code, valid: info.value.valid, active: info.value.isActive, refererAddress: info.value.ownerAddress, usable: verdict.usable, reason: verdict.reason });
}

export async function registerReferral(rt: CustodyRuntime, keys: CustodyKeys | null, code: string, nowSeconds: bigint): Promise<Result<ReferralRegistrationView>> {
  const owner = rt.activeOwner();
  const record = rt.accountRecord();
  if (!owner) return fail('NO_OWNER', 'Set up an owner first (onboarding)');
  if (!record) return fail('NO_TRADE_ACCOUNT', 'Create the trading account first (onboarding)');
  const info = await rt.referralInfo(code);
  if (!info.ok) return fail(info.code, `The referral code could not be looked up: ${info.message}`, info.details);
  const verdict = usability(code, info.value, owner.address);
  if (!verdict.usable) return fail(verdict.code ?? CUSTODY_CODES.REFERRAL_INVALID, verdict.reason ?? 'unusable code', { field: 'code' });
  const referer = info.value.ownerAddress as B256;

  const session = record.session;
  if (!session || session.expiry <= nowSeconds) return fail('NO_SESSION', 'Registering a referral is a session action: create a trading session first');
  const markets = await rt.markets();
  if (!markets.ok) return markets;
  const registry = markets.value.response.accounts_registry_id;
  if (!session.contractIds.includes(registry)) {
    return fail(
      CUSTODY_CODES.REFERRAL_OUT_OF_SCOPE,
      `The trading session ${session.sessionAddress} does not cover the accounts registry ${registry}, which RegisterReferer calls; ` +
        'create a session that includes it (a watch-only owner\'s session requests always do).',
    );
  }
  if (keys === null) return fail('KEYCHAIN_UNAVAILABLE', 'The session key is in the keychain, which is not available');
  const loaded = await keys.loadSessionKey(session.sessionAddress as B256);
  if (!loaded.ok) return loaded;
  // The call targets the registry; the group still names a market, one the session covers.
  const scoped = session.contractIds.map((contractId) => markets.value.byContract(contractId)).find((found) => found !== null && !found.turbo);
  const market = scoped?.market ?? markets.value.markets()[0];
  if (!market) return fail('NOT_CONNECTED', 'The network lists no market');
  const submitted = await rt.submitSessionActions({
    groups: [{ market_id: market.market_id, market, actions: [{ kind: 'RegisterReferer', to: { Address: referer } }] }],
    description: `Register referral code ${code}: referer Address ${referer}`,
    settleFirst: false,
  });
  if (!submitted.ok) return fail(submitted.code, `The referral was not registered: ${submitted.message}`, submitted.details);
  return ok({ code, refererAddress: referer, journalId: submitted.value.journalId, txId: submitted.value.txId });
}
