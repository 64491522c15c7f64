// A TWAP's whole schedule, computed once when it starts and persisted by the engine, so a restart
// resumes the exact plan rather than drawing a new one. Even slices, one per interval from the
// start; fewer (and further apart) when even slices would fall below the smallest order. Time
// jitter moves each slice by less than half an interval, so the offsets stay ascending and within
// the duration; size jitter moves size between pairs of slices on the step, so the total is exact
// and no slice falls below the minimum.
import { formatUnits } from '../encoding/units';
import type { Market } from '../market/market';
import { minimumOrderSize, sizeStep } from '../market/minimum-size';
import { amount } from '../positions/close-plan';
import { fail, ok, type Failure, type Result } from '../result';
import { ALGO_PLAN_CODES } from './plan-codes';

/** A schedule longer than this is not one the trader can follow (and the engine persists every slice). */
export const MAX_TWAP_SLICES = 10_000;
/** Slices closer than a second apart would spend the rate limit the trader's own clicks need. */
export const MIN_TWAP_INTERVAL_MS = 1_000;
const BASIS_POINTS = 10_000n;

export interface TwapInput {
  /** The total, raw base units. */
  readonly quantity: bigint;
  readonly durationMs: number;
  readonly intervalMs: number;
  readonly sizeJitterBps: bigint;
  readonly timeJitterBps: bigint;
  /** The price the minimum order value is held at (the arrival touch); without it only the step and dust bound a slice. */
  readonly referencePrice?: bigint | null;
}

export interface TwapSlicePlan {
  /** Milliseconds after the start. */
  readonly offsetMs: number;
  readonly quantity: bigint;
}

export interface TwapPlan {
  readonly slices: readonly TwapSlicePlan[];
  readonly notes: readonly string[];
}

/** A whole number in [lowest, highest] from `random` (clamped: a generator returning 1 stays in range). */
function randomBetween(random: () => number, lowest: bigint, highest: bigint): bigint {
  if (highest <= lowest) return lowest;
  const width = highest - lowest + 1n;
  const drawn = lowest + BigInt(Math.floor(random() * Number(width)));
  return drawn > highest ? highest : drawn < lowest ? lowest : drawn;
}

function seconds(milliseconds: number): string {
  return `${formatUnits(BigInt(milliseconds), 3)} s`;
}

function checkJitter(bps: bigint, field: string): Failure | null {
  if (bps >= 0n && bps <= BASIS_POINTS) return null;
  return fail(ALGO_PLAN_CODES.INVALID_JITTER, `${field === 'sizeJitterBps' ? 'Size' : 'Time'} randomisation must be from 0 to 10,000 bps (100 %).`, { field });
}

