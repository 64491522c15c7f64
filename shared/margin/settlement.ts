// Realized profit and the profit share of settlement (spec margin-api 4.7), one definition for
// the sandbox's settlement and the client's risk panel (docs/protocol.md (Margin) 3.2).
//
// realized profit = trader equity - PnL basis
//   PnL basis = net posted collateral at open (C - F; 0 on a prepaid session)
//               - session fees charged after open (prolongations: fees are reported apart)
//               - the equity each WithdrawFromMargin took to the parent
//               + the equity that arrived on the account from outside (a faucet mint)
// Moves between the account's own pockets (AddCollateral, RepayFromCollateral, Draw, ReturnQuote,
// Borrow, Repay) leave both equity and the basis unchanged, so they are not profit. Where the
// state publishes no basis (`session.pnl_basis`), the spec's trading basis C - F stands in.
import { BASIS_POINTS, ceilDivide } from './arithmetic';

/** `last_session` of the margin state: how the last session of an account ended, and its settlement. */
export interface LastSession {
  readonly status: 'Closed' | 'Liquidated' | 'Expired';
  /** Unix seconds, when known. */
  readonly endedAt: bigint | null;
  readonly pnl: bigint | null;
  readonly profitShare: bigint | null;
  readonly collateralReturned: bigint | null;
  readonly collateralForfeited: bigint | null;
  readonly returnedToParent: readonly { readonly assetId: string; readonly amount: bigint }[];
}

/** realized profit = trader equity - PnL basis (negative: a loss). */
export function realizedProfit(equity: bigint, basis: bigint): bigint {
  return equity - basis;
}

export interface ProfitShare {
  /** The trader's share: floor(profit × (10,000 - profit_share_bps) / 10,000), owned, rounds down. */
  readonly trader: bigint;
  /** The house's share: profit - trader share = ceil(profit × profit_share_bps / 10,000), owed, rounds up. */
  readonly house: bigint;
}

/**
 * Split a realized profit between the trader and the house (4.7: the trader's share is
 * 10,000 - tier.profit_share_bps). Section 2.1: owned value rounds down, owed value rounds up,
 * so the trader's share is floored and the house takes the rest. A loss or zero shares nothing.
 */
export function profitShare(profit: bigint, profitShareBps: bigint): ProfitShare {
  if (profit <= 0n) return { trader: 0n, house: 0n };
  const bps = profitShareBps < 0n ? 0n : profitShareBps > BASIS_POINTS ? BASIS_POINTS : profitShareBps;
  const trader = (profit * (BASIS_POINTS - bps)) / BASIS_POINTS;
  return { trader, house: profit - trader };
}

/**
 * Off-market unwind at expiry or liquidation (4.7): the pool sells a short back at the ask moved
 * against it by the absorption band. Owed by the account, so one rounding up over the exact
 * product: ceil(short × ask × (10,000 + band) / (10,000 × scale)).
 */
export function unwindShortCost(short: bigint, ask: bigint, absorptionBandBps: bigint, scale: bigint): bigint {
  return ceilDivide(short * ask * (BASIS_POINTS + absorptionBandBps), BASIS_POINTS * scale);
}

/**
 * The pool buys a long at the bid moved against it by the absorption band. Owned by the account,
 * so one rounding down: floor(long × bid × (10,000 - band) / (10,000 × scale)); zero at a band of 100 %.
 */
export function unwindLongProceeds(long: bigint, bid: bigint, absorptionBandBps: bigint, scale: bigint): bigint {
  if (absorptionBandBps >= BASIS_POINTS) return 0n;
  return (long * bid * (BASIS_POINTS - absorptionBandBps)) / (BASIS_POINTS * scale);
}

/** RepayBaseFromCollateral's fee on top of the buy-out cost: owed, ceil(cost × fee bps / 10,000). */
export function buyoutFee(cost: bigint, feeBps: bigint): bigint {
  return ceilDivide(cost * feeBps, BASIS_POINTS);
}
