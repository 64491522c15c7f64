// The oracle's own model of a position, from the exchange's fills, written from docs/protocol.md
// "Positions and P&L (ours)" and NOT from the app's code (shared/positions/accounting.ts must not be
// imported here: two implementations that agree to the raw unit on every fill of a random session
// are the check). Pure, bigint only. Unit tests: test/unit/main/services/oracle-ledger.test.ts.
//
// The rules, as the docs state them:
// - Fills are taken oldest first: fill time, then the order id, then the fill's place in its order.
// - One fill moves exactly what the ledger moves: a buy of q at p with fee f brings q - f base and
//   costs floor(p·q / 10^bd) quote; a sale of q gives up q base and brings floor(p·q / 10^bd) - f
//   quote. Fees are in the figures: a buy's fee raises the entry, a sale's fee lowers realized.
// - Average cost. The open position carries one signed basis: the quote a long cost (positive) or
//   a short brought in (negative). A fill in the position's direction (or from flat) adds its
//   quote to the basis. A fill against it closes min(|base moved|, |size|): the basis released is
//   the basis × closed / |size|, its magnitude floored (a fill closing all of it releases all of
//   it); the fill's quote is split the same way by closed / |base moved| (magnitude floored, the
//   rest is the part that opens); realized += quote of the closing part - basis released. What a
//   fill moves beyond the position opens the other side with the rest of that fill's quote as its
//   basis. A floor leaves its remainder in the basis of what stays open: nothing is rounded away.
// - A buy whose whole quantity went in fees brings no base: the quote it cost is realized at once.

export interface LedgerFill {
  readonly side: 'Buy' | 'Sell';
  /** Raw quote per whole base unit. */
  readonly price: bigint;
  /** Raw base, gross. */
  readonly quantity: bigint;
  /** Base for a buy, quote for a sale (raw). */
  readonly fee: bigint;
  /** The fill's time, its order's id, and its place in the order (for the order of application). */
  readonly timestamp: bigint;
  readonly orderId: string;
  readonly index: number;
}

export interface LedgerPosition {
  /** Raw base, signed: long positive. */
  readonly size: bigint;
  /** Raw quote, signed: what the open long cost (positive) or the open short brought in (negative). */
  readonly basis: bigint;
  /** Raw quote realized by closing, fees included. */
  readonly realized: bigint;
  /** The magnitudes of every basis released, summed (what realized % is of). */
  readonly released: bigint;
  readonly feesBase: bigint;
  readonly feesQuote: bigint;
  readonly fills: number;
}

/** Oldest first, by the docs' keys. */
export function ledgerOrder(left: LedgerFill, right: LedgerFill): number {
  const byInt = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
  return byInt(left.timestamp, right.timestamp) || (left.orderId < right.orderId ? -1 : left.orderId > right.orderId ? 1 : 0) || left.index - right.index;
}

/** `value × part / whole`, its magnitude floored (0 ≤ part ≤ whole, whole > 0). */
function share(value: bigint, part: bigint, whole: bigint): bigint {
  if (part === whole) return value;
  const magnitude = ((value < 0n ? -value : value) * part) / whole;
  return value < 0n ? -magnitude : magnitude;
}

/** The position the fills make (any order given: they are sorted here). `baseDecimals` of the market's base. */
export function ledgerPosition(fills: readonly LedgerFill[], baseDecimals: number): LedgerPosition {
  const unit = 10n ** BigInt(baseDecimals);
  let size = 0n;
  let basis = 0n;
  let realized = 0n;
  let released = 0n;
  let feesBase = 0n;
  let feesQuote = 0n;
  for (const fill of [...fills].sort(ledgerOrder)) {
    const value = (fill.price * fill.quantity) / unit;
    // What the account receives: base (signed) and quote (signed), as the ledger moves them.
    const base = fill.side === 'Buy' ? fill.quantity - fill.fee : -fill.quantity;
    const quote = fill.side === 'Buy' ? -value : value - fill.fee;
    if (fill.side === 'Buy') feesBase += fill.fee;
    else feesQuote += fill.fee;
    if (base === 0n) {
      realized += quote;
      continue;
    }
    const long = size > 0n;
    const buying = base > 0n;
    if (size === 0n || long === buying) {
      // Opens or adds: the basis grows by what was paid (long) or received (short, negative).
      size += base;
      basis -= quote;
      continue;
    }
    const moved = buying ? base : -base;
    const open = long ? size : -size;
    const closed = moved < open ? moved : open;
    const freed = share(basis, closed, open);
    const closingQuote = share(quote, closed, moved);
    realized += closingQuote - freed;
    released += freed < 0n ? -freed : freed;
    basis -= freed;
    size += base;
    if (moved > open) basis = -(quote - closingQuote); // the rest of the fill opens the other side
  }
  return { size, basis, realized, released, feesBase, feesQuote, fills: fills.length };
}

/** Average entry shown: |basis| · 10^bd / |size|, rounded half away from zero; null when flat. */
export function ledgerEntry(position: LedgerPosition, baseDecimals: number): bigint | null {
  if (position.size === 0n) return null;
  const size = position.size < 0n ? -position.size : position.size;
  const basis = position.basis < 0n ? -position.basis : position.basis;
  const scaled = basis * 10n ** BigInt(baseDecimals);
  const whole = scaled / size;
  return (scaled % size) * 2n >= size ? whole + 1n : whole;
}

/**
 * What the open position is worth at the shown mark, rounded against the holder: a long is
 * floor(size × bid / 10^bd), a short -ceil(|size| × ask / 10^bd).
 */
export function ledgerMarkValue(size: bigint, mark: bigint, baseDecimals: number): bigint {
  const unit = 10n ** BigInt(baseDecimals);
  if (size >= 0n) return (size * mark) / unit;
  const owed = -size * mark;
  return -((owed + unit - 1n) / unit);
}

/** Unrealized P&L at the shown mark: mark value - basis. */
export function ledgerUnrealized(position: LedgerPosition, mark: bigint, baseDecimals: number): bigint {
  return ledgerMarkValue(position.size, mark, baseDecimals) - position.basis;
}

/** `amount` in basis points of |of| (truncated toward zero); null without a base. */
export function ledgerBps(amount: bigint, of: bigint): bigint | null {
  if (of === 0n) return null;
  return (amount * 10_000n) / (of < 0n ? -of : of);
}
