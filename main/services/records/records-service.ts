// Records of the trading account and of the Turbo Account main follows (the accounts and books the
// Positions service reads: the trading account on every book, the Turbo Account on the Turbo
// books): the daily summary per account, market and book (realized P&L, fees by asset, volume,
// trades), and the rows of the CSV exports (fills, orders, daily realized P&L), per market and UTC
// date range. Fills come from main's one fill source (main/services/fills), so the figures are the
// positions' own, account by account; orders are read from the exchange's order history on demand
// (an export is a one-off, never on a fill). Columns: docs/records.md.
import type { Order } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import type { RecordsDayView, RecordsExportKind, RecordsView } from '../../../shared/ipc/views/records';
import { powerOfTen, type Market } from '../../../shared/market/market';
import { dailySummary, dayWithin, realizedFills, utcDayOfNs, type RealizedFill } from '../../../shared/records/daily';
import { fail, ok, type Result } from '../../../shared/result';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import type { StoredFill } from '../fills/fill-book';
import type { FillSource } from '../fills/fill-source';
import type { MarketsIndex } from '../market-data/markets-index';
import { pairName } from '../trading/order-intents';

export interface RecordsRange {
  readonly marketId?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

export interface RecordsDeps {
  readonly fills: Pick<FillSource, 'fills'>;
  readonly rest: Pick<ExchangeRestClient, 'getOrders'>;
  readonly markets: () => MarketsIndex | null;
  readonly tradeAccount: () => B256 | null;
  /** The Turbo Account whose Turbo books Positions shows (the selected one), or null. */
  readonly turboAccount: () => B256 | null;
  readonly nowMs: () => number;
}

/** A CSV's columns and rows, before the writer quotes them. */
export interface RecordsTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly (string | bigint | number | null)[])[];
  /** A file name made of safe characters only. */
  readonly name: string;
}

interface Book {
  readonly account: B256;
  readonly accountKind: RecordsDayView['accountKind'];
  readonly market: Market;
  readonly turbo: boolean;
}

const ORDERS_PAGE = 200;
/** An orders export reads at most this many pages per book (200 orders each). */
const MAX_ORDER_PAGES = 50;

export const FILL_COLUMNS = [
  'time_utc', 'timestamp_ns', 'market_id', 'pair', 'book', 'account', 'trade_id', 'order_id', 'role', 'side',
  'price_raw', 'price', 'quantity_raw', 'quantity', 'base_symbol', 'quote_raw', 'quote', 'quote_symbol',
  'fee_raw', 'fee', 'fee_symbol', 'realized_raw', 'realized', 'confirmed',
] as const;

export const ORDER_COLUMNS = [
  'time_utc', 'timestamp_ns', 'market_id', 'pair', 'book', 'account', 'order_id', 'side', 'order_type',
  'price_raw', 'price', 'quantity_raw', 'quantity', 'filled_raw', 'filled', 'average_price_raw', 'average_price', 'status',
] as const;

export const DAILY_COLUMNS = [
  'day', 'market_id', 'pair', 'book', 'account', 'trades', 'volume_base_raw', 'volume_base', 'base_symbol',
  'volume_quote_raw', 'volume_quote', 'quote_symbol', 'fees_base_raw', 'fees_base', 'fees_quote_raw', 'fees_quote',
  'realized_raw', 'realized',
] as const;

function timeUtc(timestampNs: bigint): string {
  return new Date(Number(timestampNs / 1_000_000n)).toISOString();
}

function bookName(turbo: boolean): string {
  return turbo ? 'Turbo' : 'Canonical';
}

/** A book in words, with its account when it is a Turbo Account's: "ETH/USDC Turbo of Turbo Account 0x12ab…cdef". */
function where(book: Book): string {
  const name = `${pairName(book.market)} ${bookName(book.turbo)}`;
  return book.accountKind === 'trading' ? name : `${name} of Turbo Account ${book.account.slice(0, 6)}…${book.account.slice(-4)}`;
}

/** The trading account's rows before a Turbo Account's. */
function accountOrder(day: Pick<RecordsDayView, 'accountKind'>): number {
  return day.accountKind === 'trading' ? 0 : 1;
}

function orderTypeName(order: Order): string {
  return order.order_type.kind;
}

function orderStatus(order: Order): string {
  if (order.cancel === true) return 'cancelled';
  if (order.close === true) return 'filled';
  return order.partially_filled === true ? 'partially filled' : 'open';
}

/** Safe in any file system: letters, digits, dashes, dots. */
function fileName(kind: RecordsExportKind, market: Market | null, range: RecordsRange): string {
  const what = market === null ? 'all-markets' : `${market.base.symbol}-${market.quote.symbol}`;
  const raw = `records-${kind}-${what}-${range.from ?? 'start'}-to-${range.to ?? 'now'}.csv`;
  return raw.replace(/[^A-Za-z0-9.-]/g, '_');
}

