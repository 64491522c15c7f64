// The records of one account on one book from its fills (oldest first, the whole history: the
// position's average cost needs every earlier fill): each fill with the realized P&L it made, and a
// summary per UTC day. Realized P&L is the positions' own (shared/positions/accounting.ts): a day's
// realized is what its fills realized, so the days add up to the position's realized to the raw unit.
import { applyFill, fillQuote, FLAT, type AccountingFill } from '../positions/accounting';

export interface RecordFill extends AccountingFill {
  /** Nanoseconds since the epoch. */
  readonly timestamp: bigint;
}

export interface RealizedFill<F extends RecordFill> {
  readonly fill: F;
  /** The UTC day of the fill, YYYY-MM-DD. */
  readonly day: string;
  /** floor(price × quantity / 10^base decimals): the quote the fill moved before its fee. */
  readonly quote: bigint;
  /** Raw quote realized by this fill (fees included, as in positions). */
  readonly realized: bigint;
}

export interface DaySummary {
  readonly day: string;
  readonly trades: number;
  /** Raw base traded (gross) and the quote it moved. */
  readonly volumeBase: bigint;
  readonly volumeQuote: bigint;
  /** Fees paid: in base by buys, in quote by sales (raw). */
  readonly feesBase: bigint;
  readonly feesQuote: bigint;
  readonly realized: bigint;
}

const NS_PER_MS = 1_000_000n;

/** The UTC day (YYYY-MM-DD) of a time in nanoseconds. */
export function utcDayOfNs(timestamp: bigint): string {
  return new Date(Number(timestamp / NS_PER_MS)).toISOString().slice(0, 10);
}

/** Every fill with what it realized, oldest first as given. */
export function realizedFills<F extends RecordFill>(fills: readonly F[], baseScale: bigint): RealizedFill<F>[] {
  let state = FLAT;
  return fills.map((fill) => {
    const next = applyFill(state, fill, baseScale);
    const realized = next.realized - state.realized;
    state = next;
    return { fill, day: utcDayOfNs(fill.timestamp), quote: fillQuote(fill.price, fill.quantity, baseScale), realized };
  });
}

/** One row per UTC day that has a fill, oldest first. */
export function dailySummary(fills: readonly RealizedFill<RecordFill>[]): DaySummary[] {
  const days = new Map<string, { trades: number; volumeBase: bigint; volumeQuote: bigint; feesBase: bigint; feesQuote: bigint; realized: bigint }>();
  for (const { fill, day, quote, realized } of fills) {
    let row = days.get(day);
    if (row === undefined) {
      row = { trades: 0, volumeBase: 0n, volumeQuote: 0n, feesBase: 0n, feesQuote: 0n, realized: 0n };
      days.set(day, row);
    }
    row.trades++;
    row.volumeBase += fill.quantity;
    row.volumeQuote += quote;
    if (fill.side === 'Buy') row.feesBase += fill.fee;
    else row.feesQuote += fill.fee;
    row.realized += realized;
  }
  return [...days.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)).map(([day, row]) => ({ day, ...row }));
}

/** Whether a UTC day is within [from, to] (both YYYY-MM-DD, inclusive; null is open). */
export function dayWithin(day: string, from: string | null, to: string | null): boolean {
  return (from === null || day >= from) && (to === null || day <= to);
}
