// The window's one source of position marks: the best bid and ask and the last trade of every book
// as the window's ungrouped book frames show them (the ladder's, the market bar's inside market),
// kept as the frames arrive and written once per animation frame in the same batch as the ladder's
// rows, with the book's freshness and the positions read's, and the trader's choice of mark and
// unit per market (settings.pnlDisplay, saved by main and pushed to every window). Every panel that
// shows a position's mark or unrealized P&L asks it (`figures`), so they show one figure, under one
// name, in one unit (features/positions/live-figures.ts).
import { createSignal, type Accessor } from 'solid-js';
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { BookFrame, FreshnessView, PositionView } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import type { PnlDisplay } from '../../../shared/positions/pnl-display';
import { priceTick } from '../../../shared/market/tick';
import { positionFigures, type BookTop, type PositionFigures } from '../features/positions/live-figures';
import type { FrameScheduler } from '../lib/frame-scheduler';
import { POSITIONS_REFRESH_MS, type PositionsSource } from './positions-source';

/** A positions read older than this marks its own marks stale (two missed refreshes). */
export const READ_MARK_STALE_MS = 2 * POSITIONS_REFRESH_MS;

export interface MarkSourceDeps {
  readonly api: Pick<TerminalApi, 'onBook'>;
  readonly frames: FrameScheduler;
  readonly positions: Pick<PositionsSource, 'behind' | 'error' | 'readAt'>;
  /** The market (its canonical row: the windows subscribe both books at its tick), for its price tick and base decimals. */
  readonly market: (marketId: string) => Market | null;
  readonly freshness: { readonly view: Accessor<FreshnessView | null>; readonly receivedAt: Accessor<number> };
  readonly clock: Clock;
  /** The trader's mark and unit for a market (settings.pnlDisplay, or the default). */
  readonly display: (marketId: string) => PnlDisplay;
}

export interface MarkSource {
  /** The best prices of a book from its latest live ungrouped frame, or null. */
  top(marketId: string, turbo: boolean): BookTop | null;
  /** The book's freshness is live now (main's word, aged on the window's clock). */
  bookLive(marketId: string, turbo: boolean): boolean;
  /** A position's mark and unrealized P&L, and why they are not live. */
  figures(position: PositionView): PositionFigures;
  dispose(): void;
}

const bookKey = (marketId: string, turbo: boolean) => `${marketId.toLowerCase()}:${turbo ? 'turbo' : 'canonical'}`;

export function createMarkSource(deps: MarkSourceDeps): MarkSource {
  // Per book and grouping: the latest frame's best prices (dropped while the book resyncs).
  const latest = new Map<string, BookTop>();
  const [version, setVersion] = createSignal(0);
  const [now, setNow] = createSignal(deps.clock.now());
  let timer: TimerHandle | null = null;
  const tick = () => {
    setNow(deps.clock.now());
    timer = deps.clock.setTimeout(tick, 1_000);
  };
  timer = deps.clock.setTimeout(tick, 1_000);

  // Frames arrived since the last animation frame, applied in its batch (with the ladder's rows).
  const arrived = new Map<string, BookTop | null>();
  const apply = () => {
    for (const [key, top] of arrived) {
      if (top === null) latest.delete(key);
      else latest.set(key, top);
    }
    arrived.clear();
    setVersion((value) => value + 1);
  };
  const stopListening = deps.api.onBook((frame: BookFrame) => {
    const key = `${bookKey(frame.marketId, frame.turbo)}:${frame.precision}`;
    arrived.set(key, frame.state === 'live' ? { bid: frame.bids[0]?.price ?? null, ask: frame.asks[0]?.price ?? null, last: frame.lastTrade?.price ?? null } : null);
    deps.frames.schedule('position-marks', apply);
  });

  const top = (marketId: string, turbo: boolean): BookTop | null => {
    version();
    const market = deps.market(marketId);
    if (!market) return null;
    return latest.get(`${bookKey(marketId, turbo)}:${priceTick(market)}`) ?? null;
  };

  const bookLive = (marketId: string, turbo: boolean): boolean => {
    const view = deps.freshness.view();
    if (view === null) return false;
    const source = view.markets.find((entry) => entry.marketId.toLowerCase() === marketId.toLowerCase() && entry.turbo === turbo)?.book;
    if (!source || source.state !== 'live') return false;
    const age = source.ageMs === null ? null : source.ageMs + Math.max(0, now() - deps.freshness.receivedAt());
    return age === null || age <= view.staleAfterMs;
  };

  const positionStale = (): string | null => {
    if (deps.positions.behind()) return 'the position is being read again after a fill';
    if (deps.positions.error() !== null) return 'the positions could not be read';
    return null;
  };
  const readStale = (): string | null => {
    const readAt = deps.positions.readAt();
    if (readAt === null) return null;
    const age = now() - readAt;
    return age > READ_MARK_STALE_MS ? `marked as of ${Math.round(age / 1000)} s ago` : null;
  };

  return {
    top,
    bookLive,
    figures: (position) => {
      const market = deps.market(position.marketId);
      return positionFigures(position, market?.base.decimals ?? 0, {
        top: market ? top(position.marketId, position.turbo) : null,
        bookLive: bookLive(position.marketId, position.turbo),
        positionStale: positionStale(),
        readStale: readStale(),
        display: deps.display(position.marketId),
        ...(market ? { priceTick: priceTick(market) } : {}),
      });
    },
    dispose: () => {
      stopListening();
      deps.frames.cancel('position-marks');
      if (timer !== null) deps.clock.clearTimeout(timer);
    },
  };
}
