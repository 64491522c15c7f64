// The best bid and offer of one book for a panel that prices from the touch (the order ticket, the
// algorithms' form): a one-level subscription of its own, aged like every panel's book, and no
// price taken from it while it is not live.
import type { Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { BookFrame } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import { createFreshness, marketSource, type FreshnessInput, type FreshnessMark } from '../../lib/freshness';
import type { FrameScheduler } from '../../lib/frame-scheduler';
import { createBookFeed } from './book-feed';

export interface TouchFeed {
  /** The book's freshness, for the panel's badge and its reasons. */
  readonly freshness: FreshnessMark;
  /** The latest frame while the book is live; null otherwise. */
  readonly live: Accessor<BookFrame | null>;
  readonly bestBid: Accessor<bigint | null>;
  readonly bestAsk: Accessor<bigint | null>;
}

export function createTouchFeed(api: TerminalApi, frames: FrameScheduler, freshnessInput: FreshnessInput, marketId: Accessor<string>, turbo: Accessor<boolean>, market: Accessor<Market>): TouchFeed {
  const feed = createBookFeed(api, frames, () => ({ marketId: marketId(), turbo: turbo(), precision: priceTick(market()), levels: 1 }));
  const freshness = createFreshness(
    freshnessInput,
    (view) => [marketSource(view, marketId(), turbo(), 'book')],
    () => (feed.frame()?.state === 'live' ? null : { state: 'resyncing', detail: 'waiting for the book' }),
  );
  const live = () => (feed.frame()?.state === 'live' && freshness.live() ? feed.frame() : null);
  return { freshness, live, bestBid: () => live()?.bids[0]?.price ?? null, bestAsk: () => live()?.asks[0]?.price ?? null };
}
