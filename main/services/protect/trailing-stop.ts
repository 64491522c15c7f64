// The arithmetic of a trailing stop and of a move to break-even (pure). A stop's side is the side
// of the order it fires: a sell stop protects a long, a buy stop a short. A trigger is on the
// price step and rounded toward the reference, so the stop is never farther from the price than
// the distance the trader chose; it is moved only in the profitable direction, never loosened.
import type { Side } from '../../../shared/market/order-type';

/** How far the trigger trails the reference: a number of price steps, basis points of it, or a price amount (raw quote units). */
export type TrailDistance =
  | { readonly kind: 'ticks'; readonly ticks: bigint }
  | { readonly kind: 'percent'; readonly basisPoints: bigint }
  | { readonly kind: 'price'; readonly amount: bigint };

/** The raw price distance, floored (a shorter distance keeps the stop closer, never farther). */
export function distanceAmount(distance: TrailDistance, reference: bigint, tick: bigint): bigint {
  switch (distance.kind) {
    case 'ticks':
      return distance.ticks * tick;
    case 'percent':
      return (reference * distance.basisPoints) / 10_000n;
    case 'price':
      return distance.amount;
  }
}

function floorToTick(value: bigint, tick: bigint): bigint {
  return value - (((value % tick) + tick) % tick);
}

function ceilToTick(value: bigint, tick: bigint): bigint {
  const floored = floorToTick(value, tick);
  return floored === value ? value : floored + tick;
}

/**
 * Where the stop belongs for this reference: the distance below it (a sell stop) or above it (a
 * buy stop), on the step, at least one step away from the reference (a stop at the price would
 * fire at once). Null when no such trigger is above zero.
 */
export function trailingTrigger(input: { side: Side; reference: bigint; distance: TrailDistance; tick: bigint }): bigint | null {
  const { side, reference, tick } = input;
  const amount = distanceAmount(input.distance, reference, tick);
  if (side === 'Sell') {
    const trigger = ceilToTick(reference - amount, tick);
    const safe = trigger >= reference ? floorToTick(reference - 1n, tick) : trigger;
    return safe > 0n ? safe : null;
  }
  const trigger = floorToTick(reference + amount, tick);
  return trigger <= reference ? ceilToTick(reference + 1n, tick) : trigger;
}

/** The candidate when it tightens the stop (a sell stop up, a buy stop down); null otherwise: a stop is never loosened. */
export function nextTrigger(side: Side, current: bigint, candidate: bigint | null): bigint | null {
  if (candidate === null) return null;
  if (side === 'Sell') return candidate > current ? candidate : null;
  return candidate < current ? candidate : null;
}

/**
 * The break-even trigger once the reference is `afterTicks` steps in profit past the entry: the
 * entry on the step, rounded to the side that gives nothing back (up for a long's sell stop, down
 * for a short's buy stop). Null before that, or when the entry is not strictly on the safe side of
 * the reference (the stop would fire at once).
 */
export function breakEvenTrigger(input: { side: Side; entry: bigint; reference: bigint; afterTicks: bigint; tick: bigint }): bigint | null {
  const { side, entry, reference, afterTicks, tick } = input;
  const profit = afterTicks * tick;
  if (side === 'Sell') {
    if (reference - entry < profit) return null;
    const trigger = ceilToTick(entry, tick);
    return trigger < reference && trigger > 0n ? trigger : null;
  }
  if (entry - reference < profit) return null;
  const trigger = floorToTick(entry, tick);
  return trigger > reference ? trigger : null;
}
