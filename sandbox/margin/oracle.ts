// The margin oracle (margin 2.4 `prices`): per asset a 1e18-scaled bid and ask in collateral per
// whole unit, its decimals, a timestamp and a stale flag. It follows the canonical book of each
// asset (mid of the last trade or the book) on every margin tick, unless the control surface
// pinned a price; the stale flag only moves through control.
import { powerOfTen } from '../../shared/market/market';
import type { MarketState } from '../ledger/market';

export interface OraclePrice {
  readonly bid: bigint;
  readonly ask: bigint;
  readonly decimals: number;
  /** Unix seconds of the last publication. */
  readonly timestamp: bigint;
  readonly stale: boolean;
}

interface Entry {
  mid: bigint;
  pinned: boolean;
  stale: boolean;
  timestamp: bigint;
  readonly decimals: number;
  /** The canonical book the price follows while not pinned. */
  readonly source: MarketState | undefined;
}

const PRICE_SCALE = 10n ** 18n;

/**
 * ceil(mid × half-spread bps / 10,000): rounding the half-spread up puts the bid (what a long is
 * worth) down and the ask (what a short costs) up, never a fraction in the account's favour (2.1).
 */
export function halfSpread(mid: bigint, halfSpreadBps: bigint): bigint {
  return (mid * halfSpreadBps + 9_999n) / 10_000n;
}

export class Oracle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly halfSpreadBps: bigint) {}

  /** Track `asset`, priced from `source` (a canonical market quoted in the collateral asset). */
  add(asset: string, decimals: number, source: MarketState, now: bigint): void {
    this.entries.set(asset, { mid: this.fromBook(source, source.config.initialMid), pinned: false, stale: false, timestamp: now, decimals, source });
  }

  assets(): string[] {
    return [...this.entries.keys()];
  }

  price(asset: string): OraclePrice | undefined {
    const entry = this.entries.get(asset);
    if (entry === undefined) return undefined;
    const half = halfSpread(entry.mid, this.halfSpreadBps);
    return { bid: entry.mid - half, ask: entry.mid + half, decimals: entry.decimals, timestamp: entry.timestamp, stale: entry.stale };
  }

  /** Control: pin the mid (1e18 scale) and/or set the stale flag. Returns false for an unknown asset. */
  set(asset: string, change: { mid?: bigint; stale?: boolean; pinned?: boolean }, now: bigint): boolean {
    const entry = this.entries.get(asset);
    if (entry === undefined) return false;
    if (change.mid !== undefined) {
      entry.mid = change.mid;
      entry.pinned = true;
    }
    if (change.pinned === false) entry.pinned = false;
    if (change.stale !== undefined) entry.stale = change.stale;
    entry.timestamp = now;
    return true;
  }

  /** A tick: unpinned prices follow their book; every price is republished. Returns the assets whose price moved. */
  refresh(now: bigint): string[] {
    const moved: string[] = [];
    for (const [asset, entry] of this.entries) {
      entry.timestamp = now;
      if (entry.pinned || entry.source === undefined) continue;
      const reference = entry.source.referencePrice();
      if (reference === undefined) continue;
      const mid = this.fromBook(entry.source, reference);
      if (mid !== entry.mid) {
        entry.mid = mid;
        moved.push(asset);
      }
    }
    return moved;
  }

  /** A book price (raw quote per whole base) on the 1e18 scale of the collateral. */
  private fromBook(market: MarketState, price: bigint): bigint {
    return (price * PRICE_SCALE) / powerOfTen(market.config.quote.decimals);
  }
}
