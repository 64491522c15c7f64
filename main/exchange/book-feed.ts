// Order books maintained from the depth stream with shared/book: a snapshot, then deltas (quantity
// 0 removes a level). A snapshot is checked in full (sorted, positive, uncrossed); every delta
// checks what it can break (shared/book/book-side.ts: its level's place in the price order, the
// order and the levels agreeing, no negative value; the book uncrossed after each message), which
// keeps the same guarantees without an O(levels) walk per message. A message stamped before one
// already applied (seen_timestamp: the stream reordered or replayed it) is not applied either.
// On any inconsistency, on a disconnect, on a frame it could not read that may have
// been one of its updates, or on an update that cannot be attributed to one book, the book turns
// `resyncing`: it serves nothing until a fresh snapshot has been applied, so a consumer never sees
// a stale or crossed book. Resyncing means unsubscribe + subscribe for a new snapshot (the stream
// client does that and replays subscriptions after a reconnect).
import { OrderBook } from '../../shared/book/order-book';
import type { B256 } from '../../shared/encoding/b256';
import { fail, ok, type Result } from '../../shared/result';
import type { TurboDepthView } from './queries';
import type { ExchangeStream, StreamSubscription } from './stream-client';
import type { InvalidFrame, MessageOf } from './stream-routes';

export const BOOK_RESYNCING = 'BOOK_RESYNCING';
export const BOOK_CLOSED = 'BOOK_CLOSED';

export type BookFeedState = 'live' | 'resyncing';

export interface BookHandle {
  readonly market_id: B256;
  readonly turbo: boolean;
  readonly precision: bigint;
  state(): BookFeedState;
  /** The maintained book while `live`; null while resyncing (never a stale one). */
  book(): OrderBook | null;
  /** The best `count` levels of each side, best first, or BOOK_RESYNCING. */
  top(count: number): Result<{ buys: [bigint, bigint][]; sells: [bigint, bigint][] }>;
  /** Why the book last went resyncing (null when it never did). */
  lastProblem(): string | null;
  /** Resyncs since the book was opened. */
  resyncs(): number;
  close(): void;
}

interface Entry {
  readonly handle: BookHandle;
  readonly subscription: StreamSubscription;
  book: OrderBook;
  state: BookFeedState;
  problem: string | null;
  resyncCount: number;
  /**
   * The newest `seen_timestamp` of a message applied to this book (kept across resyncs). A delta or
   * a snapshot older than it was reordered or replayed (the spec's stream carries no sequence
   * number; the stamps are what tells): applied, it would show a past book as current.
   */
  newestStamp: bigint | null;
  readonly onChange: ((handle: BookHandle) => void) | undefined;
}


function entryKey(marketId: B256, turbo: boolean): string {
  return `${marketId}|${turbo ? 'turbo' : 'canonical'}`;
}

export class OrderBookFeed {
  private readonly books = new Map<string, Entry>();
  /** The same entries by market id, per book kind (a depth update is routed without building a key). */
  private readonly canonical = new Map<string, Entry>();
  private readonly turbo = new Map<string, Entry>();
  private readonly stopListening: () => void;

  constructor(private readonly stream: ExchangeStream) {
    this.stopListening = stream.consume({
      messages: { subscribe_depth: (message) => this.applySnapshot(message), subscribe_depth_update: (message) => this.applyUpdate(message) },
      lost: (frame) => this.unreadable(frame),
      // A mangled action may have been one of this feed's updates: the book must not go on without it.
      unknownActionsMayBeMine: true,
      connection: (event) => {
        // The stream resubscribes on reconnect; until the new snapshot nothing may be served.
        if (event.type === 'disconnected') for (const entry of this.books.values()) this.markResyncing(entry, `disconnected: ${event.reason}`, false);
      },
    });
  }

  /**
   * Maintain the book of a market (one precision per market and book on a connection). `onChange`
   * runs after every applied message and state change; consumers batch it per frame.
   */
  open(
    marketId: B256,
    precision: bigint,
    options: {
      turbo?: boolean;
      view?: TurboDepthView;
      onChange?: (handle: BookHandle) => void;
    } = {},
  ): Result<BookHandle> {
    const turbo = options.turbo === true;
    const key = entryKey(marketId, turbo);
    if (this.books.has(key)) return fail('SUBSCRIPTION_CONFLICT', `depth ${marketId} (${turbo ? 'Turbo' : 'canonical'}): a book is already open on this connection; share its handle`, { key });
    const subscription = this.stream.subscribeDepth(marketId, precision, { turbo, ...(options.view === undefined ? {} : { view: options.view }) });
    if (!subscription.ok) return subscription;
    let closed = false;
    const entry: Entry = {
      subscription: subscription.value,
      book: new OrderBook(marketId, precision),
      state: 'resyncing',
      problem: null,
      resyncCount: 0,
      newestStamp: null,
      onChange: options.onChange,
      handle: {
        market_id: marketId,
        turbo,
        precision,
        state: () => (closed ? 'resyncing' : entry.state),
        book: () => (!closed && entry.state === 'live' ? entry.book : null),
        top: (count) => {
          if (closed) return fail(BOOK_CLOSED, `depth ${marketId}: the book was closed`);
          if (entry.state !== 'live') return fail(BOOK_RESYNCING, `depth ${marketId}: waiting for a fresh snapshot${entry.problem === null ? '' : ` (${entry.problem})`}`);
          return ok(entry.book.top(count));
        },
        lastProblem: () => entry.problem,
        resyncs: () => entry.resyncCount,
        close: () => {
          if (closed) return;
          closed = true;
          this.books.delete(key);
          (turbo ? this.turbo : this.canonical).delete(marketId);
          entry.subscription.close();
        },
      },
    };
    this.books.set(key, entry);
    (turbo ? this.turbo : this.canonical).set(marketId, entry);
    return ok(entry.handle);
  }

