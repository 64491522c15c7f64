// Position accounting from fills, exact in raw units (bigint), by average cost.
//
// A fill moves two balances exactly as the ledger does (sandbox/ledger/market.ts, spec 2.1):
//   buy  q at p, fee f: base +(q - f), quote -floor(p·q / 10^bd)      (a buy pays its fee in base)
//   sell q at p, fee f: base -q,       quote +floor(p·q / 10^bd) - f  (a sale pays its fee in quote)
// so fees are inside the position (a buy's fee lowers the base received, which raises the entry
// price; a sale's fee lowers its proceeds, which lowers realized P&L).
//
// Average cost: the open position carries one cost basis (quote raw, signed: positive paid for a
// long, negative received for a short). Reducing it releases the basis in proportion to the
// quantity closed, floor-divided, the remainder staying with what is still open; a fill that
// crosses zero is split in proportion too, the remainder going to the new side. Nothing is ever
// rounded away, so at every step
//   realized + unrealized = sum of every fill's quote movement + markValue(position)
// to the raw unit (the property tests check it on random fill sequences).
import type { Side } from '../market/order-type';

export interface AccountingFill {
  readonly side: Side;
  /** Raw quote units per whole base unit. */
  readonly price: bigint;
  /** Raw base units, gross (before the fee). */
  readonly quantity: bigint;
  /** In base for a buy, in quote for a sale (raw). */
  readonly fee: bigint;
}

export interface PositionState {
  /** Signed raw base units: positive long, negative short. */
  readonly size: bigint;
  /** Quote raw units the open position cost (long, positive) or brought in (short, negative). */
  readonly basis: bigint;
  /** Quote raw units realized by closing, fees included. */
  readonly realized: bigint;
  /** Sum of the absolute bases released by closing: the denominator of realized %. */
  readonly closedBasis: bigint;
  /** Fees paid, in the asset each was paid in. */
  readonly feesBase: bigint;
  readonly feesQuote: bigint;
  /** Sum of every fill's quote movement (signed): the cash side of mark-to-market. */
  readonly cash: bigint;
  readonly fills: number;
}

export const FLAT: PositionState = { size: 0n, basis: 0n, realized: 0n, closedBasis: 0n, feesBase: 0n, feesQuote: 0n, cash: 0n, fills: 0 };

const abs = (value: bigint): bigint => (value < 0n ? -value : value);
const sign = (value: bigint): number => (value > 0n ? 1 : value < 0n ? -1 : 0);

/** floor(p·q / 10^bd): the quote value both sides of a fill move. */
export function fillQuote(price: bigint, quantity: bigint, baseScale: bigint): bigint {
  return (price * quantity) / baseScale;
}

/** The two balance movements of one fill (base, quote), signed. */
export function fillDeltas(fill: AccountingFill, baseScale: bigint): { base: bigint; quote: bigint } {
  const quote = fillQuote(fill.price, fill.quantity, baseScale);
  return fill.side === 'Buy' ? { base: fill.quantity - fill.fee, quote: -quote } : { base: -fill.quantity, quote: quote - fill.fee };
}

/** Fold one fill into a position. `baseScale` is 10^base.decimals. */
export function applyFill(state: PositionState, fill: AccountingFill, baseScale: bigint): PositionState {
  const { base: delta, quote: cash } = fillDeltas(fill, baseScale);
  const fees = fill.side === 'Buy' ? { feesBase: state.feesBase + fill.fee, feesQuote: state.feesQuote } : { feesBase: state.feesBase, feesQuote: state.feesQuote + fill.fee };
  const common = { ...fees, cash: state.cash + cash, fills: state.fills + 1 };
  if (delta === 0n) {
    // A buy whose whole quantity went in fees: the quote paid is a realized loss.
    return { ...state, ...common, realized: state.realized + cash };
  }
  if (state.size === 0n || sign(delta) === sign(state.size)) {
    return { ...state, ...common, size: state.size + delta, basis: state.basis - cash };
  }
  const closing = abs(delta) < abs(state.size) ? abs(delta) : abs(state.size);
  // The part of this fill's quote that closes, and the part of the basis it releases.
  const cashClosing = abs(delta) === closing ? cash : (cash * closing) / abs(delta);
  const released = closing === abs(state.size) ? state.basis : (state.basis * closing) / abs(state.size);
  const size = state.size + delta;
  const realized = state.realized + cashClosing - released;
  const closedBasis = state.closedBasis + abs(released);
  if (size === 0n || sign(size) === sign(state.size)) {
    return { ...state, ...common, size, basis: state.basis - released, realized, closedBasis };
  }
  // Crossed zero: what is left of the fill opens the other side.
  return { ...state, ...common, size, basis: -(cash - cashClosing), realized, closedBasis };
}

/** Fold fills in the order given (oldest first). */
export function accountFills(fills: Iterable<AccountingFill>, baseScale: bigint): PositionState {
  let state = FLAT;
  for (const fill of fills) state = applyFill(state, fill, baseScale);
  return state;
}

/**
 * What the position is worth at `price`, rounded against the holder (owned value down, owed value
 * up), as the margin formulas mark a position.
 */
export function markValue(size: bigint, price: bigint, baseScale: bigint): bigint {
  if (size >= 0n) return (size * price) / baseScale;
  const owed = -size * price;
  return -(owed === 0n ? 0n : (owed + baseScale - 1n) / baseScale);
}

/** Unrealized P&L at `price`: the mark value less the basis. */
export function unrealizedAt(state: PositionState, price: bigint, baseScale: bigint): bigint {
  return markValue(state.size, price, baseScale) - state.basis;
}

/**
 * Average entry, raw quote per whole base: |basis| · 10^bd / |size|, rounded half away from zero.
 * Null when flat.
 */
export function averageEntry(state: PositionState, baseScale: bigint): bigint | null {
  if (state.size === 0n) return null;
  const numerator = abs(state.basis) * baseScale;
  const size = abs(state.size);
  return (numerator * 2n + size) / (size * 2n);
}

/** `amount` as basis points of |of| (10,000 = 100 %), truncated toward zero; null without a base. */
export function percentBps(amount: bigint, of: bigint): bigint | null {
  if (of === 0n) return null;
  return (amount * 10_000n) / abs(of);
}