/** The slices of a TWAP, or why it cannot run (with the field to change). */
export function planTwap(market: Market, input: TwapInput, random: () => number): Result<TwapPlan> {
  const { durationMs, intervalMs, quantity } = input;
  if (!Number.isSafeInteger(durationMs) || durationMs <= 0) {
    return fail(ALGO_PLAN_CODES.INVALID_SCHEDULE, 'Duration must be a whole number of milliseconds above zero.', { field: 'durationMs' });
  }
  if (!Number.isSafeInteger(intervalMs) || intervalMs < MIN_TWAP_INTERVAL_MS) {
    return fail(ALGO_PLAN_CODES.INVALID_SCHEDULE, `Interval must be at least ${seconds(MIN_TWAP_INTERVAL_MS)}.`, { field: 'intervalMs' });
  }
  const jitter = checkJitter(input.sizeJitterBps, 'sizeJitterBps') ?? checkJitter(input.timeJitterBps, 'timeJitterBps');
  if (jitter !== null) return jitter;
  const step = sizeStep(market);
  if (quantity <= 0n || quantity % step !== 0n) {
    return fail(ALGO_PLAN_CODES.QUANTITY_OFF_STEP, `Total ${amount(market, quantity)} must be above zero and a whole number of the ${amount(market, step)} size step.`, { field: 'quantity' });
  }
  const minimum = minimumOrderSize(market, input.referencePrice ?? null);
  if (quantity < minimum) {
    return fail(ALGO_PLAN_CODES.QUANTITY_BELOW_MINIMUM, `Total ${amount(market, quantity)} is below the smallest order of ${amount(market, minimum)}.`, { field: 'quantity' });
  }
  const asked = Math.ceil(durationMs / intervalMs);
  if (asked > MAX_TWAP_SLICES) {
    return fail(ALGO_PLAN_CODES.TOO_MANY_SLICES, `${asked} slices is more than ${MAX_TWAP_SLICES}: choose an interval of at least ${seconds(Math.ceil(durationMs / MAX_TWAP_SLICES))}.`, { field: 'intervalMs' });
  }
  const fitting = quantity / minimum;
  const count = BigInt(asked) > fitting ? Number(fitting) : asked;
  // Fewer slices than asked are spread over the same duration.
  const interval = count === asked ? intervalMs : Math.floor(durationMs / count);
  const notes: string[] = [];
  if (count < asked) {
    notes.push(`${count} ${count === 1 ? 'slice' : 'slices'} instead of ${asked}, one every ${seconds(interval)}: each slice must be at least the smallest order of ${amount(market, minimum)}.`);
  }

  const units = quantity / step;
  const even = units / BigInt(count);
  const sizes = Array.from({ length: count }, () => even);
  // The step remainder is spread one step each over slices spaced through the schedule, never piled
  // on one slice (a last slice twice the others would trade in one go what the TWAP is meant to spread).
  const remainder = units - even * BigInt(count);
  const total = BigInt(count);
  for (let index = 0; index < count; index++) {
    if (((BigInt(index) + 1n) * remainder) / total > (BigInt(index) * remainder) / total) sizes[index] = even + 1n;
  }
  if (remainder > 0n) {
    notes.push(`Slices on the ${amount(market, step)} step: ${remainder} of ${count} are ${amount(market, (even + 1n) * step)} and the others ${amount(market, even * step)}, so they add up to ${amount(market, quantity)}.`);
  }

  const sizeSwing = (even * input.sizeJitterBps) / BASIS_POINTS;
  if (sizeSwing > 0n && count > 1) {
    const minimumUnits = minimum / step;
    // Random pairs: each slice gives to or takes from one other, so each moves at most the swing.
    const order = Array.from({ length: count }, (_, index) => index);
    for (let index = count - 1; index > 0; index--) {
      const other = Number(randomBetween(random, 0n, BigInt(index)));
      [order[index], order[other]] = [order[other] ?? 0, order[index] ?? 0];
    }
    for (let pair = 0; pair + 1 < count; pair += 2) {
      const taker = order[pair] ?? 0;
      const giver = order[pair + 1] ?? 0;
      const takerSize = sizes[taker] ?? 0n;
      const giverSize = sizes[giver] ?? 0n;
      const lowest = minimumUnits - takerSize > -sizeSwing ? minimumUnits - takerSize : -sizeSwing;
      const highest = giverSize - minimumUnits < sizeSwing ? giverSize - minimumUnits : sizeSwing;
      const moved = randomBetween(random, lowest, highest);
      sizes[taker] = takerSize + moved;
      sizes[giver] = giverSize - moved;
    }
    notes.push(`Slice sizes vary at random by up to ${amount(market, sizeSwing * step)}; the total stays ${amount(market, quantity)}.`);
  }

  // Less than half an interval either way keeps every slice after the one before.
  const byShare = Number((BigInt(interval) * input.timeJitterBps) / BASIS_POINTS);
  const timeSwing = Math.min(byShare, Math.floor((interval - 1) / 2));
  const offsets = Array.from({ length: count }, (_, index) => {
    const planned = index * interval;
    if (timeSwing <= 0 || count === 1) return planned;
    const moved = planned + Number(randomBetween(random, BigInt(-timeSwing), BigInt(timeSwing)));
    return Math.min(Math.max(moved, 0), durationMs);
  });
  if (timeSwing > 0 && count > 1) notes.push(`Slice times vary at random by up to ${seconds(timeSwing)}.`);

  return ok({ slices: sizes.map((size, index) => ({ offsetMs: offsets[index] ?? 0, quantity: size * step })), notes });
}
