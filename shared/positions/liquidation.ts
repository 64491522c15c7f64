// The liquidation and freeze prices of a Turbo Account's position in one asset: the price of that
// asset at which the account, all else unchanged, becomes liquidatable (V <= threshold) or frozen
// (stressed equity < freeze line - k). Both come from the margin formulas themselves
// (shared/margin computeRisk on the same snapshot with the asset repriced), found by bisection on
// the 1e18-scaled price, so the figure moves with every term the formulas have (absorption cost,
// stressed marks, resting orders) and never from a second, simplified copy of them.
import { computeRisk, type MarginSnapshot, type RiskReport } from '../margin/index';
import type { Result } from '../result';

export type Compute = (snapshot: MarginSnapshot) => Result<RiskReport>;

export interface TriggerPrice {
  /**
   * 1e18-scaled price of the asset at which the test first holds, moving against the position
   * (down for a long, up for a short); null when no price in range makes it hold.
   */
  readonly price: bigint | null;
  /** The test holds at the current prices already. */
  readonly now: boolean;
}

export interface PositionTriggers {
  readonly liquidation: TriggerPrice;
  readonly freeze: TriggerPrice;
}

/** The snapshot with `assetId` moved to `bid`, keeping its spread (ask - bid). */
function repriced(snapshot: MarginSnapshot, assetId: string, bid: bigint): MarginSnapshot {
  const price = snapshot.prices[assetId]!;
  const spread = price.ask - price.bid;
  return { ...snapshot, prices: { ...snapshot.prices, [assetId]: { ...price, bid, ask: bid + (spread > 0n ? spread : 0n) } } };
}

/**
 * Bisection for the boundary of a test that is monotone in the price along the adverse direction.
 * `holds(p)`; for a long it holds at low prices (search the highest p that holds), for a short at
 * high prices (search the lowest p that holds). `ceiling` bounds the short's search.
 */
function boundary(holds: (price: bigint) => boolean | null, long: boolean, current: bigint, ceiling: bigint): TriggerPrice {
  const atCurrent = holds(current);
  if (atCurrent === null) return { price: null, now: false };
  if (atCurrent) return { price: current, now: true };
  if (long) {
    if (holds(0n) !== true) return { price: null, now: false };
    let low = 0n; // holds
    let high = current; // does not hold
    while (high - low > 1n) {
      const middle = (low + high) / 2n;
      if (holds(middle) === true) low = middle;
      else high = middle;
    }
    return { price: low, now: false };
  }
  if (holds(ceiling) !== true) return { price: null, now: false };
  let low = current; // does not hold
  let high = ceiling; // holds
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (holds(middle) === true) high = middle;
    else low = middle;
  }
  return { price: high, now: false };
}

/**
 * Liquidation and freeze prices of the position in `assetId` (its bid for a long, its ask for a
 * short, like the marks). A short's search goes up to `ceilingFactor` times the current price.
 */
export function positionTriggers(snapshot: MarginSnapshot, assetId: string, long: boolean, compute: Compute = computeRisk, ceilingFactor = 100n): PositionTriggers {
  const price = snapshot.prices[assetId];
  if (price === undefined) return { liquidation: { price: null, now: false }, freeze: { price: null, now: false } };
  const spread = price.ask > price.bid ? price.ask - price.bid : 0n;
  const cache = new Map<bigint, RiskReport | null>();
  const reportAt = (bid: bigint): RiskReport | null => {
    if (!cache.has(bid)) {
      const report = compute(repriced(snapshot, assetId, bid));
      cache.set(bid, report.ok ? report.value : null);
    }
    return cache.get(bid) ?? null;
  };
  const current = price.bid;
  const ceiling = (current > 0n ? current : 1n) * ceilingFactor;
  const liquidation = boundary((bid) => reportAt(bid)?.health.liquidatable ?? null, long, current, ceiling);
  const freeze = boundary((bid) => reportAt(bid)?.health.frozen ?? null, long, current, ceiling);
  // Report a short's trigger on the ask it is marked at.
  const onMark = (trigger: TriggerPrice): TriggerPrice => (long || trigger.price === null ? trigger : { ...trigger, price: trigger.price + spread });
  return { liquidation: onMark(liquidation), freeze: onMark(freeze) };
}

/** A 1e18-scaled price of a whole base unit as raw quote units per whole base unit. */
export function toQuotePrice(scaled: bigint, quoteDecimals: number): bigint {
  return (scaled * 10n ** BigInt(quoteDecimals)) / 10n ** 18n;
}
