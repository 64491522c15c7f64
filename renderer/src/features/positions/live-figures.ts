// One computation of a position's mark and unrealized P&L for every panel that shows them (the
// Positions panel, the ladder's foot and its P&L column, the chart's position line): the position
// (size and basis) from the window's one positions read, marked where the trader chose for its
// market (settings.pnlDisplay: the book's exit side, the last trade or the mid, as the window's
// book frames show them), with the unit chosen beside the quote figure (%, bp or ticks). So the
// same position at the same moment is one figure, under one name, everywhere, and it moves with
// the book the trader sees, not with the positions read's slower pace. Where the book is not live
// (or no window subscription shows it ungrouped), the read's own mark is used (always the exit
// side: that is what main closes at), and named as such; a figure whose mark or position is not
// live says why (`stale`), and the panels mark it in place.
import type { PositionView } from '../../../../shared/ipc/views';
import { markValue, percentBps } from '../../../../shared/positions/accounting';
import { DEFAULT_PNL_DISPLAY, markFrom, pnlTickTenths, type MarkName, type PnlDisplay } from '../../../../shared/positions/pnl-display';

/** The best prices of one book and its last trade as the window's ungrouped frames show them. */
export interface BookTop {
  readonly bid: bigint | null;
  readonly ask: bigint | null;
  readonly last?: bigint | null;
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
  /** The trader's mark and unit for this market (the exit side and percent when not given). */
  readonly display?: PnlDisplay;
  /** The market's price tick and base scale, for the P&L in ticks (none without them). */
  readonly priceTick?: bigint;
}

export interface PositionFigures {
  readonly mark: bigint | null;
  /** What the mark is, as every panel names it: the book's side, the last trade or the mid (null without a mark). */
  readonly markSide: MarkName | null;
  /** Quote raw units; null when flat or without a mark. */
  readonly unrealized: bigint | null;
  readonly unrealizedBps: bigint | null;
  /** The unrealized P&L in tenths of a price tick per unit held (null without a figure or a tick). */
  readonly unrealizedTickTenths: bigint | null;
  /** The trader's choice the figure was made for (its unit is what the panels show beside the quote figure). */
  readonly display: PnlDisplay;
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
  const display = input.display ?? DEFAULT_PNL_DISPLAY;
  if (position.size === 0n) return { mark: null, markSide: null, unrealized: null, unrealizedBps: null, unrealizedTickTenths: null, display, source: 'read', stale: input.positionStale };
  const ticks = (unrealized: bigint | null) => (unrealized === null || input.priceTick === undefined ? null : pnlTickTenths(unrealized, position.size, 10n ** BigInt(baseDecimals), input.priceTick));
  if (input.top !== null && input.bookLive) {
    const mark = markFrom(display.mark, position.size, input.top);
    const unrealized = mark === null ? null : unrealizedAtPrice(position, mark.price, baseDecimals);
    return {
      mark: mark?.price ?? null,
      markSide: mark?.name ?? null,
      unrealized,
      unrealizedBps: unrealized === null ? null : percentBps(unrealized, position.basis),
      unrealizedTickTenths: ticks(unrealized),
      display,
      source: 'book',
      stale: input.positionStale,
    };
  }
  // The read's own mark and its figures (main computed them the same way, at the read's moment).
  const markStale = input.top !== null ? 'the book is not live' : input.readStale;
  return {
    mark: position.mark,
    markSide: position.markSide,
    unrealized: position.unrealized,
    unrealizedBps: position.unrealizedBps,
    unrealizedTickTenths: ticks(position.unrealized),
    display,
    source: 'read',
    stale: input.positionStale ?? markStale,
  };
}