  /** The book of a market this connection maintains now, or null when none is open. */
  handle(marketId: string, turbo: boolean): BookHandle | null {
    return (turbo ? this.turbo : this.canonical).get(marketId)?.handle ?? null;
  }

  /** Stop listening to the stream (the books' subscriptions are closed by their handles). */
  dispose(): void {
    this.stopListening();
  }

  /**
   * A frame that could not be read may have been a depth update this book now lacks (the routing
   * table hands over those naming a depth action, no action or an unknown one): unless it names
   * another market, the book resyncs.
   */
  private unreadable(event: InvalidFrame): void {
    // Only an id in the wire's own form names another market ("0x" and 64 hex digits): a mangled one
    // ("0XAAAA…") may be this book's, so it resyncs.
    const raw = event.marketId;
    const named = raw !== undefined && /^0x[0-9a-fA-F]{64}$/.test(raw) ? raw.toLowerCase() : null;
    for (const entry of [...this.books.values()]) {
      if (named === null || entry.handle.market_id === named) this.markResyncing(entry, `a depth frame could not be read: ${event.message}`, true);
    }
  }

  private targets(message: MessageOf<'subscribe_depth'>): Entry[] {
    const turbo = message.turbo === true;
    if (message.market_id !== undefined) {
      const entry = (turbo ? this.turbo : this.canonical).get(message.market_id);
      return entry === undefined ? [] : [entry];
    }
    return [...(turbo ? this.turbo : this.canonical).values()];
  }

  private applySnapshot(message: MessageOf<'subscribe_depth'>): void {
    for (const entry of this.targets(message)) {
      if (isOlder(message.seen_timestamp, entry.newestStamp)) {
        this.markResyncing(entry, `a snapshot older than the updates already applied (seen at ${message.seen_timestamp} ns, an update of ${entry.newestStamp} ns was applied)`, true);
        continue;
      }
      const applied = entry.book.applySnapshot(message.levels);
      const checked = applied.ok ? entry.book.check() : applied;
      if (!checked.ok) this.markResyncing(entry, `snapshot refused: ${checked.message}`, true);
      else {
        entry.state = 'live';
        entry.newestStamp = newer(message.seen_timestamp, entry.newestStamp);
        entry.onChange?.(entry.handle);
      }
    }
  }

  private applyUpdate(message: MessageOf<'subscribe_depth_update'>): void {
    // The hot path (one call per update): routed by market id without allocating.
    const books = message.turbo === true ? this.turbo : this.canonical;
    let entry: Entry | undefined;
    if (message.market_id !== undefined) entry = books.get(message.market_id);
    else if (books.size > 1) {
      // An update without market_id while several books are open cannot be attributed safely.
      for (const each of [...books.values()]) this.markResyncing(each, 'a depth update without market_id arrived while several books are open', true);
      return;
    } else entry = books.values().next().value;
    // Updates before the snapshot of a (re)subscription belong to the previous one: dropped.
    if (entry === undefined || entry.state !== 'live') return;
    if (isOlder(message.seen_timestamp, entry.newestStamp)) {
      this.markResyncing(entry, `an update older than one already applied (seen at ${message.seen_timestamp} ns, after ${entry.newestStamp} ns): the stream reordered them`, true);
      return;
    }
    const applied = entry.book.applyDeltas(message.changes);
    if (!applied.ok) this.markResyncing(entry, `update refused: ${applied.message}`, true);
    else {
      entry.newestStamp = newer(message.seen_timestamp, entry.newestStamp);
      entry.onChange?.(entry.handle);
    }
  }

  private markResyncing(entry: Entry, problem: string, resubscribe: boolean): void {
    const wasLive = entry.state === 'live';
    entry.state = 'resyncing';
    entry.problem = problem;
    if (wasLive || resubscribe) entry.resyncCount++;
    // A fresh OrderBook: nothing of the broken one can leak to a reader.
    entry.book = new OrderBook(entry.handle.market_id, entry.handle.precision);
    if (resubscribe) this.stream.resubscribe(entry.subscription.key);
    if (wasLive) entry.onChange?.(entry.handle);
  }
}

/** A message's stamp is before the newest applied (equal stamps: messages of one time, any order). */
function isOlder(stamp: bigint | undefined, newest: bigint | null): boolean {
  return stamp !== undefined && newest !== null && stamp < newest;
}

function newer(stamp: bigint | undefined, newest: bigint | null): bigint | null {
  if (stamp === undefined) return newest;
  return newest === null || stamp > newest ? stamp : newest;
}
