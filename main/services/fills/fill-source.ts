// Main's one source of fills, per account and book (Canonical or Turbo): positions, records, the
// daily-loss guard and the exports all read it. It takes the orders the exchange reports (the
// orders streams of the trading account and of each followed Turbo Account, and the order reads
// main makes anyway) and reads the account's trades over REST (GET /v1/trades_by_account, paged)
// only when a book is first asked for and after a resync (a stream reconnect, a lost frame): never
// per fill. Nothing is persisted: the exchange is the record, a start reads each book's trades
// once, and a file of them would have to be checked against an exchange that may have been reset
// (the sandbox's ledger starts empty) before it could be trusted. See docs/protocol.md ("One fill
// source") for which source wins.
import type { AccountTrade, Order } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import { fail, ok, type Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import { FillBook, type StoredFill } from './fill-book';

/** The trades page size (spec: at most 50). */
export const TRADES_PAGE = 50;
/** A book with more trades than this is refused rather than shown from a partial history. */
export const MAX_TRADE_PAGES = 400;

export type FillRest = Pick<ExchangeRestClient, 'getTradesByAccount'>;

export interface FillSourceDeps {
  readonly rest: FillRest;
  readonly log: (line: string) => void;
  /** A book's fills changed (an order reported new ones, or a read completed). */
  readonly changed?: (account: string, marketId: string, turbo: boolean) => void;
}

export interface BookKey {
  readonly account: string;
  readonly marketId: string;
  readonly turbo: boolean;
}

function keyOf(account: string, marketId: string, turbo: boolean): string {
  return `${account.toLowerCase()}:${marketId.toLowerCase()}:${turbo ? 'turbo' : 'canonical'}`;
}

interface Entry extends BookKey {
  readonly book: FillBook;
  /** A read in flight: callers share it. */
  reading: Promise<Result<void>> | null;
  /** A resync happened since the last read: the next read is due. */
  stale: boolean;
}

export class FillSource {
  private readonly entries = new Map<string, Entry>();
  /** Counts every order taken: a read remembers the count it began at (FillBook.applyRead). */
  private arrivals = 0;
  /** Counts resets: a read begun before one applies nothing. */
  private epoch = 0;
  /** REST reads of trades made (for the tests and the bench: never one per fill). */
  tradeReads = 0;

  constructor(private readonly deps: FillSourceDeps) {}

  private entry(account: string, marketId: string, turbo: boolean): Entry {
    const key = keyOf(account, marketId, turbo);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = { account: account.toLowerCase(), marketId: marketId.toLowerCase(), turbo, book: new FillBook(), reading: null, stale: false };
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** An order of `account` as the exchange reported it (stream or read). */
  take(account: string, marketId: string, turbo: boolean, order: Pick<Order, 'order_id' | 'side' | 'fills'>): void {
    if (account === '' || (order.fills?.length ?? 0) === 0) return;
    const entry = this.entry(account, marketId, turbo);
    if (entry.book.take(order, this.arrivals++)) this.deps.changed?.(entry.account, entry.marketId, turbo);
  }

  /** Every fill of the account on the book, oldest first; the book's trades are read first when never read, or after a resync. */
  async fills(account: string, marketId: string, turbo: boolean, options: { readonly confirm?: boolean } = {}): Promise<Result<readonly StoredFill[]>> {
    const entry = this.entry(account, marketId, turbo);
    // An export asks for confirmed fills: the trades newer than the last read are read once more
    // when the stream reported fills no read named yet (never on the positions' path).
    if (options.confirm === true && entry.book.ready && entry.book.unconfirmed() > 0) entry.stale = true;
    // A read in flight (after a resync) is waited for: what it finds may be missing from what is held.
    if (!entry.book.ready || entry.stale || entry.reading !== null) {
      const read = await this.read(entry);
      if (!read.ok && !entry.book.ready) return read;
      if (!read.ok) this.deps.log(`trades of ${entry.account} on ${entry.marketId}${turbo ? ' (Turbo)' : ''} could not be read again after a resync: ${read.message}; the fills held are shown`);
    }
    return ok(entry.book.fills());
  }

  /**
   * A trade of the account on the book is known to have happened (a close main just sent was
   * answered) while its stream report may still be on the way: the next read of the book reads
   * the newest trades once more.
   */
  expectTrade(account: string, marketId: string, turbo: boolean): void {
    const entry = this.entries.get(keyOf(account, marketId, turbo));
    if (entry?.book.ready) entry.stale = true;
  }

  /** What is held for the book now, without reading (null before its first read completed). */
  held(account: string, marketId: string, turbo: boolean): readonly StoredFill[] | null {
    const entry = this.entries.get(keyOf(account, marketId, turbo));
    return entry?.book.ready ? entry.book.fills() : null;
  }

  /**
   * The orders stream of `account` (every account when omitted) was interrupted: each book read
   * before is read again now (from the newest trade back to the ones already confirmed).
   */
  resync(account?: string): void {
    for (const entry of this.entries.values()) {
      if (account !== undefined && entry.account !== account.toLowerCase()) continue;
      if (!entry.book.ready) continue;
      entry.stale = true;
      void this.read(entry);
    }
  }

  /** Forget every book (the trading account changed, or the network). */
  reset(): void {
    this.epoch++;
    this.entries.clear();
  }

  private read(entry: Entry): Promise<Result<void>> {
    if (entry.reading !== null) return entry.reading;
    const reading = this.readTrades(entry).finally(() => {
      entry.reading = null;
    });
    entry.reading = reading;
    return reading;
  }

  private async readTrades(entry: Entry): Promise<Result<void>> {
    const epoch = this.epoch;
    const since = this.arrivals;
    const complete = !entry.book.ready;
    const newest = entry.book.newestConfirmed;
    entry.stale = false;
    const trades: AccountTrade[] = [];
    let cursor: { start_timestamp: bigint; start_trade_id: string } | null = null;
    for (let page = 0; ; page++) {
      if (page >= MAX_TRADE_PAGES) return fail('HISTORY_TOO_LONG', `more than ${MAX_TRADE_PAGES * TRADES_PAGE} trades on this book: the fills are not taken from a partial history`);
      this.tradeReads++;
      const answer = await this.deps.rest.getTradesByAccount({
        contract: entry.account as B256,
        market_id: entry.marketId as B256,
        direction: 'desc',
        count: TRADES_PAGE,
        ...(cursor ?? {}),
        ...(entry.turbo ? { turbo: true } : {}),
      });
      if (epoch !== this.epoch) return fail('RESET', 'the fills were reset during the read');
      if (!answer.ok) {
        entry.stale = !complete;
        return answer;
      }
      const found = answer.value.trades.filter((trade) => cursor === null || trade.trade_id !== cursor.start_trade_id);
      trades.push(...found);
      const last = answer.value.trades.at(-1);
      // After a resync: trades are never changed once made, so the read stops once it reaches
      // trades older than the newest one already confirmed.
      const reachedKnown = !complete && newest !== null && found.some((trade) => entry.book.knowsTrade(trade.trade_id)) && last !== undefined && last.timestamp < newest;
      if (reachedKnown || answer.value.trades.length < TRADES_PAGE || found.length === 0 || last === undefined) break;
      cursor = { start_timestamp: last.timestamp, start_trade_id: last.trade_id };
    }
    entry.book.applyRead(trades.reverse(), since, complete);
    this.deps.changed?.(entry.account, entry.marketId, entry.turbo);
    return ok(undefined);
  }
}
