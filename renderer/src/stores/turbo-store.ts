// The window's copy of the Turbo rows: which markets have a Turbo book, whether it is paused or
// disconnected right now, and who signs Turbo orders (getTurboMarkets, then the `turboMarkets`
// stream). The ticket and the market bar read it; the rules of a Turbo book (its own fees and
// min_order) come with the markets (MarketsView.turboMarkets) and are merged here with the live flags.
import { createSignal, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { MarketsView } from '../../../shared/ipc/views';
import type { TurboMarketsView, TurboMarketView } from '../../../shared/ipc/views/margin';
import type { Market } from '../../../shared/market/market';
import { retryWhileNotReady } from '../lib/retry';

export interface TurboBooks {
  readonly view: Accessor<TurboMarketsView | null>;
  /** Why the rows could not be read (other than NOT_READY), or null. */
  readonly problem: Accessor<string | null>;
  row(marketId: string): TurboMarketView | null;
  dispose(): void;
}

export function createTurboBooks(api: TerminalApi): TurboBooks {
  const [view, setView] = createSignal<TurboMarketsView | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  let pushed = false;
  const stop = api.onTurboMarkets((next) => {
    pushed = true;
    setView(next);
  });
  const retry = retryWhileNotReady(
    () => api.getTurboMarkets({}),
    (result) => {
      setProblem(result.ok || result.code === 'NOT_READY' ? null : result.message);
      if (result.ok && !pushed) setView(result.value);
    },
  );
  return {
    view,
    problem,
    row: (marketId) => view()?.markets.find((market) => market.marketId === marketId) ?? null,
    dispose() {
      stop();
      retry.stop();
    },
  };
}

/**
 * The rules a ticket validates against on a book: the canonical row, or on a Turbo book the Turbo
 * row (its own fees, min_order and price window) with the pause and connection as the Turbo rows
 * report them now. Null when the Turbo book is asked for and its row is not known.
 */
export function bookRules(markets: MarketsView | null, market: Market, turbo: boolean, live: TurboMarketView | null): Market | null {
  if (!turbo) return market;
  const row = markets?.turboMarkets?.find((candidate) => candidate.market_id === market.market_id) ?? null;
  if (row === null) return null;
  return {
    ...row,
    turbo: true,
    ...(live?.paused != null ? { paused: live.paused } : {}),
    ...(live?.connected != null ? { connected: live.connected } : {}),
  };
}