export class RecordsService {
  constructor(private readonly deps: RecordsDeps) {}

  /** The books of the range, as Positions reads them: the trading account's, then the Turbo Account's Turbo books. */
  private books(range: RecordsRange): Result<{ books: Book[]; market: Market | null }> {
    const markets = this.deps.markets();
    if (!markets) return fail('NOT_CONNECTED', 'The markets of the network are not loaded yet');
    const account = this.deps.tradeAccount();
    if (account === null) return fail('NO_ACCOUNT', 'There is no trading account yet: records are of its fills');
    const wanted = (market: Market) => range.marketId === undefined || market.market_id.toLowerCase() === range.marketId.toLowerCase();
    const books: Book[] = [
      ...markets.markets().filter(wanted).map((market) => ({ account, accountKind: 'trading' as const, market, turbo: false })),
      ...markets.turboMarkets().filter(wanted).map((market) => ({ account, accountKind: 'trading' as const, market, turbo: true })),
    ];
    if (range.marketId !== undefined && books.length === 0) return fail('UNKNOWN_MARKET', `No market ${range.marketId} on this network`, { field: 'marketId' });
    const turboAccount = this.deps.turboAccount();
    if (turboAccount !== null) books.push(...markets.turboMarkets().filter(wanted).map((market) => ({ account: turboAccount, accountKind: 'turbo-account' as const, market, turbo: true })));
    return ok({ books, market: range.marketId === undefined ? null : books[0]!.market });
  }

  /** Every fill of each book with what it realized (the whole history, for the average cost), and the books that could not be read. */
  private async realized(books: readonly Book[], confirm = false): Promise<{ book: Book; fills: RealizedFill<StoredFill>[] }[] | { problems: string[] }> {
    const out: { book: Book; fills: RealizedFill<StoredFill>[] }[] = [];
    const problems: string[] = [];
    for (const book of books) {
      const read = await this.deps.fills.fills(book.account, book.market.market_id, book.turbo, { confirm });
      if (!read.ok) {
        problems.push(`${where(book)}: the fills could not be read (${read.message})`);
        continue;
      }
      if (read.value.length > 0) out.push({ book, fills: realizedFills(read.value, powerOfTen(book.market.base.decimals)) });
    }
    return problems.length > 0 ? { problems } : out;
  }

  async records(range: RecordsRange): Promise<Result<RecordsView>> {
    const scope = this.books(range);
    if (!scope.ok) return scope;
    const problems: string[] = [];
    const days: RecordsDayView[] = [];
    for (const book of scope.value.books) {
      const read = await this.realized([book]);
      if ('problems' in read) {
        problems.push(...read.problems);
        continue;
      }
      for (const { fills } of read) {
        for (const day of dailySummary(fills)) {
          if (!dayWithin(day.day, range.from ?? null, range.to ?? null)) continue;
          const market = book.market;
          days.push({ ...day, account: book.account, accountKind: book.accountKind, marketId: market.market_id, turbo: book.turbo, pair: pairName(market), baseSymbol: market.base.symbol, quoteSymbol: market.quote.symbol, baseDecimals: market.base.decimals, quoteDecimals: market.quote.decimals });
        }
      }
    }
    days.sort((left, right) => (left.day < right.day ? -1 : left.day > right.day ? 1 : 0) || left.pair.localeCompare(right.pair) || Number(left.turbo) - Number(right.turbo) || accountOrder(left) - accountOrder(right) || left.account.localeCompare(right.account));
    return ok({ days, problems, asOf: this.deps.nowMs() });
  }

