// One computation of a position's mark and unrealized P&L for every panel that shows them (the
// Positions panel, the ladder's foot and its P&L column, the chart's position line): the position
// (size and basis) from the window's one positions read, marked at the live book's exit price
// (best bid for a long, best ask for a short) as the window's book frames show it. So the same
// position at the same moment is one figure everywhere, and it moves with the bid the trader sees,
// not with the positions read's slower pace. Where the book is not live (or no window subscription
// shows it ungrouped), the read's own mark is used; a figure whose mark or position is not live
// says why (`stale`), and the panels mark it in place.
import type { PositionView } from '../../../../shared/ipc/views';
import { markValue, percentBps } from '../../../../shared/positions/accounting';

/** The best prices of one book as the window's ungrouped frames show them. */
export interface BookTop {
  readonly bid: bigint | null;
  readonly ask: bigint | null;
}

/** Where a mark may come from, and whether each source is live now. */
export interface MarkInput {
  /** The live book's best prices, or null where no ungrouped frame of the book is shown. */
  readonly top: BookTop | null;
  /** The book's freshness is live (frames arriving, not resyncing). */
  readonly bookLive: boolean;
  /** Why the positions read is not live (a fill seen that it does not include yet; its age), or null. */
  readonly positionStale: string | null;
  /** Why the read's own mark is not live (too old), or null. */
  readonly readStale: string | null;
}

export interface PositionFigures {
  readonly mark: bigint | null;
  readonly markSide: 'bid' | 'ask' | null;
  /** Quote raw units; null when flat or without a mark. */
  readonly unrealized: bigint | null;
  readonly unrealizedBps: bigint | null;
  /** The live book ('book') or the positions read's own mark ('read'). */
  readonly source: 'book' | 'read';
  /** Why the mark or the position is not live, or null when both are. */
  readonly stale: string | null;
}

/** Unrealized P&L of `position` if closed at `price`: its mark value at that price less its basis (raw quote). */
export function unrealizedAtPrice(position: Pick<PositionView, 'size' | 'basis'>, price: bigint, baseDecimals: number): bigint {
  return markValue(position.size, price, 10n ** BigInt(baseDecimals)) - position.basis;
}

export function positionFigures(position: PositionView, baseDecimals: number, input: MarkInput): PositionFigures {
  if (position.size === 0n) return { mark: null, markSide: null, unrealized: null, unrealizedBps: null, source: 'read', stale: input.positionStale };
  const side = position.size > 0n ? 'bid' : 'ask';
  if (input.top !== null && input.bookLive) {
    const mark = input.top[side];
    const unrealized = mark === null ? null : unrealizedAtPrice(position, mark, baseDecimals);
    return { mark, markSide: mark === null ? null : side, unrealized, unrealizedBps: unrealized === null ? null : percentBps(unrealized, position.basis), source: 'book', stale: input.positionStale };
  }
  // The read's own mark and its figures (main computed them the same way, at the read's moment).
  const markStale = input.top !== null ? 'the book is not live' : input.readStale;
  return {
    mark: position.mark,
    markSide: position.markSide,
    unrealized: position.unrealized,
    unrealizedBps: position.unrealizedBps,
    source: 'read',
    stale: input.positionStale ?? markStale,
  };
}
