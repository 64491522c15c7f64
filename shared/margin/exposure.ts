// Stress prices, gross exposure over the three passes, and the limits derived from it
// (spec margin-api 2.6). Stress always moves a price against the position it values: a long
// is marked at a lower stressed bid, a short at a higher shocked ask.
//
// The passes (the spec names them; their content is ours, docs/protocol.md (Margin)):
// - spot: the current positions at the oracle bid and ask, resting orders still resting:
//     G = quote locked by buys + Σ max(|mark(pos)|, |mark(pos - resting sells)|)
// - stressed-marked: the same positions and resting orders, marked at stressed prices.
// - stressed-filled: every resting order has filled at its limit (sells left, buys arrived), so
//   nothing is locked any more, and the resulting positions are marked at stressed prices:
//     G = Σ |mark(pos - resting sells + resting buys)|
//   This is the pass that sees a buy resting below the stressed bid: once filled, the base it
//   brings is marked above the quote it locked, so the exposure grows past what the two other
//   passes count. Taking the largest of the three never under-states what the account could
//   control after a move against it.
import { BASIS_POINTS, absolute, maximum, minimum } from './arithmetic';

export type ExposurePass = 'SPOT' | 'STRESSED_MARKED' | 'STRESSED_FILLED';

/** A long is valued at bid × (10,000 - band) / 10,000, floored, and never below zero. */
export function stressedBid(bid: bigint, stressBandBps: bigint): bigint {
  return stressBandBps >= BASIS_POINTS ? 0n : (bid * (BASIS_POINTS - stressBandBps)) / BASIS_POINTS;
}

/** shocked ask = floor(ask × (10,000 + stress band bps) / 10,000), as the spec writes it. */
export function shockedAsk(ask: bigint, stressBandBps: bigint): bigint {
  return (ask * (BASIS_POINTS + stressBandBps)) / BASIS_POINTS;
}

/** effective position = pos - locked sell quantity: what remains if the resting sells fill. */
export function effectivePosition(position: bigint, lockedSellQuantity: bigint): bigint {
  return position - lockedSellQuantity;
}

/** The position after every resting order fills: sells leave, buys arrive. */
export function filledPosition(position: bigint, lockedSellQuantity: bigint, restingBuyQuantity: bigint): bigint {
  return position - lockedSellQuantity + restingBuyQuantity;
}

/** One asset's term of G: max(|mark(pos)|, |mark(effective position)|). */
export function exposureTerm(markOfPosition: bigint, markOfEffectivePosition: bigint): bigint {
  return maximum(absolute(markOfPosition), absolute(markOfEffectivePosition));
}

export interface GrossExposure {
  readonly spot: bigint;
  readonly stressedMarked: bigint;
  readonly stressedFilled: bigint;
  /** max of the three. */
  readonly gross: bigint;
  /** The pass that set `gross`; on a tie the earlier pass in the order spot, stressed-marked, stressed-filled. */
  readonly pass: ExposurePass;
}

/** gross exposure = max(G spot, G stressed-marked, G stressed-filled). */
export function grossExposure(spot: bigint, stressedMarked: bigint, stressedFilled: bigint): GrossExposure {
  let gross = spot;
  let pass: ExposurePass = 'SPOT';
  if (stressedMarked > gross) {
    gross = stressedMarked;
    pass = 'STRESSED_MARKED';
  }
  if (stressedFilled > gross) {
    gross = stressedFilled;
    pass = 'STRESSED_FILLED';
  }
  return { spot, stressedMarked, stressedFilled, gross, pass };
}

/** exposure headroom = max(0, L - gross exposure). */
export function exposureHeadroom(line: bigint, gross: bigint): bigint {
  return maximum(0n, line - gross);
}

/** buy capacity = min(spendable cash + drawable quote, exposure headroom). */
export function buyCapacity(spendable: bigint, drawable: bigint, headroom: bigint): bigint {
  return minimum(spendable + drawable, headroom);
}

/**
 * by loan cap[a] = floor((loan headroom + returnable quote) × scale(a) / ask[a]): the largest
 * quantity whose owed value at the ask, ceil(q × ask / scale), still fits the headroom.
 * Pass zero as `returnable` when the batch does not return quote before borrowing.
 */
export function borrowLimitByLoanCap(headroom: bigint, returnable: bigint, scale: bigint, ask: bigint): bigint {
  return ((headroom + returnable) * scale) / ask;
}

/** by exposure[a] = floor(exposure headroom × scale(a) / shocked ask[a]). */
export function borrowLimitByExposure(headroom: bigint, scale: bigint, shocked: bigint): bigint {
  return (headroom * scale) / shocked;
}

export type BorrowBound = 'LOAN_CAP' | 'EXPOSURE' | 'POOL_INVENTORY' | 'NO_ASK';

export interface BorrowLimit {
  readonly amount: bigint;
  /** The bound that set `amount`; on a tie the earlier one in the order loan cap, exposure, pool inventory. */
  readonly limitedBy: BorrowBound;
}

/** borrowable[a] = max(0, min(by loan cap, by exposure, pool inventory)). */
export function borrowable(byLoanCap: bigint, byExposure: bigint, poolInventory: bigint): BorrowLimit {
  let amount = byLoanCap;
  let limitedBy: BorrowBound = 'LOAN_CAP';
  if (byExposure < amount) {
    amount = byExposure;
    limitedBy = 'EXPOSURE';
  }
  if (poolInventory < amount) {
    amount = poolInventory;
    limitedBy = 'POOL_INVENTORY';
  }
  return { amount: maximum(0n, amount), limitedBy };
}