  /** The rows of one export; a book whose fills or orders cannot be read fails the export whole (never a partial file). */
  async table(kind: RecordsExportKind, range: RecordsRange): Promise<Result<RecordsTable>> {
    const scope = this.books(range);
    if (!scope.ok) return scope;
    const name = fileName(kind, scope.value.market, range);
    if (kind === 'orders') return this.ordersTable(scope.value.books, range, name);
    // A file carries trade ids: fills only the stream reported yet are confirmed by a read first.
    const read = await this.realized(scope.value.books, true);
    if ('problems' in read) return fail('RECORDS_UNREADABLE', `Nothing was written: ${read.problems.join('; ')}`);
    const within = (day: string) => dayWithin(day, range.from ?? null, range.to ?? null);
    if (kind === 'daily') {
      const entries = read.flatMap(({ book, fills }) =>
        dailySummary(fills)
          .filter((day) => within(day.day))
          .map((day) => {
            const { base, quote } = book.market;
            const row: (string | bigint | number | null)[] = [day.day, book.market.market_id, pairName(book.market), bookName(book.turbo), book.account, day.trades, day.volumeBase, formatUnits(day.volumeBase, base.decimals), base.symbol, day.volumeQuote, formatUnits(day.volumeQuote, quote.decimals), quote.symbol, day.feesBase, formatUnits(day.feesBase, base.decimals), day.feesQuote, formatUnits(day.feesQuote, quote.decimals), day.realized, formatUnits(day.realized, quote.decimals)];
            return { book, row };
          }),
      );
      // By day, pair and book (Canonical before Turbo), the trading account's row before the Turbo Account's.
      entries.sort(
        (left, right) =>
          String(left.row[0]).localeCompare(String(right.row[0])) ||
          String(left.row[2]).localeCompare(String(right.row[2])) ||
          String(left.row[3]).localeCompare(String(right.row[3])) ||
          accountOrder(left.book) - accountOrder(right.book) ||
          left.book.account.localeCompare(right.book.account),
      );
      return ok({ header: DAILY_COLUMNS, rows: entries.map((entry) => entry.row), name });
    }
    const rows: { at: bigint; row: (string | bigint | number | null)[] }[] = [];
    for (const { book, fills } of read) {
      const { base, quote } = book.market;
      for (const { fill, day, quote: moved, realized } of fills) {
        if (!within(day)) continue;
        const feeIn = fill.side === 'Buy' ? base : quote;
        rows.push({
          at: fill.timestamp,
          row: [
            timeUtc(fill.timestamp), fill.timestamp, book.market.market_id, pairName(book.market), bookName(book.turbo), book.account, fill.tradeId, fill.orderId, fill.role, fill.side,
            fill.price, formatUnits(fill.price, quote.decimals), fill.quantity, formatUnits(fill.quantity, base.decimals), base.symbol, moved, formatUnits(moved, quote.decimals), quote.symbol,
            fill.fee, formatUnits(fill.fee, feeIn.decimals), feeIn.symbol, realized, formatUnits(realized, quote.decimals), fill.tradeId === null ? 'no' : 'yes',
          ],
        });
      }
    }
    rows.sort((left, right) => (left.at < right.at ? -1 : left.at > right.at ? 1 : 0));
    return ok({ header: FILL_COLUMNS, rows: rows.map((entry) => entry.row), name });
  }

  private async ordersTable(books: readonly Book[], range: RecordsRange, name: string): Promise<Result<RecordsTable>> {
    const fromNs = range.from === undefined ? null : BigInt(Date.parse(`${range.from}T00:00:00Z`)) * 1_000_000n;
    const rows: { at: bigint; row: (string | bigint | number | null)[] }[] = [];
    for (const book of books) {
      const { base, quote } = book.market;
      let cursor: { start_timestamp: bigint; start_order_id: B256 } | null = null;
      for (let page = 0; ; page++) {
        if (page >= MAX_ORDER_PAGES) return fail('HISTORY_TOO_LONG', `Nothing was written: more than ${MAX_ORDER_PAGES * ORDERS_PAGE} orders on ${where(book)} in that range; export a shorter range`);
        const answer = await this.deps.rest.getOrders({ market_id: book.market.market_id, contract: book.account, direction: 'desc', count: ORDERS_PAGE, ...(cursor ?? {}), ...(book.turbo ? { turbo: true } : {}) });
        if (!answer.ok) return fail(answer.code, `Nothing was written: the orders of ${where(book)} could not be read (${answer.message})`);
        const orders = answer.value.orders.filter((order) => cursor === null || order.order_id !== cursor.start_order_id);
        let older = false;
        for (const order of orders) {
          const at = order.timestamp ?? 0n;
          if (fromNs !== null && at < fromNs) {
            older = true;
            continue;
          }
          if (!dayWithin(utcDayOfNs(at), range.from ?? null, range.to ?? null)) continue;
          const filled = order.quantity_fill ?? 0n;
          const average = order.price_fill ?? null;
          rows.push({
            at,
            row: [
              timeUtc(at), at, book.market.market_id, pairName(book.market), bookName(book.turbo), book.account, order.order_id, order.side, orderTypeName(order),
              order.price, formatUnits(order.price, quote.decimals), order.quantity, formatUnits(order.quantity, base.decimals), filled, formatUnits(filled, base.decimals),
              average, average === null ? null : formatUnits(average, quote.decimals), orderStatus(order),
            ],
          });
        }
        const last = answer.value.orders.at(-1);
        if (older || answer.value.orders.length < ORDERS_PAGE || orders.length === 0 || last?.timestamp === undefined) break;
        cursor = { start_timestamp: last.timestamp, start_order_id: last.order_id };
      }
    }
    rows.sort((left, right) => (left.at < right.at ? -1 : left.at > right.at ? 1 : 0));
    return ok({ header: ORDER_COLUMNS, rows: rows.map((entry) => entry.row), name });
  }
}
