// The markets overview: every listed market's ticker and 24-hour summary, read by main on a fixed
// cadence while at least one window follows it, and pushed to those windows after every read. The
// spec has no ticker or summary stream, and its rate table lists neither read (the nearest budget,
// the aggregated feeds', is 5 per second per IP): one ticker and one summary read of all markets,
// and the same two of the Turbo books (`turbo=true`, their own 24-hour figures), every
// OVERVIEW_INTERVAL_MS stays far inside any of them (docs/protocol.md, "Markets overview").
// A read that fails keeps the previous rows, marked stale; a network switch empties them.
// A market whose trade stream main follows takes its last price from that stream (the one the
// market bar and the ladder show), pushed again shortly after each trade: one figure in every
// place (overview-last-trade.ts).
import type { Summary, Ticker } from '../../../shared/api/market-schemas';
import type { Clock } from '../../../shared/clock';
import type { MarketOverviewView } from '../../../shared/ipc/views';
import type { Result } from '../../../shared/result';
import { markedStale, WatchedPoll } from '../watched-poll';
import type { WindowHub } from '../window-hub';
import type { TimerHandle } from '../../../shared/clock';
import { withLastTrades } from './overview-last-trade';
import { overviewRows } from './overview-rows';

export const OVERVIEW_INTERVAL_MS = 5_000;
/** A trade's new last price reaches the overview within this (trades in between are pushed once). */
export const OVERVIEW_TRADE_PUSH_MS = 200;

/** The books' trade streams main follows (the market data hub). */
export interface OverviewTrades {
  /** The newest streamed trade's price, or null where main follows no trade stream of the book. */
  lastTrade(marketId: string, turbo: boolean): bigint | null;
  /** Told of a book whose last trade changed; answers the unsubscribe. */
  onChange(listener: (marketId: string, turbo: boolean) => void): () => void;
}

/** What the overview reads from the active network (its REST client). */
export interface OverviewReader {
  readonly networkId: string;
  ticker(): Promise<Result<readonly Ticker[]>>;
  summary(): Promise<Result<readonly Summary[]>>;
  /** The same reads of the Turbo books (`turbo=true`). */
  turboTicker(): Promise<Result<readonly Ticker[]>>;
  turboSummary(): Promise<Result<readonly Summary[]>>;
  /** The markets list's order, for the rows. */
  marketOrder(): readonly string[];
}

export class MarketOverview {
  /** The windows following the overview (each is shown the same view). */
  private readonly poll: WatchedPoll<null>;
  private view: MarketOverviewView;
  /** The rows as the last read answered, before the streamed last trades are laid over them. */
  private readRows: MarketOverviewView['rows'] = [];
  private readTurboRows: MarketOverviewView['rows'] | null = null;
  private tradePush: TimerHandle | null = null;
  private readonly stopTrades: () => void;

  constructor(
    private readonly windows: WindowHub,
    private readonly clock: Clock,
    private readonly reader: () => OverviewReader | null,
    private readonly intervalMs = OVERVIEW_INTERVAL_MS,
    private readonly trades: OverviewTrades | null = null,
  ) {
    this.view = this.empty();
    this.poll = new WatchedPoll({ windows, clock, intervalMs, pass: (current) => this.read(current), passOnWatch: 'first' });
    this.stopTrades = trades?.onChange((marketId, turbo) => this.tradeChanged(marketId, turbo)) ?? (() => undefined);
  }

  /** A window follows the overview: the latest view now, a fresh read soon. */
  watch(windowId: string): MarketOverviewView {
    this.poll.watch(windowId, null);
    return this.current();
  }

  unwatch(windowId: string): void {
    this.poll.unwatch(windowId);
  }

  /** The active network changed: what was read belongs to the previous one. */
  networkChanged(): void {
    this.poll.networkChanged();
    this.readRows = [];
    this.readTurboRows = null;
    this.view = this.empty();
    this.publish();
  }

  /** The view with the streamed last trades of this moment laid over the rows read. */
  current(): MarketOverviewView {
    this.view = { ...this.view, ...this.withTrades() };
    return this.view;
  }

  close(): void {
    this.stopTrades();
    if (this.tradePush !== null) this.clock.clearTimeout(this.tradePush);
    this.tradePush = null;
    this.poll.close();
  }

  private empty(): MarketOverviewView {
    return { networkId: this.reader()?.networkId ?? '', state: 'resyncing', readAt: null, intervalMs: this.intervalMs, problem: null, rows: [] };
  }

  private async read(current: () => boolean): Promise<void> {
    const reader = this.reader();
    if (reader === null) {
      this.view = markedStale(this.view, 'the network is not connected');
      this.publish();
      return;
    }
    const [ticker, summary, turboTicker, turboSummary] = await Promise.all([reader.ticker(), reader.summary(), reader.turboTicker(), reader.turboSummary()]);
    if (!current()) return;
    if (!ticker.ok && !summary.ok) {
      this.view = markedStale({ ...this.view, networkId: reader.networkId }, `${ticker.code}: ${ticker.message}`);
    } else {
      // One read failing leaves the other's figures: each row takes what it has.
      this.readRows = overviewRows(ticker.ok ? ticker.value : [], summary.ok ? summary.value : [], reader.marketOrder());
      // The Turbo books' reads are second: failing, they keep their previous rows and mark nothing stale.
      if (turboTicker.ok || turboSummary.ok) this.readTurboRows = overviewRows(turboTicker.ok ? turboTicker.value : [], turboSummary.ok ? turboSummary.value : [], reader.marketOrder());
      this.view = {
        networkId: reader.networkId,
        state: 'live',
        readAt: this.clock.now(),
        intervalMs: this.intervalMs,
        problem: !ticker.ok ? `ticker: ${ticker.message}` : !summary.ok ? `summary: ${summary.message}` : null,
        ...this.withTrades(),
      };
    }
    this.publish();
  }

  private withTrades(): Pick<MarketOverviewView, 'rows' | 'turboRows'> {
    const trades = this.trades;
    const turboRows = this.readTurboRows;
    if (trades === null) return { rows: this.readRows, ...(turboRows === null ? {} : { turboRows }) };
    return {
      rows: withLastTrades(this.readRows, (marketId) => trades.lastTrade(marketId, false)),
      ...(turboRows === null ? {} : { turboRows: withLastTrades(turboRows, (marketId) => trades.lastTrade(marketId, true)) }),
    };
  }

  /** A followed book traded: its row is laid over again and pushed soon, with any others that trade meanwhile. */
  private tradeChanged(marketId: string, turbo: boolean): void {
    if (this.poll.watchers.size === 0 || this.tradePush !== null) return;
    if (!(turbo ? (this.readTurboRows ?? []) : this.readRows).some((row) => row.marketId === marketId)) return;
    this.tradePush = this.clock.setTimeout(() => {
      this.tradePush = null;
      this.view = { ...this.view, ...this.withTrades() };
      this.publish();
    }, OVERVIEW_TRADE_PUSH_MS);
  }

  private publish(): void {
    for (const windowId of this.poll.watchers.keys()) this.windows.sendTo(windowId, 'marketOverview', this.view);
  }
}
