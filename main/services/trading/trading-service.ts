// Orders, fills and balances of the active trading account, and every trading request: place,
// cancel, cancel all (the kill switch), move (cancel and replace in one signed batch), settle.
// The exchange is the source of truth: the order and balance streams update the state, REST reads
// rebuild it after a reconnect, after every request and at start, and a request whose answer was
// lost is reconciled from the nonce and the account's orders, never resent.
import type { Order } from '../../../shared/api/market-schemas';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import type { BalanceView, BookBalanceView, CancelReport, FillNotice, FillView, OrdersSnapshot, OrderView, Page, PlacedOrder } from '../../../shared/ipc/views';
import { bookKey, type Market } from '../../../shared/market/market';
import type { SessionAction } from '../../../shared/protocol/actions';
import { checkAction } from '../../../shared/protocol/check-action';
import { MAX_ACTIONS_PER_BATCH, type ActionGroup } from '../../../shared/protocol/session-actions';
import { fail, ok, type Result } from '../../../shared/result';
import { FreshRead } from '../../../shared/fresh-read';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import { EXCHANGE_ERRORS } from '../../exchange/errors';
import type { AccountService } from '../account/account-service';
import type { Journal, SignedEntry } from '../journal/journal';
import type { MarketsIndex } from '../market-data/markets-index';
import type { NonceManager } from '../nonces/nonce-manager';
import { planAmendLegs } from './amend-legs';
import { boundLegs, lastTradePrice } from './bound-legs';
import { cancelReportText, EMPTY_CANCEL_REPORT, mergeReports, sweepAccount, type SweepBook } from './cancel-sweep';
import { describeOrder, packCancels, pairName, prepareOrder, type CancelTarget, type PlaceIntent } from './order-intents';
import { settleLostNonce, type Submitter } from './submitter';

const RECENT_FILLS = 200;
const HISTORY_PAGE = 50;
/** The trading account on two books and its Turbo Accounts: bounded, as the cursor carries each. */
const MAX_HISTORY_SOURCES = 12;
const HISTORY_END = 'end';

interface HistorySource {
  /** `c:` canonical or `t:` Turbo book, then the account. */
  readonly key: string;
  readonly turbo: boolean;
  readonly account: string;
}

/** Newest first; the order id breaks a tie. */
function compareOrders(left: Order, right: Order): number {
  const a = left.timestamp ?? 0n;
  const b = right.timestamp ?? 0n;
  if (a !== b) return a > b ? -1 : 1;
  return left.order_id < right.order_id ? 1 : left.order_id > right.order_id ? -1 : 0;
}

function cursorFields(position: string): { start_timestamp: bigint; start_order_id: B256 } {
  const match = /^(\d{1,30}):(0x[0-9a-f]{64})$/.exec(position) as RegExpExecArray;
  return { start_timestamp: BigInt(match[1]!), start_order_id: match[2]! as B256 };
}

/** The list cursor: per source, `<timestamp>:<order id>` of the last item listed, or `end`. */
function parseHistoryCursor(cursor: string | null): Result<Record<string, string>> {
  if (cursor === null) return ok({});
  const refuse = () => fail('INVALID_INPUT', `cursor: expected a cursor returned by a previous page, got ${JSON.stringify(cursor.slice(0, 80))}`, { field: 'cursor' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    return refuse();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return refuse();
  const positions: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!/^[ct]:0x[0-9a-f]{64}$/.test(key) || typeof value !== 'string' || (value !== HISTORY_END && !/^\d{1,30}:0x[0-9a-f]{64}$/.test(value))) return refuse();
    positions[key] = value;
  }
  return ok(positions);
}

/** Order and stream timestamps come in seconds, milliseconds or nanoseconds; the app shows ms. */
export function toMillis(value: bigint | undefined): number {
  if (value === undefined) return 0;
  if (value > 100_000_000_000_000_000n) return Number(value / 1_000_000n);
  if (value > 100_000_000_000_000n) return Number(value / 1_000n);
  if (value > 100_000_000_000n) return Number(value);
  return Number(value * 1000n);
}

/** The account named as the order's owner ({ContractId}), else `fallback`. */
export function orderAccount(order: Order, fallback: string): string {
  return order.owner !== undefined && 'ContractId' in order.owner ? order.owner.ContractId : fallback;
}

/** Each fill of an order, as the panels show it. */
export function fillViews(order: Order, view: OrderView): FillView[] {
  return (order.fills ?? []).map((fill) =>
    Object.freeze({ orderId: view.orderId, marketId: view.marketId, side: view.side, price: fill.price, quantity: fill.quantity, fee: fill.fee, turbo: view.turbo, account: view.account, time: toMillis(fill.timestamp) }),
  );
}

export function orderView(order: Order, marketId: string, turbo = order.turbo === true, account = ''): OrderView {
  const filled = order.quantity_fill ?? 0n;
  const status: OrderView['status'] =
    order.cancel === true ? 'cancelled' : order.close === true ? 'filled' : filled > 0n || order.partially_filled === true ? 'partially-filled' : 'open';
  // Frozen (shared/frozen-record.ts): a view is replaced, never changed, and the bridge encoder and
  // the window hub rely on that to reuse its text and skip copying it on every orders push.
  return Object.freeze({
    orderId: order.order_id,
    marketId: order.market_id ?? marketId,
    side: order.side,
    orderType: order.order_type.kind,
    price: order.price,
    quantity: order.quantity,
    filled,
    averagePrice: order.price_fill ?? 0n,
    status,
    turbo,
    account: orderAccount(order, account),
    time: toMillis(order.timestamp),
  });
}

/** The same order, cancelled: a new frozen view (views are never changed in place). */
export function cancelledView(view: OrderView): OrderView {
  return Object.freeze({ ...view, status: 'cancelled' as const });
}

function isOpen(view: OrderView): boolean {
  return view.status === 'open' || view.status === 'partially-filled';
}

/**
 * Whether `next` is an earlier state of the order than `held`: an order's life only moves forward
 * (its filled quantity grows, and once filled or cancelled it never reopens), so a view that would
 * move it back was read before the one held.
 */
export function olderOrderView(next: OrderView, held: OrderView): boolean {
  return next.filled < held.filled || (isOpen(next) && !isOpen(held));
}

interface TrackedOrder {
  view: OrderView;
  readonly turbo: boolean;
  /** Fills already announced. */
  fillsSeen: number;
}

