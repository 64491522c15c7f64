// Extremes of a canonical book's best bid and best ask since a watch began, updated after every
// committed change set. A test that samples the inside over REST misses a level the house took and
// re-quoted between two reads; a watch sees every state the book was committed in, so a check like
// "the ask was never above X while the alert waited" is exact rather than a sampling's luck.
import type { Ledger } from '../ledger/ledger';

/** Watches kept at once; the oldest is dropped beyond it. */
export const MAX_INSIDE_WATCHES = 64;

interface Extremes {
  minBid: bigint | null;
  maxBid: bigint | null;
  minAsk: bigint | null;
  maxAsk: bigint | null;
  changes: number;
}

interface Watch extends Extremes {
  readonly marketId: string;
}

function widen(extremes: Extremes, bid: bigint | undefined, ask: bigint | undefined): void {
  if (bid !== undefined) {
    if (extremes.minBid === null || bid < extremes.minBid) extremes.minBid = bid;
    if (extremes.maxBid === null || bid > extremes.maxBid) extremes.maxBid = bid;
  }
  if (ask !== undefined) {
    if (extremes.minAsk === null || ask < extremes.minAsk) extremes.minAsk = ask;
    if (extremes.maxAsk === null || ask > extremes.maxAsk) extremes.maxAsk = ask;
  }
}

export class InsideWatches {
  private sequence = 0;
  private readonly watches = new Map<string, Watch>();

  /** Begin watching a market from its inside now; undefined when the ledger has no such market. */
  start(ledger: Ledger, marketId: string): string | undefined {
    const market = ledger.markets.get(marketId);
    if (market === undefined) return undefined;
    const id = `w${++this.sequence}`;
    const watch: Watch = { marketId, minBid: null, maxBid: null, minAsk: null, maxAsk: null, changes: 0 };
    widen(watch, market.book.bestBid(), market.book.bestAsk());
    this.watches.set(id, watch);
    if (this.watches.size > MAX_INSIDE_WATCHES) this.watches.delete(this.watches.keys().next().value as string);
    return id;
  }

  /** After a committed change set: fold each watched book's inside in. */
  observe(ledger: Ledger): void {
    for (const watch of this.watches.values()) {
      const market = ledger.markets.get(watch.marketId);
      if (market === undefined) continue;
      watch.changes += 1;
      widen(watch, market.book.bestBid(), market.book.bestAsk());
    }
  }

  read(id: string): Readonly<Watch> | undefined {
    return this.watches.get(id);
  }

  stop(id: string): boolean {
    return this.watches.delete(id);
  }

  /** A reset empties the books: every watch ends. */
  clear(): void {
    this.watches.clear();
  }
}
