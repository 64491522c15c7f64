// What unblocks the clean close of a Turbo Account (margin-api 4.4 rule 4: quote returned and every
// in-kind debt repaid before CloseMarginSession): drawn quote is returned from what the account
// holds, and in-kind debt repaid from what it holds of that asset; on a legacy session what the
// account lacks is then repaid from posted collateral (RepayFromCollateral, RepayBaseFromCollateral,
// legacy remedies per rule 2) while the net collateral covers it. A prepaid session has no
// collateral to repay from: nothing is offered for what it lacks. Pure: no I/O.
import type { CloseRemedy, MarginAssetRef } from '../../../shared/ipc/views/margin';

export interface CloseRemediesInput {
  readonly legacy: boolean;
  readonly collateral: MarginAssetRef;
  /** Drawn quote still outstanding, collateral raw units. */
  readonly drawn: bigint;
  /** What the account holds of the collateral asset. */
  readonly held: bigint;
  /** Posted collateral net of fees (what a repay from collateral may take). */
  readonly netCollateral: bigint;
  readonly debts: readonly { readonly asset: MarginAssetRef; readonly debt: bigint; readonly held: bigint }[];
  readonly show: (amount: bigint, asset: MarginAssetRef) => string;
}

const least = (left: bigint, right: bigint) => (left < right ? left : right);

export function closeRemedies(input: CloseRemediesInput): CloseRemedy[] {
  const remedies: CloseRemedy[] = [];
  const { collateral, show } = input;
  let collateralLeft = input.netCollateral;
  if (input.drawn > 0n) {
    const returnable = least(input.drawn, input.held);
    if (returnable > 0n) remedies.push({ kind: 'returnQuote', asset: collateral, amount: returnable, text: `Return ${show(returnable, collateral)} of drawn quote from what the account holds` });
    const missing = input.drawn - returnable;
    if (missing > 0n && input.legacy && collateralLeft >= missing) {
      remedies.push({ kind: 'repayFromCollateral', asset: collateral, amount: missing, text: `Repay ${show(missing, collateral)} of drawn quote from posted collateral` });
      collateralLeft -= missing;
    }
  }
  for (const debt of input.debts) {
    if (debt.debt <= 0n) continue;
    const repayable = least(debt.debt, debt.held);
    if (repayable > 0n) remedies.push({ kind: 'repay', asset: debt.asset, amount: repayable, text: `Repay ${show(repayable, debt.asset)} of debt in kind from what the account holds` });
    const missing = debt.debt - repayable;
    // The buy-out is priced at the ask plus a fee in collateral: main judges it against the live
    // risk when it is sent; offered only while some net collateral is left.
    if (missing > 0n && input.legacy && collateralLeft > 0n) {
      remedies.push({ kind: 'repayBaseFromCollateral', asset: debt.asset, amount: missing, text: `Buy ${show(missing, debt.asset)} of debt out from posted collateral` });
    }
  }
  return remedies;
}