export interface TradingServiceDeps {
  readonly rest: ExchangeRestClient;
  readonly markets: () => MarketsIndex | null;
  readonly accounts: AccountService;
  readonly submitter: Submitter;
  readonly nonces: () => NonceManager | null;
  readonly journal: Journal;
  readonly loadSessionKey: (address: B256) => Promise<Result<void>>;
  readonly nowSeconds: () => bigint;
  readonly wait: (ms: number) => Promise<void>;
  readonly publishOrders: (snapshot: OrdersSnapshot) => void;
  readonly publishBalances: (balances: readonly BalanceView[]) => void;
  readonly publishFill: (notice: FillNotice) => void;
  /** Every order of the account the exchange reports, for main's one fill source (main/services/fills). */
  readonly takeFills?: (account: string, order: Order, marketId: string, turbo: boolean) => void;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string) => void;
  readonly log: (line: string) => void;
  /** Read the pending trigger legs again (the trigger service), after a cancel-all took some. */
  readonly refreshTriggers?: () => Promise<void>;
  /** The pending legs bound to an order as the trigger service holds them (they go with its cancel). */
  readonly legsOf?: (orderId: string) => readonly string[];
  /**
   * Stop what moves legs on the trader's behalf (trailing and break-even stops) in that market, or
   * everywhere, before a cancel-all or the kill switch sweeps: nothing re-creates what it cancels.
   */
  readonly stopAutomation?: (marketId: string | undefined) => Promise<unknown>;
}

/**
 * Trading on Turbo books as a margin (Turbo) account, set by the margin service: while it is
 * active, Turbo-book orders are signed as the selected Turbo Account; its orders are listed and
 * cancelled with the trading account's (main/services/margin).
 */
export interface TurboDesk {
  /** A Turbo Account is selected: Turbo-book orders are signed as it. */
  active(): boolean;
  /** The trader's Turbo Account choice is being restored (the network came back): no Turbo order is signed until it is. */
  restoring(): boolean;
  /** The order belongs to a Turbo Account. */
  owns(orderId: string): boolean;
  placeOrder(input: PlaceIntent & { marketId: string }): Promise<Result<PlacedOrder>>;
  cancelOrder(marketId: string, orderId: B256): Promise<Result<CancelReport>>;
  cancelAll(marketId: string | undefined): Promise<Result<CancelReport>>;
  /** Amend (cancel and replace in one batch): a new price and/or a new quantity to rest; what is not given stays. */
  moveOrder(marketId: string, orderId: B256, price: bigint | undefined, quantity?: bigint): Promise<Result<PlacedOrder>>;
  settle(marketId: string): Promise<Result<null>>;
  openOrders(): readonly OrderView[];
  fills(): readonly FillView[];
  /** Every Turbo Account of the trading account known here (their history is listed with its own). */
  marginAccounts(): readonly string[];
  /** The same, read from the exchange first when not read yet for this trading account (right after a network switch). */
  loadedAccounts(): Promise<readonly string[]>;
}

/** An execution algorithm signing a child: its tag kept in the journal entry, its label leading the description. */
export interface AlgoParent {
  /** `<algorithm id>/<child key>` (SubmitRequest.parent). */
  readonly tag: string;
  /** "TWAP a3 slice 4/20". */
  readonly label: string;
}

/** Requests answered within this share the read of open orders and balances after them. */
export const AFTER_REQUEST_READ_MS = 400;

/** A book a read covers: its open orders, and the balances of its two assets. */
interface ReadBook {
  readonly marketId: string;
  readonly turbo: boolean;
}
/** The books a read covers: some, or every book and every asset. */
type ReadScope = ReadonlyMap<string, ReadBook> | 'all';
/** How long the kill switch waits, after its first sweep, for order requests in flight when it was pressed. */
export const KILL_SWITCH_IN_FLIGHT_MS = 10_000;

export class TradingService {
  private turboDesk: TurboDesk | null = null;
  private readonly orders = new Map<string, TrackedOrder>();
  private fills: FillView[] = [];
  private balances: BalanceView[] = [];
  /** Counts the stream's balance updates; `streamedAt` holds the count at each asset's latest one. */
  private balanceUpdates = 0;
  private readonly streamedAt = new Map<string, number>();
  /** Order ids placed by this terminal, newest last, for "cancel last". */
  private readonly placed: string[] = [];
  /**
   * Orders this terminal sent a cancel or a replacement (an amend) for, newest last: the legs the
   * exchange cancels with them (ParentCancelled) were told by that action's own notice. Noted as
   * the request is sent; a request that fails cancels nothing, so no leg is ever hushed by it.
   */
  private readonly cancelledHere: string[] = [];
  /**
   * Reads of orders and balances: a caller never gets one begun before it asked (see FreshRead).
   * Each read covers what was asked of it until it began (`wanted`): every book, or the books of
   * the requests answered before it.
   */
  private readonly reads = new FreshRead(() => this.pull(this.takeWanted()));
  private wanted: Map<string, ReadBook> | 'all' = new Map();
  /**
   * Counts resets (the trading account changed, or the exchange forgot it): a read or a request
   * begun before one applies nothing of its answer after it. Its answer is of the state before the
   * reset (another account's, or an exchange since restarted), and applied, it put that state
   * back in lists that had just been emptied.
   */
  private epoch = 0;
  /** The read after a request, when one is due, and the books it will read (see refreshSoon). */
  private soon: ReturnType<typeof setTimeout> | null = null;
  private soonBooks = new Map<string, ReadBook>();

  constructor(private readonly deps: TradingServiceDeps) {}

  /** Route Turbo-book requests of a selected Turbo Account (the margin service). */
  setTurboDesk(desk: TurboDesk | null): void {
    this.turboDesk = desk;
  }

  snapshot(): OrdersSnapshot {
    const open = [...this.orders.values()].filter((tracked) => isOpen(tracked.view)).map((tracked) => tracked.view);
    if (this.turboDesk) open.push(...this.turboDesk.openOrders());
    open.sort((left, right) => right.time - left.time);
    const deskFills = this.turboDesk?.fills() ?? [];
    return { open, fills: deskFills.length === 0 ? this.fills : [...this.fills, ...deskFills].sort((left, right) => right.time - left.time).slice(0, RECENT_FILLS) };
  }

  balancesView(): readonly BalanceView[] {
    return this.balances;
  }

  /** Forget everything (the trading account changed). */
  reset(): void {
    this.epoch++;
    this.orders.clear();
    this.fills = [];
    this.balances = [];
    this.streamedAt.clear();
    this.placed.length = 0;
    this.deps.publishOrders(this.snapshot());
    this.deps.publishBalances(this.balances);
  }

  // ---- state from the exchange ------------------------------------------------------------

