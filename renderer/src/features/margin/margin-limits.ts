// The most a credit action can take, from the Turbo Account's live risk report (what it holds,
// owes, may draw and may borrow), with where the figure comes from, so the form refuses an amount
// above it before the confirmation. The same bounds main applies before signing
// (margin-credit.ts); main still checks against the state of that moment.
import type { MarginAssetRef, MarginRiskView } from '../../../../shared/ipc/views/margin';
import type { AmountLimit } from './margin-input';

export type CreditKind = 'draw' | 'returnQuote' | 'borrow' | 'repay' | 'addCollateral' | 'withdraw' | 'repayFromCollateral' | 'repayBaseFromCollateral';

export interface LimitInputs {
  readonly kind: CreditKind;
  readonly asset: MarginAssetRef;
  /** The live risk report of the account; null while it is not live (then no bound: main checks). */
  readonly risk: MarginRiskView | null;
  /** Drawn quote outstanding (the session's), when known. */
  readonly quoteDrawn: bigint | null;
  /** Quote the borrow returns first in its own batch (raises what it may borrow). */
  readonly returningFirst?: boolean;
}

const least = (limits: readonly (AmountLimit | null)[]): AmountLimit | null =>
  limits.reduce<AmountLimit | null>((lowest, limit) => (limit === null ? lowest : lowest === null || limit.amount < lowest.amount ? limit : lowest), null);

export function creditLimit(input: LimitInputs): AmountLimit | null {
  const { risk, asset } = input;
  // Only figures of the same live report: a bound from an older read could refuse what is allowed now.
  if (risk === null) return null;
  const assetRisk = risk.assets.find((entry) => entry.assetId === asset.assetId) ?? null;
  // The report lists non-collateral assets only: what the account holds of the collateral is main's to check.
  const holds: AmountLimit | null = assetRisk === null ? null : { amount: assetRisk.onAccount, where: 'on the Turbo Account' };
  const debt = assetRisk === null ? null : { amount: assetRisk.debt, where: 'owed in debt' };
  const drawn = input.quoteDrawn === null ? null : { amount: input.quoteDrawn, where: 'drawn' };
  switch (input.kind) {
    case 'draw':
      return least([{ amount: risk.drawableQuote, where: 'to draw now (the pool and the credit line)' }, { amount: risk.loanHeadroom, where: 'under the credit line (loan headroom)' }]);
    case 'returnQuote':
      return least([holds, drawn]);
    case 'borrow':
      return assetRisk === null ? null : { amount: input.returningFirst ? assetRisk.borrowableReturningQuoteFirst : assetRisk.borrowable, where: 'to borrow now' };
    case 'repay':
      return least([holds, debt]);
    case 'addCollateral':
    case 'withdraw':
      return holds;
    case 'repayFromCollateral':
      return least([drawn, { amount: risk.netCollateral, where: 'in net posted collateral' }]);
    case 'repayBaseFromCollateral':
      return debt;
  }
}
