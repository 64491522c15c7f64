// What a withdrawal must satisfy before anything is signed (or carried to the offline signer):
// an asset the markets use, a destination that does not lose or bounce the funds, no more than the
// trading account itself holds, and room in the client's budget of 10 withdrawals a minute.
import { ZERO_B256, type B256 } from '../../../shared/encoding/b256';
import { identityKind, identityValue, type Identity } from '../../../shared/encoding/identity';
import { formatUnits } from '../../../shared/encoding/units';
import { fail, ok, type Result } from '../../../shared/result';
import { RATE_RULES } from '../../exchange/rate-rules';
import type { AssetInfo, MarketsIndex } from '../market-data/markets-index';
import { CUSTODY_CODES } from './codes';

export interface WithdrawFields {
  readonly assetId: B256;
  readonly amount: bigint;
  readonly to: Identity;
}

export function checkWithdrawFields(fields: WithdrawFields, markets: MarketsIndex, tradeAccountId: B256, networkName: string): Result<AssetInfo> {
  const asset = markets.asset(fields.assetId);
  if (!asset) {
    const known = markets
      .assets()
      .map((candidate) => `${candidate.symbol} ${candidate.assetId}`)
      .join(', ');
    return fail(CUSTODY_CODES.UNKNOWN_ASSET, `assetId: ${fields.assetId} is not an asset of any market on ${networkName} (they use ${known})`, { field: 'assetId' });
  }
  const target = identityValue(fields.to);
  if (target === ZERO_B256) {
    // Nobody holds the key of the zero id: funds sent there are gone.
    return fail(CUSTODY_CODES.INVALID_DESTINATION, `to.${identityKind(fields.to)}: ${target} is the zero id; nothing sent there can ever be spent`, { field: 'to' });
  }
  if (target === tradeAccountId) {
    return fail(CUSTODY_CODES.INVALID_DESTINATION, `to.${identityKind(fields.to)}: ${target} is this trading account itself; a withdrawal must leave it`, { field: 'to' });
  }
  return ok(asset);
}

/** Only the balance on the account itself can be withdrawn; balances in books are settled to it first. */
export function checkOnAccount(amount: bigint, onAccount: bigint, asset: AssetInfo): Result<void> {
  if (amount <= onAccount) return ok(undefined);
  const show = (raw: bigint) => `${formatUnits(raw, asset.decimals)} ${asset.symbol} (${raw} raw units)`;
  return fail(
    CUSTODY_CODES.INSUFFICIENT_ON_ACCOUNT,
    `amount: ${show(amount)} is more than the ${show(onAccount)} on the trading account itself; funds in order books must be settled to the account first, and open orders cancelled`,
    { field: 'amount', onAccount: onAccount.toString() },
  );
}

/** The client's share of the spec's 10 per minute per owner: refuse rather than queue a signed withdrawal. */
export function checkWithdrawBudget(budget: { readonly remaining: number; readonly nextFreeAt: number | null }, nowMs: number): Result<void> {
  if (budget.remaining > 0) return ok(undefined);
  const seconds = budget.nextFreeAt === null ? null : Math.max(1, Math.ceil((budget.nextFreeAt - nowMs) / 1000));
  return fail(
    CUSTODY_CODES.WITHDRAW_RATE_LIMITED,
    `withdraw: the exchange allows ${RATE_RULES.withdraw.limit} withdrawals a minute per owner and this owner has used them${seconds === null ? '' : `; the next one is possible in ${seconds} s`}`,
    { retryAfterSeconds: seconds },
  );
}