  /** An order as the stream or a REST read reports it. */
  applyOrder(order: Order, marketId: string, turbo: boolean, announce = true): void {
    // Only the trading account's own orders: a Turbo Account's (a child whose owner is this
    // account) are followed by the margin service, and counting them here too would announce every
    // fill twice.
    if (!this.ownsOrder(order)) return;
    this.deps.takeFills?.(this.accountId(), order, marketId, turbo);
    const view = orderView(order, marketId, turbo, this.accountId());
    const tracked = this.orders.get(view.orderId);
    const fills = order.fills ?? [];
    if (!tracked) {
      this.orders.set(view.orderId, { view, turbo, fillsSeen: announce ? 0 : fills.length });
    } else {
      // A view older than the one held (a REST read answered after the stream reported a fill or
      // a cancel; the answer to the placement itself) is ignored: an order never reopens and its
      // filled quantity never shrinks. Applied, it would show a filled order as open until the next
      // request.
      if (olderOrderView(view, tracked.view)) return;
      tracked.view = view;
    }
    const entry = this.orders.get(view.orderId)!;
    if (fills.length > entry.fillsSeen) {
      const market = this.deps.markets()?.market(view.marketId, turbo);
      for (const fillView of fillViews(order, view).slice(entry.fillsSeen)) {
        this.fills = [fillView, ...this.fills].slice(0, RECENT_FILLS);
        if (announce && market?.ok) this.deps.publishFill({ fill: fillView, symbol: pairName(market.value) });
      }
      entry.fillsSeen = fills.length;
    }
    // Closed orders stay only as history; keep the map bounded.
    if (!isOpen(view) && this.orders.size > 2_000) this.orders.delete(view.orderId);
  }

  private accountId(): string {
    return this.deps.accounts.accountRecord()?.tradeAccountId ?? '';
  }

  /** The terminal holds this order (placed, read or confirmed before). */
  knowsOrder(orderId: string): boolean {
    return this.orders.has(orderId);
  }

  /** The order's owner, when the exchange names it, is the trading account. */
  ownsOrder(order: Order): boolean {
    if (order.owner === undefined) return true;
    const account = this.deps.accounts.accountRecord()?.tradeAccountId;
    if (account === undefined) return false;
    return 'ContractId' in order.owner && order.owner.ContractId.toLowerCase() === account.toLowerCase();
  }

  /**
   * Balances from the stream (no `readSince`), or from a REST read begun at `readSince` (a value of
   * `balanceUpdates` then): an asset the stream updated after the read began keeps the stream's
   * figure, since the read may predate the change (a mint, a fill) the stream reported.
   */
  applyBalances(balances: readonly BalanceView[], readSince?: number): void {
    const byAsset = new Map(this.balances.map((balance) => [balance.assetId, balance]));
    for (const balance of balances) {
      if (readSince !== undefined && (this.streamedAt.get(balance.assetId) ?? -1) >= readSince) continue;
      if (readSince === undefined) this.streamedAt.set(balance.assetId, this.balanceUpdates++);
      byAsset.set(balance.assetId, balance);
    }
    this.balances = [...byAsset.values()].sort((left, right) => left.symbol.localeCompare(right.symbol) || left.assetId.localeCompare(right.assetId));
    this.deps.accounts.setFunded(this.balances.some((balance) => balance.onAccount + balance.locked + balance.unlocked > 0n));
    this.deps.publishBalances(this.balances);
  }

  /** Rebuild every book's open orders and every balance from REST (start, reconnect, main's other account changes). */
  refresh(): Promise<void> {
    this.want('all');
    return this.reads.run();
  }

  private want(books: Iterable<ReadBook> | 'all'): void {
    if (this.wanted === 'all') return;
    if (books === 'all') {
      this.wanted = 'all';
      return;
    }
    for (const book of books) this.wanted.set(bookKey(book.marketId, book.turbo), book);
  }

  /** What the read beginning now covers; nothing asked of it (never expected) reads everything. */
  private takeWanted(): ReadScope {
    const wanted = this.wanted;
    this.wanted = new Map();
    return wanted === 'all' || wanted.size === 0 ? 'all' : wanted;
  }

  /**
   * The read after a request: the stream reports what the request did, and this read is the net
   * under it. Requests answered within AFTER_REQUEST_READ_MS of the first share one read, which
   * starts that long after the first was answered (so after each of them). A trader clicking three
   * orders a second would otherwise have main reading back to back (with the garbage that makes
   * main pause on a later click). The read covers the books the requests went to: their open
   * orders and the balances of their assets, which is all a request can change. Every book and
   * asset is read at start, on a reconnect and after main's other changes to the account
   * (`refresh`); reading them all after each click was about four order pages and four balances
   * per click with five books.
   */
  private refreshSoon(books: Iterable<ReadBook>): void {
    for (const book of books) this.soonBooks.set(bookKey(book.marketId, book.turbo), book);
    if (this.soon !== null) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      const due = this.soonBooks;
      this.soonBooks = new Map();
      if (due.size === 0) return;
      this.want(due.values());
      void this.reads.run();
    }, AFTER_REQUEST_READ_MS);
    this.soon.unref?.();
  }

  /** The runtime stops: no read after a request is left to run. */
  stop(): void {
    if (this.soon !== null) clearTimeout(this.soon);
    this.soon = null;
    this.soonBooks = new Map();
  }

  private async pull(scope: ReadScope): Promise<void> {
    const markets = this.deps.markets();
    const record = this.deps.accounts.accountRecord();
    if (!markets || !record) return;
    const epoch = this.epoch;
    const current = () => this.epoch === epoch;
    const contract = record.tradeAccountId as B256;
    const seenOpen = new Set<string>();
    const covered = (marketId: string, turbo: boolean) => scope === 'all' || scope.has(bookKey(marketId, turbo));
    const books: { market: Market; turbo: boolean }[] = [
      ...markets.markets().map((market) => ({ market, turbo: false })),
      ...markets.turboMarkets().map((market) => ({ market, turbo: true })),
    ].filter((book) => covered(book.market.market_id, book.turbo));
    const assetIds = scope === 'all' ? null : new Set<string>(books.flatMap((book) => [book.market.base.asset, book.market.quote.asset]));
    for (const { market, turbo } of books) {
      const page = await this.deps.rest.getOrders({ market_id: market.market_id, contract, is_open: true, direction: 'desc', count: 200, ...(turbo ? { turbo: true } : {}) });
      if (!current()) return;
      if (!page.ok) {
        this.deps.log(`open orders of ${pairName(market)} could not be read: ${page.message}`);
        return;
      }
      for (const order of page.value.orders) {
        this.applyOrder(order, market.market_id, turbo, this.orders.has(order.order_id));
        seenOpen.add(order.order_id);
      }
    }
    // Orders we held as open that the exchange no longer lists: read them once to learn why.
    for (const tracked of [...this.orders.values()]) {
      if (!isOpen(tracked.view) || seenOpen.has(tracked.view.orderId) || !covered(tracked.view.marketId, tracked.turbo)) continue;
      const one = await this.deps.rest.getOrder({ market_id: tracked.view.marketId as B256, order_id: tracked.view.orderId as B256, ...(tracked.turbo ? { turbo: true } : {}) });
      if (!current()) return;
      if (one.ok) this.applyOrder(one.value.order, tracked.view.marketId, tracked.turbo);
      // The exchange refused to name it (no such order): gone. A read that got no answer says
      // nothing: the order stays as held until a read does (a closed order never reopens here).
      else if (one.code === EXCHANGE_ERRORS.REQUEST_REFUSED) tracked.view = cancelledView(tracked.view);
    }
    const balances: BalanceView[] = [];
    const readSince = this.balanceUpdates;
    for (const asset of markets.assets()) {
      if (assetIds !== null && !assetIds.has(asset.assetId)) continue;
      const balance = await this.deps.rest.getBalance({ contract, asset_id: asset.assetId });
      if (!current()) return;
      if (!balance.ok) continue;
      const books = bookBalances(balance.value.order_books, markets.turboMarkets());
      balances.push({
        assetId: asset.assetId,
        symbol: asset.symbol,
        decimals: asset.decimals,
        onAccount: balance.value.trading_account_balance,
        locked: balance.value.total_locked,
        unlocked: balance.value.total_unlocked,
        books,
      });
    }
    this.applyBalances(balances, readSince);
    this.deps.publishOrders(this.snapshot());
  }

  // ---- requests ---------------------------------------------------------------------------

  private async identity(): Promise<Result<{ owner: B256; tradeAccountId: B256; sessionAddress: B256 }>> {
    const identity = this.deps.accounts.tradingIdentity();
    if (!identity.ok) return identity;
    const loaded = await this.deps.loadSessionKey(identity.value.sessionAddress);
    return loaded.ok ? identity : loaded;
  }

  private market(marketId: string, turbo: boolean): Result<Market> {
    const markets = this.deps.markets();
    if (!markets) return fail('NOT_CONNECTED', 'The markets of the network are not loaded yet');
    return markets.market(marketId, turbo);
  }

  /**
   * The orders a request's answer names, applied unless the state was reset while it was on its
   * way (`epoch`, taken before sending): then they are only the caller's result. Returns whether
   * they were applied.
   */
  private afterSubmit(orders: readonly unknown[], marketId: string, turbo: boolean, epoch: number): { views: OrderView[]; applied: boolean } {
    const views = (orders as Order[]).map((order) => orderView(order, marketId, turbo, this.accountId()));
    if (epoch !== this.epoch) return { views, applied: false };
    for (const order of orders as Order[]) this.applyOrder(order, marketId, turbo);
    this.deps.publishOrders(this.snapshot());
    this.refreshSoon([{ marketId, turbo }]);
    return { views, applied: true };
  }

  /** An order as main holds it now (open or ended), or undefined when it was never seen. */
  order(orderId: string): OrderView | undefined {
    return this.orders.get(orderId)?.view;
  }

  async placeOrder(input: PlaceIntent & { marketId: string; turbo: boolean; parent?: AlgoParent | undefined }): Promise<Result<PlacedOrder>> {
    if (input.turbo && this.turboDesk?.active()) {
      // A Turbo Account's submitter does not carry an algorithm's tag: its children are not signed there.
      if (input.parent !== undefined) return fail('NOT_AVAILABLE', 'Execution algorithms trade as the trading account; deselect the Turbo Account to run one on a Turbo book.', { field: 'turbo' });
      return this.turboDesk.placeOrder(input);
    }
    // Never signed by the trading account while the trader's chosen Turbo Account is coming back.
    if (input.turbo && this.turboDesk?.restoring()) {
      return fail('TURBO_ACCOUNT_RESTORING', 'turbo: the Turbo Account you trade Turbo books as is being restored after the network came back; nothing was signed. Send it again in a moment.', { field: 'turbo' });
    }
    const market = this.market(input.marketId, input.turbo);
    if (!market.ok) return market;
    const identity = await this.identity();
    if (!identity.ok) return identity;
    const prepared = prepareOrder(market.value, input, { nowSeconds: this.deps.nowSeconds(), turbo: input.turbo });
    if (!prepared.ok) return prepared;
    const epoch = this.epoch;
    const submitted = await this.deps.submitter.submit({
      groups: [prepared.value.group],
      description: input.parent === undefined ? prepared.value.description : `${input.parent.label}: ${prepared.value.description}`,
      reduceOnly: input.reduceOnly === true,
      ...(input.parent === undefined ? {} : { parent: input.parent.tag }),
    });
    if (!submitted.ok) return submitted;
    const { views: orders, applied } = this.afterSubmit(submitted.value.orders, input.marketId, input.turbo, epoch);
    if (applied) for (const order of orders) this.placed.push(order.orderId);
    if (this.placed.length > 100) this.placed.splice(0, this.placed.length - 100);
    return ok({ journalId: submitted.value.journalId, orders, adjustments: prepared.value.adjustments });
  }

  /**
   * Several orders on one book in ONE signed batch (an execution algorithm's scale orders): every
   * order passes the market rules as a single one does, and the batch goes through the submitter
   * (journal, guards, nonce) as one request. No SettleBalance is added, so the batch holds up to
   * MAX_ACTIONS_PER_BATCH orders.
   */
  async placeOrders(marketId: string, turbo: boolean, intents: readonly PlaceIntent[], parent: AlgoParent): Promise<Result<PlacedOrder>> {
    if (turbo && (this.turboDesk?.active() === true || this.turboDesk?.restoring() === true)) {
      return fail('NOT_AVAILABLE', 'Execution algorithms trade as the trading account; deselect the Turbo Account to run one on a Turbo book.', { field: 'turbo' });
    }
    if (intents.length === 0 || intents.length > MAX_ACTIONS_PER_BATCH) return fail('INVALID_INPUT', `A batch holds 1 to ${MAX_ACTIONS_PER_BATCH} orders, not ${intents.length}`);
    const market = this.market(marketId, turbo);
    if (!market.ok) return market;
    const identity = await this.identity();
    if (!identity.ok) return identity;
    const actions: SessionAction[] = [];
    const descriptions: string[] = [];
    const adjustments: string[] = [];
    for (const intent of intents) {
      const prepared = prepareOrder(market.value, intent, { nowSeconds: this.deps.nowSeconds(), turbo });
      if (!prepared.ok) return prepared;
      actions.push(...prepared.value.group.actions);
      descriptions.push(prepared.value.description);
      adjustments.push(...prepared.value.adjustments);
    }
    const group: ActionGroup = { market_id: market.value.market_id, market: market.value, ...(turbo ? { turbo: true } : {}), actions };
    const epoch = this.epoch;
    const submitted = await this.deps.submitter.submit({ groups: [group], description: `${parent.label}: ${descriptions.join('; ')}`, settleFirst: false, parent: parent.tag });
    if (!submitted.ok) return submitted;
    const { views: orders } = this.afterSubmit(submitted.value.orders, marketId, turbo, epoch);
    return ok({ journalId: submitted.value.journalId, orders, adjustments });
  }

  /** Cancel these orders of one book in as few signed batches as the caps allow (an algorithm's children). */
  async cancelOrders(marketId: string, turbo: boolean, orderIds: readonly B256[]): Promise<Result<CancelReport>> {
    const market = this.market(marketId, turbo);
    if (!market.ok) return market;
    const identity = await this.identity();
    if (!identity.ok) return identity;
    const open = orderIds.filter((orderId) => {
      const tracked = this.orders.get(orderId);
      return tracked === undefined || isOpen(tracked.view);
    });
    if (open.length === 0) return ok({ ...EMPTY_CANCEL_REPORT });
    return ok(await this.sendCancels(open.map((orderId) => ({ market: market.value, turbo, orderId }))));
  }

  private async sendCancels(targets: CancelTarget[]): Promise<CancelReport> {
    const cancelled: string[] = [];
    const failed: { orderId: string; reason: string }[] = [];
    let batches = 0;
    let pending = targets;
    // A cancel of an order that filled meanwhile reverts its whole batch: refresh, drop what is
    // no longer open, and send the rest again (twice at most).
    for (let round = 0; round < 3 && pending.length > 0; round++) {
      const retry: CancelTarget[] = [];
      for (const batch of packCancels(pending)) {
        batches++;
        const description = `Cancel ${batch.orderIds.length} order${batch.orderIds.length === 1 ? '' : 's'}`;
        const epoch = this.epoch;
        this.noteCancelled(batch.orderIds);
        const submitted = await this.deps.submitter.submit({ groups: batch.groups, description, settleFirst: false });
        if (submitted.ok) {
          cancelled.push(...batch.orderIds);
          // After a reset the map holds another state's orders: nothing of this batch is there.
          if (epoch === this.epoch) for (const orderId of batch.orderIds) {
            const tracked = this.orders.get(orderId);
            if (tracked) tracked.view = cancelledView(tracked.view);
          }
        } else if (submitted.code === 'ONCHAIN_REVERT' && round < 2) {
          retry.push(...pending.filter((target) => batch.orderIds.includes(target.orderId)));
        } else {
          for (const orderId of batch.orderIds) failed.push({ orderId, reason: submitted.message });
        }
      }
      if (retry.length === 0) break;
      await this.refresh();
      pending = retry.filter((target) => {
        const tracked = this.orders.get(target.orderId);
        if (tracked && !isOpen(tracked.view)) {
          failed.push({ orderId: target.orderId, reason: `already ${tracked.view.status}` });
          return false;
        }
        return true;
      });
    }
    this.deps.publishOrders(this.snapshot());
    this.refreshSoon(targets.map((target) => ({ marketId: target.market.market_id, turbo: target.turbo })));
    return { ...EMPTY_CANCEL_REPORT, requested: targets.length, cancelled, failed, batches };
  }

  async cancelOrder(marketId: string, turbo: boolean, orderId: B256): Promise<Result<CancelReport>> {
    if (this.turboDesk?.owns(orderId)) return this.turboDesk.cancelOrder(marketId, orderId);
    const market = this.market(marketId, turbo);
    if (!market.ok) return market;
    const identity = await this.identity();
    if (!identity.ok) return identity;
    const tracked = this.orders.get(orderId);
    if (tracked && !isOpen(tracked.view)) return fail('ORDER_NOT_OPEN', `order ${orderId} is already ${tracked.view.status}`, { field: 'orderId' });
    // The exchange cancels the legs bound to the order with it (ParentCancelled): the report names them.
    const legs = this.deps.legsOf?.(orderId) ?? [];
    const report = await this.sendCancels([{ market: market.value, turbo, orderId }]);
    if (report.cancelled.length === 0) return fail('CANCEL_FAILED', report.failed[0]?.reason ?? `order ${orderId} was not cancelled`);
    if (legs.length > 0) void this.deps.refreshTriggers?.();
    return ok({ ...report, triggersRequested: legs.length, triggersCancelled: [...legs] });
  }

  /**
   * The kill switch (no market) or cancel all in one market: every open order and every pending
   * trigger leg of the trading account on both books (canonical and Turbo), then those of every
   * Turbo Account. Read fresh from the exchange first; never places anything.
   */
  async cancelAll(marketId: string | undefined): Promise<Result<CancelReport>> {
    await this.deps.stopAutomation?.(marketId);
    // A request that creates orders may be in flight (a drag just dropped, a click a moment ago):
    // what it places lands after this sweep read the books. Sweep now, then once more when those
    // requests have their answer (bounded), so the kill switch leaves nothing they placed.
    const inFlight = this.orderRequestsInFlight();
    const first = await this.sweepOnce(marketId);
    if (!first.ok) return first;
    let { report, desk } = first.value;
    let unanswered = 0;
    if (inFlight.length > 0) {
      unanswered = await this.answered(inFlight, KILL_SWITCH_IN_FLIGHT_MS);
      const again = await this.sweepOnce(marketId);
      if (again.ok) {
        report = mergeReports(report, again.value.report);
        if (!again.value.desk.ok) desk = again.value.desk;
      }
    }
    const markets = this.deps.markets();
    const bookNameOf = (id: string, turbo: boolean) => {
      const market = markets?.market(id, turbo);
      return `${market?.ok ? pairName(market.value) : id}${turbo ? ' (Turbo book)' : ''}`;
    };
    const failed = report.failed.length + report.triggersFailed.length + report.unread.length > 0 || !desk.ok || unanswered > 0;
    const late = unanswered === 0 ? '' : `; ${unanswered} order request${unanswered === 1 ? ' sent just before was' : 's sent just before were'} still unanswered after ${KILL_SWITCH_IN_FLIGHT_MS / 1000} s: check Open orders`;
    this.deps.notice(failed ? 'warning' : 'info', `${cancelReportText(report, bookNameOf)}${desk.ok ? '' : `; the Turbo Accounts' orders and legs were not swept: ${desk.message}`}${late}`);
    return ok(report);
  }

  /** One sweep: the trading account's books, then every Turbo Account's. */
  private async sweepOnce(marketId: string | undefined): Promise<Result<{ report: CancelReport; desk: Result<CancelReport> }>> {
    const own = await this.cancelAllOwn(marketId);
    if (!own.ok) return own;
    const desk = this.turboDesk ? await this.turboDesk.cancelAll(marketId) : ok(EMPTY_CANCEL_REPORT);
    return ok({ report: desk.ok ? mergeReports(own.value, desk.value) : own.value, desk });
  }

  /** Journal entries of any account whose request creates an order and has no answer yet. */
  private orderRequestsInFlight(): string[] {
    return this.deps.journal
      .unresolved()
      .filter((record) => (record.signed.actions as { actions?: Record<string, unknown>[] }[]).some((group) => (group.actions ?? []).some((action) => 'CreateOrder' in action)))
      .map((record) => record.signed.id);
  }

  /** Wait until every one of `ids` has its answer in the journal, or `ms` passed; how many are still unanswered. */
  private async answered(ids: readonly string[], ms: number): Promise<number> {
    const waiting = new Set(ids);
    const left = () => this.deps.journal.unresolved().filter((record) => waiting.has(record.signed.id)).length;
    if (left() === 0) return 0;
    await new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        off();
        resolve();
      };
      const off = this.deps.journal.onEntry(() => {
        if (left() === 0) finish();
      });
      void this.deps.wait(ms).then(finish);
    });
    return left();
  }

  /** Cancel all of the trading account's own orders and legs, on both books. */
  private async cancelAllOwn(marketId: string | undefined): Promise<Result<CancelReport>> {
    const identity = await this.identity();
    if (!identity.ok) return identity;
    const markets = this.deps.markets();
    if (!markets) return fail('NOT_CONNECTED', 'The markets of the network are not loaded yet');
    const books: SweepBook[] = [
      ...markets.markets().map((market) => ({ market, turbo: false })),
      ...markets.turboMarkets().map((market) => ({ market, turbo: true })),
    ].filter((book) => marketId === undefined || book.market.market_id === marketId);
    const epoch = this.epoch;
    const report = await sweepAccount({
      rest: this.deps.rest,
      account: identity.value.tradeAccountId,
      books,
      submit: (batch) => {
        this.noteCancelled(batch.groups.flatMap((group) => group.actions.flatMap((action) => (action.kind === 'CancelOrder' ? [action.order_id] : []))));
        return this.deps.submitter.submit({ groups: batch.groups, description: batch.description, settleFirst: false });
      },
      describeOrder: (orderId) => {
        const tracked = this.orders.get(orderId);
        const market = tracked ? markets.market(tracked.view.marketId, tracked.turbo) : undefined;
        if (!tracked || !market?.ok) return undefined;
        return `${describeOrder(market.value, tracked.view.side, tracked.view.orderType, tracked.view.price, tracked.view.quantity - tracked.view.filled)}${tracked.turbo ? ' (Turbo book)' : ''}`;
      },
    });
    // After a reset the map holds another state's orders: nothing of this sweep is there.
    if (epoch === this.epoch) {
      for (const orderId of report.cancelled) {
        const tracked = this.orders.get(orderId);
        if (tracked) tracked.view = cancelledView(tracked.view);
      }
    }
    this.deps.publishOrders(this.snapshot());
    this.refreshSoon(books.map((book) => ({ marketId: book.market.market_id, turbo: book.turbo })));
    await this.deps.refreshTriggers?.();
    return ok(report);
  }

  /** Whether this terminal cancelled or replaced the order (its legs went with it, and the trader was told). */
  cancelledByTerminal(orderId: string): boolean {
    return this.cancelledHere.includes(orderId);
  }

  private noteCancelled(orderIds: readonly string[]): void {
    this.cancelledHere.push(...orderIds);
    if (this.cancelledHere.length > 200) this.cancelledHere.splice(0, this.cancelledHere.length - 200);
  }

  /** The most recent order this terminal placed that is still open. */
  lastPlacedOpen(): OrderView | null {
    for (let index = this.placed.length - 1; index >= 0; index--) {
      const tracked = this.orders.get(this.placed[index]!);
      if (tracked && isOpen(tracked.view)) return tracked.view;
    }
    return null;
  }

  /** Move an order: cancel it and place the remainder at the new price, atomically in one batch. */
  moveOrder(marketId: string, turbo: boolean, orderId: B256, price: bigint): Promise<Result<PlacedOrder>> {
    return this.amendOrder(marketId, turbo, orderId, { price });
  }

  /**
   * Amend a resting order: cancel it and create its replacement (the new price and/or the new
   * quantity still to rest; what is not given stays) in ONE signed batch — CancelOrder,
   * SettleBalance (what the cancel unlocks funds the replacement), CreateOrder — so there is never a
   * moment with both orders or with neither. An order that filled meanwhile makes the cancel revert
   * and with it the whole batch: nothing changes. The replacement passes the market rules as any
   * new order does (tick, step, whole quote value, min order; the maximum order size and the price band
   * are main's guards', run by the submitter). The
   * take-profit / stop-loss legs bound to the order (read fresh from the exchange) are carried to
   * the replacement in the same batch, and what the order had filled keeps them (amend-legs.ts).
   */
  async amendOrder(marketId: string, turbo: boolean, orderId: B256, change: { readonly price?: bigint | undefined; readonly quantity?: bigint | undefined }, parent?: AlgoParent): Promise<Result<PlacedOrder>> {
    if (this.turboDesk?.owns(orderId)) {
      if (parent !== undefined) return fail('NOT_AVAILABLE', "An execution algorithm's child is never a Turbo Account's order", { field: 'orderId' });
      return this.turboDesk.moveOrder(marketId, orderId, change.price, change.quantity);
    }
    const market = this.market(marketId, turbo);
    if (!market.ok) return market;
    const identity = await this.identity();
    if (!identity.ok) return identity;
    const tracked = this.orders.get(orderId);
    if (!tracked || !isOpen(tracked.view)) return fail('ORDER_NOT_OPEN', `order ${orderId} is not open`, { field: 'orderId' });
    if (tracked.view.marketId !== marketId || tracked.turbo !== turbo) {
      return fail('INVALID_INPUT', `marketId: order ${orderId} rests on ${tracked.view.marketId}${tracked.turbo ? ' (Turbo book)' : ''}, not on ${marketId}${turbo ? ' (Turbo book)' : ''}`, { field: 'marketId' });
    }
    const legs = await boundLegs(this.deps.rest, market.value, turbo, identity.value.tradeAccountId, orderId);
    if (!legs.ok) return legs;
    if (legs.value.length > 0) {
      // What it has filled decides what its legs protect: read it now, not as the stream last said.
      const fresh = await this.deps.rest.getOrder({ market_id: market.value.market_id, order_id: orderId, ...(turbo ? { turbo: true } : {}) });
      if (fresh.ok) this.applyOrder(fresh.value.order, marketId, turbo);
      if (!isOpen(tracked.view)) return fail('ORDER_NOT_OPEN', `order ${orderId} is not open`, { field: 'orderId' });
    }
    const remaining = tracked.view.quantity - tracked.view.filled;
    const price = change.price ?? tracked.view.price;
    const quantity = change.quantity ?? remaining;
    if (price === tracked.view.price && quantity === remaining) return fail('NOTHING_TO_AMEND', `order ${orderId} already rests at that price and quantity`, { field: 'price' });
    const kind = tracked.view.orderType === 'PostOnly' || tracked.view.orderType === 'Limit' ? tracked.view.orderType : 'Spot';
    const prepared = prepareOrder(market.value, { side: tracked.view.side, orderType: { kind }, price, quantity }, { nowSeconds: this.deps.nowSeconds(), turbo });
    if (!prepared.ok) return prepared;
    const created = prepared.value.group.actions[0];
    if (created?.kind !== 'CreateOrder') return fail('BUG', 'prepareOrder did not produce a CreateOrder');
    let creates: SessionAction[] = [created];
    let carried: Pick<PlacedOrder, 'carriedLegs' | 'protectedFilled'> = {};
    let legsText = '';
    const adjustments = [...prepared.value.adjustments];
    if (legs.value.length > 0) {
      const referencePrice = await lastTradePrice(this.deps.rest, market.value, turbo);
      const plan = planAmendLegs(market.value, tracked.view, created, legs.value, (action) => checkAction(action, { market: market.value, turbo, ...(referencePrice === undefined ? {} : { referencePrice }) }));
      if (!plan.ok) return plan;
      creates = [...(plan.value.protect === null ? [] : [plan.value.protect]), plan.value.create];
      carried = { carriedLegs: plan.value.carried, ...(plan.value.protectedFilled > 0n ? { protectedFilled: plan.value.protectedFilled } : {}) };
      legsText = plan.value.description;
      adjustments.push(...plan.value.adjustments);
    }
    const group: ActionGroup = {
      ...prepared.value.group,
      actions: [{ kind: 'CancelOrder', order_id: orderId }, { kind: 'SettleBalance', to: contractIdentity(identity.value.tradeAccountId) }, ...creates],
    };
    const description = `Amend ${describeOrder(market.value, tracked.view.side, kind, tracked.view.price, remaining)} (${orderId}) to ${describeOrder(market.value, tracked.view.side, kind, price, prepared.value.quantity)}${legsText}`;
    const epoch = this.epoch;
    // Noted before sending: the stream may tell the legs' cancellation before the answer comes.
    this.noteCancelled([orderId]);
    const submitted = await this.deps.submitter.submit({
      groups: [group],
      description: parent === undefined ? description : `${parent.label}: ${description}`,
      settleFirst: false,
      ...(parent === undefined ? {} : { parent: parent.tag }),
    });
    if (!submitted.ok) {
      return fail(submitted.code, submitted.code === 'ONCHAIN_REVERT' ? `The order could not be amended (it may have filled meanwhile); nothing changed: ${submitted.message}` : submitted.message, submitted.details);
    }
    if (epoch === this.epoch) tracked.view = cancelledView(tracked.view);
    const { views: orders, applied } = this.afterSubmit(submitted.value.orders, marketId, turbo, epoch);
    if (applied) for (const order of orders) this.placed.push(order.orderId);
    if (legs.value.length > 0) await this.deps.refreshTriggers?.();
    return ok({ journalId: submitted.value.journalId, orders, adjustments, replacedOrderId: orderId, ...carried });
  }

  /** Move a book's unlocked balance back to the trading account. */
  async settle(marketId: string, turbo: boolean): Promise<Result<null>> {
    if (turbo && this.turboDesk?.active()) return this.turboDesk.settle(marketId);
    const market = this.market(marketId, turbo);
    if (!market.ok) return market;
    const identity = await this.identity();
    if (!identity.ok) return identity;
    const submitted = await this.deps.submitter.submit({
      groups: [{ market_id: market.value.market_id, market: market.value, ...(turbo ? { turbo: true } : {}), actions: [{ kind: 'SettleBalance', to: contractIdentity(identity.value.tradeAccountId) }] }],
      description: `Settle the ${pairName(market.value)} book balance to the trading account`,
      settleFirst: false,
    });
    if (!submitted.ok) return submitted;
    this.refreshSoon([{ marketId: market.value.market_id, turbo }]);
    return ok(null);
  }

  // ---- history ------------------------------------------------------------------------------
  //
  // Order history and fills of one market list every book and account the trader trades it with:
  // the trading account on the canonical book and on the Turbo book, and each Turbo Account on
  // the Turbo book, merged newest first and labelled (OrderView.turbo, .account). Each source is
  // paged with its own exchange cursor; the list's cursor carries them all.

  private historySources(marketId: string, children: readonly string[]): HistorySource[] {
    const record = this.deps.accounts.accountRecord();
    if (!record) return [];
    const own = record.tradeAccountId;
    const sources: HistorySource[] = [{ key: `c:${own}`, turbo: false, account: own }];
    const markets = this.deps.markets();
    if (markets?.market(marketId, true).ok === true) {
      sources.push({ key: `t:${own}`, turbo: true, account: own });
      for (const child of children) sources.push({ key: `t:${child}`, turbo: true, account: child });
    }
    return sources.slice(0, MAX_HISTORY_SOURCES);
  }

  private async historyPage(marketId: string, cursor: string | null): Promise<Result<{ entries: { order: Order; turbo: boolean; account: string }[]; next: string | null }>> {
    // The Turbo Accounts as the exchange lists them: right after a network switch main has not read
    // them yet, and a list begun then would leave their orders and fills out until something else moved.
    const children = (await this.turboDesk?.loadedAccounts()) ?? [];
    const sources = this.historySources(marketId, children);
    if (sources.length === 0) return fail('NO_TRADE_ACCOUNT', 'There is no trading account yet');
    const positions = parseHistoryCursor(cursor);
    if (!positions.ok) return positions;
    const pages: { source: HistorySource; orders: Order[]; more: boolean; from: string | undefined }[] = [];
    for (const source of sources) {
      const from = positions.value[source.key];
      if (from === HISTORY_END) continue;
      // A source not in the cursor (an account found since) starts from its newest order.
      const start = from === undefined || cursor === null ? {} : cursorFields(from);
      const page = await this.deps.rest.getOrders({
        market_id: marketId as B256,
        contract: source.account as B256,
        is_open: false,
        direction: 'desc',
        count: HISTORY_PAGE,
        ...start,
        ...(source.turbo ? { turbo: true } : {}),
      });
      if (!page.ok) return page;
      // The cursor item may be repeated at the top of the next page; drop it.
      const orders = page.value.orders.filter((order) => from === undefined || !from.endsWith(order.order_id));
      pages.push({ source, orders, more: page.value.orders.length >= HISTORY_PAGE, from });
    }
    // Everything newer than the oldest item of the fullest-reaching source that has more is final.
    let threshold: Order | undefined;
    for (const page of pages) {
      const last = page.orders.at(-1);
      if (page.more && last !== undefined && (threshold === undefined || compareOrders(last, threshold) < 0)) threshold = last;
    }
    const entries: { order: Order; turbo: boolean; account: string }[] = [];
    const next: Record<string, string> = { ...positions.value };
    let finished = true;
    for (const page of pages) {
      const kept = threshold === undefined ? page.orders : page.orders.filter((order) => compareOrders(order, threshold) <= 0);
      for (const order of kept) entries.push({ order, turbo: page.source.turbo, account: page.source.account });
      const last = kept.at(-1);
      if (!page.more && kept.length === page.orders.length) next[page.source.key] = HISTORY_END;
      else {
        finished = false;
        if (last?.timestamp !== undefined) next[page.source.key] = `${last.timestamp}:${last.order_id}`;
        else if (page.from !== undefined) next[page.source.key] = page.from;
      }
    }
    entries.sort((left, right) => compareOrders(left.order, right.order));
    return ok({ entries, next: finished ? null : JSON.stringify(next) });
  }

  async orderHistory(marketId: string, cursor: string | null): Promise<Result<Page<OrderView>>> {
    const page = await this.historyPage(marketId, cursor);
    if (!page.ok) return page;
    return ok({ items: page.value.entries.map(({ order, turbo, account }) => orderView(order, marketId, turbo, account)), next: page.value.next });
  }

  async fillHistory(marketId: string, cursor: string | null): Promise<Result<Page<FillView>>> {
    const page = await this.historyPage(marketId, cursor);
    if (!page.ok) return page;
    const items = page.value.entries.flatMap(({ order, turbo, account }) => fillViews(order, orderView(order, marketId, turbo, account)));
    items.sort((left, right) => right.time - left.time);
    return ok({ items, next: page.value.next });
  }

  // ---- reconciliation -------------------------------------------------------------------------

  /** Decide whether a request whose answer was lost landed, and record it in the journal. */
  async reconcile(journalId: string): Promise<Result<'landed' | 'not-landed'>> {
    const record = this.deps.journal.unresolved().find((candidate) => candidate.signed.id === journalId);
    if (!record) return ok('landed');
    const nonces = this.deps.nonces();
    if (!nonces) return fail('NO_TRADE_ACCOUNT', 'The trading account is not ready');
    const answer = await settleLostNonce(nonces, record.signed.nonce, this.deps.wait, this.deps.nowSeconds);
    if (!answer.ok) {
      // The account itself is gone (a reset sandbox, another network's data): nothing of the
      // request can exist on this exchange any more.
      if (answer.code !== 'NO_TRADE_ACCOUNT') return answer;
      const detail = 'The exchange no longer knows the trading account (it was reset): the request cannot have landed there';
      this.deps.journal.appendReconciled({ id: journalId, status: 'not-landed', detail });
      this.deps.notice('warning', `${record.signed.description}: ${detail}`);
      return ok('not-landed');
    }
    const found = answer.value === 'not-landed' ? [] : await this.findOrdersOf(record.signed);
    const landed = answer.value === 'landed' || found.length > 0;
    const createsOrders = JSON.stringify(record.signed.actions).includes('"CreateOrder"');
    const detail = !landed
      ? 'The request did not land (its nonce was not consumed); it was not resent'
      : found.length > 0
        ? `The request landed: orders ${found.join(', ')} (checked with the exchange after its answer was lost)`
        : createsOrders
          ? 'The request was executed but created no order: it reverted on chain (checked with the exchange after its answer was lost)'
          : 'The request was executed (checked with the exchange after its answer was lost)';
    this.deps.journal.appendReconciled({ id: journalId, status: landed ? 'landed' : 'not-landed', detail });
    this.deps.notice(landed ? 'info' : 'warning', `${record.signed.description}: ${detail}`);
    await this.refresh();
    return ok(landed ? 'landed' : 'not-landed');
  }

  /** Orders of the trading account that match the CreateOrder actions of a journal entry. */
  async ordersOf(entry: SignedEntry): Promise<Result<Order[]>> {
    const accountRecord = this.deps.accounts.accountRecord();
    if (!accountRecord) return fail('NO_TRADE_ACCOUNT', 'The trading account is not ready');
    return ordersOfRequest(this.deps.rest, accountRecord.tradeAccountId as B256, entry);
  }

  /** For a lost answer: what can be read is used, a book that cannot be read is passed over. */
  private async findOrdersOf(entry: SignedEntry): Promise<string[]> {
    const accountRecord = this.deps.accounts.accountRecord();
    if (!accountRecord) return [];
    const found = await ordersOfRequest(this.deps.rest, accountRecord.tradeAccountId as B256, entry, { skipUnreadable: true });
    return found.ok ? found.value.map((order) => order.order_id) : [];
  }
}

/**
 * The orders a journaled request created, among the account's orders on the exchange: each
 * CreateOrder of the entry matched by side, price and quantity, placed no earlier than a minute
 * before the entry was written, each order matched once. A page that cannot be read is a failure
 * (unless `skipUnreadable`): "no order found" must mean the exchange showed none.
 */
export async function ordersOfRequest(rest: Pick<ExchangeRestClient, 'getOrders'>, account: B256, entry: SignedEntry, options: { skipUnreadable?: boolean } = {}): Promise<Result<Order[]>> {
  const found: Order[] = [];
  const groups = entry.actions as { market_id?: string; turbo?: boolean; actions?: Record<string, { side?: string; price?: string; quantity?: string }>[] }[];
  for (const group of groups) {
    const creates = (group.actions ?? []).map((action) => action.CreateOrder).filter((create) => create !== undefined);
    if (!group.market_id || creates.length === 0) continue;
    const page = await rest.getOrders({ market_id: group.market_id as B256, contract: account, direction: 'desc', count: 50, ...(group.turbo ? { turbo: true } : {}) });
    if (!page.ok) {
      if (options.skipUnreadable === true) continue;
      return page;
    }
    for (const create of creates) {
      const match = page.value.orders.find(
        (order) => order.side === create.side && order.price.toString() === create.price && order.quantity.toString() === create.quantity && toMillis(order.timestamp) >= entry.at - 60_000 && !found.includes(order),
      );
      if (match) found.push(match);
    }
  }
  return ok(found);
}

/**
 * The per-book entries of a balance (GET /v1/balance or the balances stream). A canonical book is
 * keyed by its market id; a Turbo book shares that market id, so it is keyed by its own contract id.
 */
export function bookBalances(orderBooks: Readonly<Record<string, { readonly locked: bigint; readonly unlocked: bigint }>>, turboMarkets: readonly Market[]): BookBalanceView[] {
  return Object.entries(orderBooks).map(([key, book]) => {
    const turboBook = turboMarkets.find((market) => market.contract_id.toLowerCase() === key.toLowerCase());
    return { marketId: turboBook?.market_id ?? key, turbo: turboBook !== undefined, locked: book.locked, unlocked: book.unlocked };
  });
}
