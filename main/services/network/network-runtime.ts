// Everything main runs for one network: the REST client and rate limiter, the WebSocket stream
// and its order books, the market feed of the data hub the windows subscribe to (the hub itself
// outlives networks, see terminal.ts), the account (onboarding, session), the nonces, the
// submitter and the trading service. Switching networks stops one
// runtime and starts another; nothing is shared between networks but the journal and the keys.
import { sessionScope, sessionScopeText } from '../../../shared/market/session-scope';
import { randomBytes } from 'node:crypto';
import type { Trade } from '../../../shared/api/market-schemas';
import type { Clock } from '../../../shared/clock';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import type { AccountState, BalanceView, BarView, FillNotice, KeychainView, LinkState, OrdersSnapshot, RateLimitView, TradeView } from '../../../shared/ipc/views';
import { fail, ok, type Result } from '../../../shared/result';
import { OrderBookFeed } from '../../exchange/book-feed';
import { ExchangeRestClient } from '../../exchange/rest-client';
import type { HttpFetch } from '../../exchange/http';
import { RateLimiter } from '../../exchange/rate-limiter';
import { allRateRules } from '../../exchange/rate-rules';
import { wsSocketFactory, type SocketFactory } from '../../exchange/socket';
import { ExchangeStream, type StreamSubscription } from '../../exchange/stream-client';
import type { MessageOf } from '../../exchange/stream-routes';
import { AccountService } from '../account/account-service';
import { fetchJson } from '../../exchange/http';
import { MarginReads } from '../margin/margin-reads';
import { MarginService } from '../margin/margin-service';
import type { Journal } from '../journal/journal';
import type { KeyVault } from '../keys/key-vault';
import type { DepthHandle, MarketFeed, TradesEvent } from '../market-data/market-data-hub';
import { MarketsIndex } from '../market-data/markets-index';
import { checkChainId, websocketUrlFor, type NetworkConfig } from './networks';
import { guardRequest, previewRequest, type GuardRequest } from '../guards/order-guard';
import type { GuardFacts } from '../guards/guard-facts';
import type { ReferenceKind } from '../protect/protective-store';
import type { Market } from '../../../shared/market/market';
import { referenceMark } from '../../../shared/market/reference-mark';
import { DailyLoss } from '../guards/daily-loss';
import { OrderRate } from '../guards/order-rate';
import { closingOnBook, runtimeGuardFacts } from '../guards/runtime-facts';
import { RiskWatch } from '../guards/risk-watch';
import { assetAmountWords } from '../guards/words';
import { NonceManager } from '../nonces/nonce-manager';
import { FillSource } from '../fills/fill-source';
import { PositionsService } from '../positions/positions-service';
import { RecordsService } from '../records/records-service';
import type { PreferencesStore } from '../storage/preferences';
import { StreamOrderCheck } from '../trading/stream-order-check';
import { Submitter } from '../trading/submitter';
import type { OrderPathSpan } from '../trading/order-path-span';
import { bookBalances, orderView, toMillis, TradingService } from '../trading/trading-service';
import { TriggerService } from '../triggers/trigger-service';
import { PositionBrackets } from '../protect/position-brackets';
import { ProtectiveStops } from '../protect/protective-stops';
import type { ProtectiveStore } from '../protect/protective-store';
import type { WindowHub } from '../window-hub';
import { AlgoService, RATE_HEADROOM } from '../algos/algo-service';
import type { AlgoStore } from '../algos/algo-store';
import { RATE_RULES } from '../../exchange/rate-rules';

export interface RuntimeDeps {
  readonly network: NetworkConfig;
  /** The REST base URL (for the sandbox, where it listens now). */
  readonly restUrl: string;
  readonly clock: Clock;
  readonly preferences: PreferencesStore;
  readonly vault: KeyVault | null;
  readonly keychain: KeychainView;
  readonly journal: Journal;
  readonly windows: WindowHub;
  readonly fetch?: HttpFetch;
  readonly socketFactory?: SocketFactory;
  /** Timeout of every REST request (10 s by default). */
  readonly timeoutMs?: number;
  readonly log: (line: string) => void;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string, code?: string, details?: string) => void;
  /** The connection indicator changed (stream state, REST health). */
  readonly onConnection: () => void;
  /** The network answered a chain id for the first time (nothing was expected yet): keep it. */
  readonly onChainIdLearned?: (chainId: bigint) => void;
  /** The trailing and break-even stops on disk (absent: none are managed). */
  readonly protectiveStore?: ProtectiveStore;
  /** The execution algorithms on disk (absent: none are run). */
  readonly algoStore?: AlgoStore;
  /** The clock the algorithms' schedules run on (the terminal's by default; tests drive the sandbox's). */
  readonly algoClock?: Clock;
  /** Told each signed order's timings once its answer is back (the order-path bench). */
  readonly orderPathTrace?: (span: OrderPathSpan) => void;
}

const RENEW_CHECK_MS = 60_000;

function tradeView(trade: Trade, marketId: string): TradeView {
  return { tradeId: trade.trade_id, marketId, side: trade.side, price: trade.price, quantity: trade.quantity, time: toMillis(trade.timestamp) };
}

export class NetworkRuntime {
  readonly rest: ExchangeRestClient;
  readonly limiter: RateLimiter;
  readonly stream: ExchangeStream;
  readonly books: OrderBookFeed;
  /** What the terminal's market data hub reads this network through. */
  readonly marketFeed: MarketFeed;
  readonly accounts: AccountService;
  readonly trading: TradingService;
  readonly submitter: Submitter;
  /** Margin (Turbo) accounts of the trading account; routes Turbo orders of a selected one. */
  readonly margin: MarginService;
  /** Take-profit, stop-loss and OCO legs of the trading account (main/services/triggers). */
  readonly triggers: TriggerService;
  /** Positions and P&L from the fills, and flatten (main/services/positions). */
  readonly positions: PositionsService;
  /** Main's one source of fills: positions, records, the daily-loss guard and the exports read it. */
  readonly fills: FillSource;
  /** The trading account's daily records and CSV exports, from the fill source. */
  readonly records: RecordsService;
  /** Trailing and break-even stops main moves on the trader's behalf (main/services/protect). */
  readonly protective: ProtectiveStops | null;
  /** The guards' state for the header, and the daily loss limit's breach actions (main/services/guards). */
  readonly riskWatch: RiskWatch;
  /** Take-profit / stop-loss pairs main keeps sized to a position (main/services/protect). */
  readonly positionBrackets: PositionBrackets | null;
  /** TWAP, scale, iceberg and chase orders main runs (main/services/algos). */
  readonly algos: AlgoService | null;
  /** Orders the order stream names that the terminal does not hold: confirmed over REST first. */
  private readonly streamOrders: StreamOrderCheck;
  private nonceManager: NonceManager | null = null;
  private marketsIndex: MarketsIndex | null = null;
  /** The chain id this network must answer; null until it is known (learned once, then required). */
  private expectedChain: { readonly name: string; readonly chainId: bigint | null };
  private marketsError: string | null = null;
  private identitySubscriptions: StreamSubscription[] = [];
  private readonly cleanups: (() => void)[] = [];
  private renewTimer: ReturnType<Clock['setTimeout']> | null = null;
  private stopped = false;
  private journalIds = 0;

  constructor(private readonly deps: RuntimeDeps) {
    const { network, clock } = deps;
    this.expectedChain = { name: network.name, chainId: network.chainId ?? null };
    // Room for a burst of intents (100 in a second is a test case) while still bounded.
    this.limiter = new RateLimiter({ clock, maxQueued: 256 });
    const faucet = network.kind === 'sandbox' ? { url: deps.restUrl, network: 'sandbox' } : network.faucetUrl && network.faucetNetwork ? { url: network.faucetUrl, network: network.faucetNetwork } : undefined;
    this.rest = new ExchangeRestClient({
      baseUrl: deps.restUrl,
      limiter: this.limiter,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(faucet ? { faucet } : {}),
      ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
    });
    this.stream = new ExchangeStream({ url: network.wsUrl ?? websocketUrlFor(deps.restUrl), clock, socketFactory: deps.socketFactory ?? wsSocketFactory() });
    this.books = new OrderBookFeed(this.stream);
    this.marketFeed = this.feed();
    const nowSeconds = () => BigInt(Math.floor(clock.now() / 1000));
    // Main's order guards, run by every submitter (the trading account's and each Turbo Account's)
    // before it takes a nonce.
    const dailyLoss = new DailyLoss({
      now: () => clock.now(),
      load: (account) => deps.preferences.preferences.get().riskDay?.[`${network.id} ${account}`] ?? null,
      save: (baseline) => void deps.preferences.preferences.update((current) => ({ ...current, riskDay: { ...current.riskDay, [`${network.id} ${baseline.account}`]: baseline } })),
    });
    const closingReads = {
      openOrders: () => this.trading.snapshot().open,
      pendingLegs: () => ({ account: this.accounts.accountRecord()?.tradeAccountId ?? null, legs: this.triggers.snapshot().pending }),
    };
    const guardFacts = runtimeGuardFacts({
      market: (marketId, turbo) => (this.marketsIndex ? this.marketsIndex.market(marketId, turbo) : fail('NOT_CONNECTED', 'The markets of the network are not loaded yet')),
      bands: () => deps.preferences.preferences.get().settings.priceBandBps,
      maxQuantity: (marketId) => deps.preferences.preferences.get().settings.maxOrderQuantity[marketId],
      maxNotional: (marketId) => deps.preferences.preferences.get().settings.maxOrderNotional[marketId],
      maxPosition: (marketId) => deps.preferences.preferences.get().settings.maxPosition[marketId],
      dailyLossLimit: (quoteAsset) => deps.preferences.preferences.get().settings.dailyLossLimit[quoteAsset],
      // The day's baseline is kept per network and account in the settings file, so a restart keeps the day's loss.
      dailyLoss,
      liveBook: (marketId, turbo) => this.books.handle(marketId, turbo),
      readDepth: (market, turbo) => this.rest.getDepth({ market_id: market.market_id, depth: 1, level: 3, ...(turbo ? { turbo: true } : {}) }),
      positions: () => this.positions.positions(),
      ...closingReads,
    });
    const orderMeter = new OrderRate(() => clock.now());
    const orderRate = { meter: orderMeter, limit: () => deps.preferences.preferences.get().settings.maxOrdersPerMinute };
    const guard = (request: GuardRequest) => guardRequest(request, guardFacts, orderRate);

    this.accounts = new AccountService({
      network,
      preferences: deps.preferences,
      vault: deps.vault,
      keychain: deps.keychain,
      rest: this.rest,
      nonces: () => this.nonceManager,
      chainId: () => this.marketsIndex?.chainId ?? null,
      contractIdsFor: (marketIds) => (this.marketsIndex ? this.marketsIndex.contractIdsFor(marketIds) : fail('NOT_CONNECTED', 'The markets are not loaded yet')),
      sessionScopeText: (contractIds) => sessionScopeText(sessionScope(contractIds, this.marketsIndex?.markets() ?? [], this.marketsIndex?.turboMarkets() ?? [])),
      nowSeconds,
      onChange: (state) => deps.windows.broadcast('account', state),
      onTradeAccount: (tradeAccountId) => this.followAccount(tradeAccountId),
      log: deps.log,
      notice: deps.notice,
      journal: deps.journal,
      newJournalId: () => this.newJournalId(),
    });

    this.submitter = new Submitter({
      port: { post: (body, owner, options) => this.rest.postSessionActions(owner, body, options) },
      nonces: () => this.nonceManager,
      journal: deps.journal,
      sign: (address, digest) => (deps.vault ? deps.vault.signAsLoadedSession(address, digest) : fail('KEYCHAIN_UNAVAILABLE', deps.keychain.reason ?? 'No key store')),
      identity: () => {
        const identity = this.accounts.tradingIdentity();
        return identity.ok ? ok({ ...identity.value, networkId: network.id }) : identity;
      },
      targets: () => (this.marketsIndex ? { accounts_registry_id: this.marketsIndex.response.accounts_registry_id, ...this.margin.callTargets() } : {}),
      reconcile: (journalId) => this.trading.reconcile(journalId),
      ordersOf: (entry) => this.trading.ordersOf(entry),
      newId: () => this.newJournalId(),
      guard,
      log: deps.log,
      wait: (ms) => new Promise((resolve) => clock.setTimeout(() => resolve(), ms)),
      notice: deps.notice,
      ...(deps.orderPathTrace === undefined ? {} : { trace: deps.orderPathTrace }),
    });

    this.fills = new FillSource({ rest: this.rest, log: deps.log });
    this.trading = new TradingService({
      rest: this.rest,
      markets: () => this.marketsIndex,
      accounts: this.accounts,
      submitter: this.submitter,
      nonces: () => this.nonceManager,
      journal: deps.journal,
      loadSessionKey: (address) => (deps.vault ? deps.vault.loadSessionKey(address) : Promise.resolve(fail('KEYCHAIN_UNAVAILABLE', deps.keychain.reason ?? 'No key store'))),
      nowSeconds,
      wait: (ms) => new Promise((resolve) => clock.setTimeout(() => resolve(), ms)),
      publishOrders: (snapshot: OrdersSnapshot) => {
        deps.windows.broadcast('orders', snapshot);
        // A child's fill or end is folded into its algorithm at once, not on the next pass.
        this.algos?.ordersChanged();
      },
      publishBalances: (balances: readonly BalanceView[]) => deps.windows.broadcast('balances', balances),
      // A fill of an order a trigger leg became carries the leg.
      takeFills: (account, order, marketId, turbo) => this.fills.take(account, marketId, turbo, order),
      publishFill: (notice: FillNotice) => {
        deps.windows.broadcast('fill', this.triggers.markFill(notice));
        // A fill moves the day's P&L: the watch reads it now rather than on its next turn.
        void this.riskWatch.check();
      },
      notice: deps.notice,
      log: deps.log,
      refreshTriggers: () => this.triggers.refresh(),
      // The algorithms first: cancelled (nothing signed for them after) before the sweep takes their children.
      stopAutomation: async (marketId) =>
        (await (this.algos?.stopAll(marketId) ?? Promise.resolve(0))) +
        (await (this.protective?.stopAll(marketId) ?? Promise.resolve(0))) +
        (await (this.positionBrackets?.stopAll(marketId) ?? Promise.resolve(0))),
      legsOf: (orderId) => this.triggers.snapshot().pending.filter((leg) => leg.parentOrderId === orderId).map((leg) => leg.triggerId),
    });

    this.margin = new MarginService({
      networkId: network.id,
      clock,
      rest: this.rest,
      reads: new MarginReads({ rest: this.rest, baseUrl: deps.restUrl, fetch: deps.fetch ?? fetchJson }),
      openStream: () => new ExchangeStream({ url: network.wsUrl ?? websocketUrlFor(deps.restUrl), clock, socketFactory: deps.socketFactory ?? wsSocketFactory() }),
      markets: () => this.marketsIndex,
      accounts: this.accounts,
      submitter: this.submitter,
      reconcileParent: (journalId) => this.trading.reconcile(journalId),
      parentOrdersOf: (entry) => this.trading.ordersOf(entry),
      nonces: () => this.nonceManager,
      journal: deps.journal,
      preferences: deps.preferences,
      sign: (address, digest) => (deps.vault ? deps.vault.signAsLoadedSession(address, digest) : fail('KEYCHAIN_UNAVAILABLE', deps.keychain.reason ?? 'No key store')),
      loadSessionKey: (address) => (deps.vault ? deps.vault.loadSessionKey(address) : Promise.resolve(fail('KEYCHAIN_UNAVAILABLE', deps.keychain.reason ?? 'No key store'))),
      windows: deps.windows,
      publishOrders: () => deps.windows.broadcast('orders', this.trading.snapshot()),
      publishFill: (notice: FillNotice) => deps.windows.broadcast('fill', notice),
      takeFills: (account, order, marketId, turbo) => this.fills.take(account, marketId, turbo, order),
      resyncFills: (account) => this.fills.resync(account),
      newId: () => this.newJournalId(),
      guard,
      previewGuard: (request) => previewRequest(request, guardFacts, orderRate),
      wait: (ms) => new Promise((resolve) => clock.setTimeout(() => resolve(), ms)),
      notice: deps.notice,
      log: deps.log,
    });
    this.trading.setTurboDesk(this.margin);

    this.triggers = new TriggerService({
      rest: this.rest,
      markets: () => this.marketsIndex,
      accounts: this.accounts,
      submitter: this.submitter,
      trading: this.trading,
      loadSessionKey: (address) => (deps.vault ? deps.vault.loadSessionKey(address) : Promise.resolve(fail('KEYCHAIN_UNAVAILABLE', deps.keychain.reason ?? 'No key store'))),
      nowSeconds,
      turboAccountActive: () => this.margin.active(),
      publish: (snapshot) => deps.windows.broadcast('triggers', snapshot),
      notice: deps.notice,
      log: deps.log,
    });

    this.positions = new PositionsService({
      rest: this.rest,
      liveBook: (marketId, turbo) => this.books.handle(marketId, turbo),
      fills: this.fills,
      markets: () => this.marketsIndex,
      tradeAccount: () => (this.accounts.accountRecord()?.tradeAccountId ?? null) as B256 | null,
      turboAccount: () => this.margin.selectedRisk(1_500),
      balances: () => this.trading.balancesView(),
      submitter: this.submitter,
      ready: async () => {
        const identity = this.accounts.tradingIdentity();
        if (!identity.ok) return identity;
        return deps.vault ? deps.vault.loadSessionKey(identity.value.sessionAddress) : fail('KEYCHAIN_UNAVAILABLE', deps.keychain.reason ?? 'No key store');
      },
      placeTurboOrder: (input) => this.margin.placeOrder(input),
      afterTrades: () => void this.trading.refresh(),
      holdProtection: (marketId, turbo) => this.positionBrackets?.hold(marketId, turbo) ?? Promise.resolve(() => undefined),
      maxQuantity: (marketId) => deps.preferences.preferences.get().settings.maxOrderQuantity[marketId],
      closingCommitted: async (account, market, turbo) => {
        const position = await guardFacts.position(account, market, turbo);
        if (!position.ok) return position;
        if (position.value.legsUnknown !== null) return fail('POSITION_UNKNOWN', position.value.legsUnknown);
        return ok({ restingClosing: position.value.restingClosing, legsClosing: position.value.legsClosing });
      },
      closingNow: (account, market, turbo, size) => closingOnBook(closingReads, account, market, turbo, size),
      nowSeconds,
      nowMs: () => clock.now(),
      log: deps.log,
    });

    this.records = new RecordsService({
      fills: this.fills,
      rest: this.rest,
      markets: () => this.marketsIndex,
      tradeAccount: () => (this.accounts.accountRecord()?.tradeAccountId ?? null) as B256 | null,
      turboAccount: () => this.margin.selectedAccount(),
      nowMs: () => clock.now(),
    });

    this.protective =
      deps.protectiveStore === undefined
        ? null
        : new ProtectiveStops({
            networkId: network.id,
            store: deps.protectiveStore,
            clock,
            market: (marketId, turbo) => (this.marketsIndex ? this.marketsIndex.market(marketId, turbo) : fail('NOT_CONNECTED', 'The markets of the network are not loaded yet')),
            leg: (triggerId) => this.triggers.snapshot().pending.find((leg) => leg.triggerId === triggerId),
            refreshLegs: () => this.triggers.refreshComplete(),
            move: (input) => this.triggers.move(input),
            reference: (market, turbo, kind) => this.referencePrice(guardFacts.bookPrices, market, turbo, kind),
            entry: async (marketId, turbo) => {
              const view = await this.positions.positions();
              const account = this.accounts.accountRecord()?.tradeAccountId ?? null;
              const row = view.positions.find((candidate) => candidate.account === account && candidate.marketId === marketId && candidate.turbo === turbo);
              if (row?.averageEntry == null) return fail('POSITION_UNKNOWN', view.problems.length > 0 ? view.problems.join('; ') : 'there is no position with an entry price on that book');
              return ok(row.averageEntry);
            },
            notice: deps.notice,
            log: deps.log,
            publish: (stops) => deps.windows.broadcast('protectiveStops', stops),
          });

    this.riskWatch = new RiskWatch({
      clock,
      settings: () => deps.preferences.preferences.get().settings,
      account: () => this.accounts.accountRecord()?.tradeAccountId ?? null,
      dayPnl: (account, quoteAsset) => guardFacts.dayPnl(account, quoteAsset),
      ordersLastMinute: () => orderMeter.count(),
      dailyLoss,
      amount: (quoteAsset, raw) => assetAmountWords([...(this.marketsIndex?.markets() ?? []), ...(this.marketsIndex?.turboMarkets() ?? [])], quoteAsset, raw),
      publish: (view) => deps.windows.broadcast('guardState', view),
      disarm: (reason) => deps.windows.broadcast('guardDisarm', { reason }),
      notice: deps.notice,
      // The kill switch's sweep and the Flatten button's closes: journaled, nonced and guarded as a click.
      cancelAll: () => this.trading.cancelAll(undefined),
      flatten: async (accounts) => {
        const view = await this.positions.positions();
        return this.positions.flatten(view.positions.filter((row) => row.size !== 0n && accounts.includes(row.account)).map((row) => ({ marketId: row.marketId, turbo: row.turbo, account: row.account })));
      },
      turboAccounts: async () => {
        const view = await this.positions.positions();
        return [...new Set(view.positions.filter((row) => row.accountKind === 'turbo-account').map((row) => row.account))];
      },
      log: deps.log,
    });
    this.positionBrackets =
      deps.protectiveStore === undefined
        ? null
        : new PositionBrackets({
            networkId: network.id,
            store: deps.protectiveStore,
            clock,
            market: (marketId, turbo) => (this.marketsIndex ? this.marketsIndex.market(marketId, turbo) : fail('NOT_CONNECTED', 'The markets of the network are not loaded yet')),
            position: async (marketId, turbo, options) => {
              const account = this.accounts.accountRecord()?.tradeAccountId ?? null;
              if (account === null) return fail('NO_ACCOUNT', 'no trading account is followed yet');
              if (options?.afterTrade === true) this.fills.expectTrade(account, marketId, turbo);
              const view = await this.positions.positions();
              const row = view.positions.find((candidate) => candidate.account === account && candidate.marketId === marketId && candidate.turbo === turbo);
              if (row === undefined && view.problems.length > 0) return fail('POSITION_UNKNOWN', view.problems.join('; '));
              return ok({ size: row?.size ?? 0n, entry: row?.averageEntry ?? null });
            },
            pending: (triggerId) => this.triggers.snapshot().pending.some((leg) => leg.triggerId === triggerId),
            pendingLegs: (marketId, turbo) => this.triggers.snapshot().pending.filter((leg) => leg.marketId.toLowerCase() === marketId.toLowerCase() && leg.turbo === turbo),
            refreshLegs: () => this.triggers.refreshComplete(),
            mark: (market, turbo) => this.referencePrice(guardFacts.bookPrices, market, turbo, 'mark'),
            replace: (input) => this.triggers.replacePositionLegs(input),
            notice: deps.notice,
            log: deps.log,
            publish: (brackets) => deps.windows.broadcast('positionBrackets', brackets),
          });

    this.algos =
      deps.algoStore === undefined
        ? null
        : new AlgoService({
            networkId: network.id,
            store: deps.algoStore,
            clock: deps.algoClock ?? clock,
            seed: () => randomBytes(4).readUInt32BE(0) / 0x1_0000_0000,
            account: () => this.accounts.accountRecord()?.tradeAccountId ?? null,
            market: (marketId, turbo) => (this.marketsIndex ? this.marketsIndex.market(marketId, turbo) : fail('NOT_CONNECTED', 'The markets of the network are not loaded yet')),
            touch: (market, turbo) => guardFacts.bookPrices(market, turbo),
            place: (input) => this.trading.placeOrder(input),
            placeBatch: (marketId, turbo, intents, parent) => this.trading.placeOrders(marketId, turbo, intents, parent),
            amend: (marketId, turbo, orderId, price, parent) => this.trading.amendOrder(marketId, turbo, orderId, { price }, parent),
            cancel: (marketId, turbo, orderIds) => this.trading.cancelOrders(marketId, turbo, orderIds),
            readOrder: async (marketId, turbo, orderId, fresh) => {
              // The order as the stream and the reads after each request keep it; the exchange is
              // asked for one main does not hold (after a restart), or when only its word is final.
              const held = this.trading.order(orderId);
              if (held !== undefined && !fresh) return ok(held);
              const read = await this.rest.getOrder({ market_id: marketId as B256, order_id: orderId, ...(turbo ? { turbo: true } : {}) });
              if (!read.ok) return read;
              this.trading.applyOrder(read.value.order, marketId, turbo);
              return ok(this.trading.order(orderId) ?? orderView(read.value.order, marketId, turbo));
            },
            journalRecords: (parent) => deps.journal.recordsOfParent(parent),
            ordersOf: async (entry) => {
              const found = await this.trading.ordersOf(entry);
              if (!found.ok) return found;
              const groups = entry.actions as { market_id?: string; turbo?: boolean }[];
              return ok(found.value.map((order) => orderView(order, order.market_id ?? groups[0]?.market_id ?? '', order.turbo === true || groups[0]?.turbo === true)));
            },
            rateHeadroom: () => {
              const owner = this.accounts.activeOwner()?.address;
              const lane = this.limiter.snapshot().find((snapshot) => snapshot.rule === RATE_RULES.sessionActions.id && (owner === undefined || snapshot.key.toLowerCase() === owner.toLowerCase()));
              return lane === undefined || lane.remaining >= RATE_HEADROOM;
            },
            notice: deps.notice,
            log: deps.log,
            publish: (algos) => deps.windows.broadcast('algos', algos),
          });

    this.streamOrders = new StreamOrderCheck({
      knows: (orderId) => this.trading.knowsOrder(orderId),
      read: async (order, marketId, turbo) => {
        const read = await this.rest.getOrder({ market_id: marketId as B256, order_id: order.order_id, ...(turbo ? { turbo: true } : {}) });
        return read.ok ? ok(read.value.order) : read;
      },
      apply: (order, marketId, turbo) => this.trading.applyOrder(order, marketId, turbo),
      publish: () => deps.windows.broadcast('orders', this.trading.snapshot()),
      log: deps.log,
      lost: () => this.ordersLost(),
      wait: (ms) => new Promise((resolve) => clock.setTimeout(() => resolve(), ms)),
    });

    // A permit is granted on the order path, just before the request is written: the budget is
    // pushed to the windows after that, once per turn of the event loop however many changed.
    let rateLimitsDue: NodeJS.Immediate | null = null;
    this.cleanups.push(
      this.stream.onStatus(() => deps.onConnection()),
      this.stream.consume({
        messages: {
          subscribe_orders: (message) => this.ordersArrived(message),
          subscribe_balances: (message) => this.balancesArrived(message),
          subscribe_nonce_v2: (message) => this.nonceArrived(message),
        },
        // A frame of these topics that could not be read (an absurd amount, a broken member) may
        // have changed the orders, balances or nonce shown: they wait for a fresh first message
        // (the freshness view says resyncing), never going on as if nothing was lost.
        lost: (frame) => {
          const action = frame.action;
          if (action === undefined || action === 'subscribe_orders') this.ordersLost();
          if (action === undefined || action === 'subscribe_balances') this.stream.resubscribeIdentities('balances');
          if (action === undefined || action === 'subscribe_nonce_v2') this.stream.resubscribeIdentities('nonce_v2');
        },
        connection: (event) => {
          // Anything may have happened while disconnected: rebuild from REST.
          if (event.type !== 'connected' || !event.reconnect) return;
          const account = this.accounts.accountRecord()?.tradeAccountId;
          if (account) this.fills.resync(account);
          void this.trading.refresh();
          void this.triggers.refresh();
          void this.accounts.refresh();
        },
      }),
      this.limiter.onChange(() => {
        rateLimitsDue ??= setImmediate(() => {
          rateLimitsDue = null;
          deps.windows.broadcast('rateLimits', this.rateLimits());
        });
      }),
      () => {
        if (rateLimitsDue !== null) clearImmediate(rateLimitsDue);
      },
    );
  }

  /**
   * What the orders stream said may be lost (a frame that could not be read, an order it named that
   * could not be read back): it is subscribed again (the windows see resyncing until its first
   * message) and the trading account's trades are read again, fills included.
   */
  private ordersLost(): void {
    this.stream.resubscribeIdentities('orders');
    this.stream.resubscribeIdentities('orders_turbo');
    const account = this.accounts.accountRecord()?.tradeAccountId;
    if (account) this.fills.resync(account);
  }

  /** A unique, sortable journal id for a request signed on this network. */
  newJournalId(): string {
    return `${this.deps.network.id}-${this.deps.clock.now().toString(36)}-${(++this.journalIds).toString(36)}-${randomBytes(3).toString('hex')}`;
  }

  get markets(): MarketsIndex | null {
    return this.marketsIndex;
  }

  get marketsProblem(): string | null {
    return this.marketsError;
  }

  nonces(): NonceManager | null {
    return this.nonceManager;
  }

  // ---- market data feed for the hub ---------------------------------------------------------

  private feed(): MarketFeed {
    return {
      openDepth: (marketId, turbo, onChange): DepthHandle => {
        // Every message is checked for what it can break (shared/book); a snapshot in full.
        const opened = this.books.open(marketId as B256, 10n, { turbo, onChange: () => onChange() });
        if (!opened.ok) {
          this.deps.log(`depth ${marketId}: ${opened.message}`);
          return { state: () => 'resyncing', book: () => null, close: () => undefined };
        }
        return { state: () => opened.value.state(), book: () => opened.value.book(), close: () => opened.value.close() };
      },
      openTrades: (marketId, turbo, onTrades: (event: TradesEvent) => void) => {
        const subscription = this.stream.subscribeTrades(marketId as B256, { turbo });
        const stop = this.stream.consume({
          messages: {
            subscribe_trades: (message) => {
              if (message.market_id !== marketId || (message.turbo === true) !== turbo) return;
              onTrades({ trades: message.trades.map((trade) => tradeView(trade, marketId)), reset: false });
            },
          },
          // A trades frame that could not be read left a gap on the tape: start it again from a
          // fresh first message (recent history), resyncing until then.
          lost: (frame) => {
            if (!subscription.ok || (frame.marketId !== undefined && frame.marketId.toLowerCase() !== marketId.toLowerCase())) return;
            this.stream.resubscribe(subscription.value.key);
            onTrades({ trades: [], reset: true });
          },
          connection: (event) => {
            if (event.type === 'connected' && event.reconnect) onTrades({ trades: [], reset: true });
            if (event.type === 'resync_required' && event.turbo === turbo) onTrades({ trades: [], reset: true });
          },
        });
        return {
          close: () => {
            stop();
            if (subscription.ok) subscription.value.close();
          },
        };
      },
      recentTrades: async (marketId, turbo) => {
        const trades = await this.rest.getTrades({ market_id: marketId as B256, direction: 'desc', count: 50, ...(turbo ? { turbo: true } : {}) });
        return trades.ok ? ok(trades.value.trades.map((trade) => tradeView(trade, marketId))) : trades;
      },
      bars: async (marketId, turbo, resolution, countBack) => {
        const bars = await this.rest.getBars({ market_id: marketId as B256, resolution, count_back: countBack, to: this.deps.clock.now(), ...(turbo ? { turbo: true } : {}) });
        if (!bars.ok) return bars;
        const views: BarView[] = bars.value.bars.map((bar) => ({ time: toMillis(bar.timestamp), open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume }));
        views.sort((left, right) => left.time - right.time);
        return ok(views);
      },
    };
  }

  // ---- account streams ----------------------------------------------------------------------

  private followAccount(tradeAccountId: B256 | null): void {
    for (const subscription of this.identitySubscriptions) subscription.close();
    this.identitySubscriptions = [];
    // The margin service first: its Turbo Accounts' open orders are part of the orders snapshot the
    // trading service publishes on reset (published the other way round, an exchange restart would
    // leave a forgotten Turbo Account's orders counted in Open orders).
    this.margin.accountChanged(tradeAccountId);
    this.trading.reset();
    this.triggers.reset();
    this.fills.reset();
    if (tradeAccountId === null) {
      this.nonceManager = null;
      return;
    }
    const lanes = this.deps.preferences.preferences.get().settings.parallelLanes;
    this.nonceManager = new NonceManager(
      {
        accountNonce: async () => {
          const found = await this.rest.getAccount({ trade_account_id: tradeAccountId });
          if (!found.ok) return found;
          if (found.value.kind === 'none') return fail('NO_TRADE_ACCOUNT', `trading account ${tradeAccountId} is not known to the exchange`);
          this.accounts.observeNonce(found.value.trade_account.nonce);
          return ok(found.value.trade_account.nonce);
        },
        window: (lane) => this.rest.getAccountWindow({ trade_account_id: tradeAccountId, nonce_session_id: lane }),
      },
      {
        load: (lane) => this.accounts.accountRecord()?.laneCursors[String(lane)] ?? null,
        save: (lane, next) => {
          const owner = this.accounts.activeOwner();
          if (!owner) return fail('NO_OWNER', 'no owner');
          const saved = this.deps.preferences.accounts.update((file) => {
            const network = file.networks[this.deps.network.id];
            const record = network?.accounts[owner.address];
            if (!network || !record) return file;
            return {
              ...file,
              networks: { ...file.networks, [this.deps.network.id]: { ...network, accounts: { ...network.accounts, [owner.address]: { ...record, laneCursors: { ...record.laneCursors, [String(lane)]: next } } } } },
            };
          });
          return saved.ok ? ok(undefined) : saved;
        },
      },
      lanes,
      () => BigInt(Math.floor(this.deps.clock.now() / 1000)),
    );
    const identity = [contractIdentity(tradeAccountId)];
    for (const subscribe of [
      () => this.stream.subscribeOrders(identity),
      () => this.stream.subscribeOrders(identity, { turbo: true }),
      () => this.stream.subscribeBalances(identity),
      () => this.stream.subscribeNonceV2(identity),
    ]) {
      const subscribed = subscribe();
      if (subscribed.ok) this.identitySubscriptions.push(subscribed.value);
      else this.deps.log(`account stream: ${subscribed.message}`);
    }
    void this.trading.refresh();
    void this.triggers.refresh();
  }

  setParallelLanes(lanes: number): void {
    this.nonceManager?.setLanes(lanes);
    this.margin.setParallelLanes(lanes);
  }

  private ordersArrived(message: MessageOf<'subscribe_orders'>): void {
    // Legs first: a fired leg names the order it became, whose fills follow.
    this.triggers.applyStream(message.triggers, message.turbo === true);
    for (const order of message.orders) {
      if (order.market_id === undefined || !this.trading.ownsOrder(order)) continue;
      // An order the terminal does not hold is shown once the exchange confirms it over REST.
      this.streamOrders.take(order, order.market_id, message.turbo === true || order.turbo === true);
    }
    this.deps.windows.broadcast('orders', this.trading.snapshot());
    this.algos?.ordersChanged();
  }

  private balancesArrived(message: MessageOf<'subscribe_balances'>): void {
    const markets = this.marketsIndex;
    if (!markets) return;
    const tradeAccount = this.accounts.accountRecord()?.tradeAccountId;
    const views: BalanceView[] = [];
    for (const balance of message.balance) {
      // The trading account's own balances only: a Turbo Account's (a child owned by this
      // account) would replace them, and the ticket would show its few USDC as Available.
      if ('ContractId' in balance.identity && balance.identity.ContractId.toLowerCase() !== tradeAccount?.toLowerCase()) continue;
      const asset = markets.asset(balance.asset_id);
      if (!asset) continue;
      views.push({
        assetId: balance.asset_id,
        symbol: asset.symbol,
        decimals: asset.decimals,
        onAccount: balance.trading_account_balance,
        locked: balance.total_locked,
        unlocked: balance.total_unlocked,
        books: bookBalances(balance.order_books, markets.turboMarkets()),
      });
    }
    if (views.length > 0) this.trading.applyBalances(views);
  }

  private nonceArrived(message: MessageOf<'subscribe_nonce_v2'>): void {
    const tradeAccount = this.accounts.accountRecord()?.tradeAccountId;
    if ('sequential' in message.update) {
      if (message.update.sequential.contract_id === tradeAccount) {
        this.nonceManager?.observeSequential(message.update.sequential.nonce);
        this.accounts.observeNonce(message.update.sequential.nonce);
      }
    } else if (message.update.parallel.contract_id === tradeAccount) {
      const update = message.update.parallel;
      this.nonceManager?.observeWindow({ lane: update.nonce_session_id, base: update.base, slots: update.slots });
    }
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  async loadMarkets(): Promise<Result<MarketsIndex>> {
    const canonical = await this.rest.getMarkets();
    if (!canonical.ok) {
      this.marketsError = canonical.message;
      return canonical;
    }
    // The chain id signed into sessions and withdrawals is the one main expects, never merely the
    // one the exchange says: a mismatch refuses the markets, so nothing is signed (networks.ts).
    const chain = checkChainId(this.expectedChain, canonical.value.chain_id);
    if (!chain.ok) {
      this.marketsError = chain.message;
      this.marketsIndex = null;
      this.deps.log(chain.message);
      return chain;
    }
    if (this.expectedChain.chainId === null) {
      this.expectedChain = { name: this.deps.network.name, chainId: canonical.value.chain_id };
      this.deps.onChainIdLearned?.(canonical.value.chain_id);
    }
    const turbo = await this.rest.getMarkets({ turbo: true });
    this.marketsIndex = new MarketsIndex(canonical.value, turbo.ok ? turbo.value.markets : []);
    this.marketsError = null;
    return ok(this.marketsIndex);
  }

  async start(): Promise<void> {
    this.stream.connect();
    const loaded = await this.loadMarkets();
    if (!loaded.ok) this.deps.log(`markets of ${this.deps.network.name} could not be loaded: ${loaded.message}`);
    const refreshed = await this.accounts.refresh();
    if (!refreshed.ok) this.deps.log(`account lookup failed: ${refreshed.message}`);
    this.followAccount((this.accounts.accountRecord()?.tradeAccountId ?? null) as B256 | null);
    // Requests left without an answer by a crash or a lost response are settled before any new one;
    // the algorithms' children are reconciled once they are.
    const reconciled = this.submitter.reconcileOpen();
    void this.algos?.start(reconciled);
    void this.accounts.reconcileOpenSessions();
    this.scheduleRenewal();
    this.protective?.start();
    this.riskWatch.start();
    this.positionBrackets?.start();
  }

  /** A reference price of a protective stop: the best bid or ask, their midpoint (mark) or the last trade. */
  private async referencePrice(bookPrices: GuardFacts['bookPrices'], market: Market, turbo: boolean, kind: ReferenceKind): Promise<Result<bigint>> {
    if (kind === 'last') {
      const trades = await this.rest.getTrades({ market_id: market.market_id, direction: 'desc', count: 1, ...(turbo ? { turbo: true } : {}) });
      if (!trades.ok) return trades;
      const last = trades.value.trades[0];
      return last === undefined ? fail('NO_REFERENCE', `no trade on ${market.market_id} yet`) : ok(last.price);
    }
    const prices = await bookPrices(market, turbo);
    if (!prices.ok) return prices;
    const { bestBid, bestAsk } = prices.value;
    if (kind === 'bid') return bestBid === null ? fail('NO_REFERENCE', 'the book has no bid') : ok(bestBid);
    if (kind === 'ask') return bestAsk === null ? fail('NO_REFERENCE', 'the book has no ask') : ok(bestAsk);
    const mark = referenceMark(bestBid, bestAsk);
    return mark === null ? fail('NO_REFERENCE', 'the mark (the midpoint) needs a bid and an ask') : ok(mark);
  }

  private scheduleRenewal(): void {
    if (this.stopped) return;
    this.renewTimer = this.deps.clock.setTimeout(() => {
      void this.accounts.renewIfDue().finally(() => this.scheduleRenewal());
    }, RENEW_CHECK_MS);
  }

  stop(): void {
    this.stopped = true;
    this.protective?.dispose();
    this.riskWatch.stop();
    this.positionBrackets?.dispose();
    this.algos?.dispose();
    if (this.renewTimer !== null) this.deps.clock.clearTimeout(this.renewTimer);
    for (const cleanup of this.cleanups) cleanup();
    for (const subscription of this.identitySubscriptions) subscription.close();
    this.margin.stop();
    this.trading.stop();
    this.books.dispose();
    this.stream.close();
    this.limiter.close();
  }

  rateLimits(): RateLimitView[] {
    const seen = new Map(this.limiter.snapshot().map((snapshot) => [snapshot.rule, snapshot]));
    return allRateRules()
      .filter((rule) => !rule.id.includes('aggregated'))
      .map((rule) => {
        const snapshot = seen.get(rule.id);
        return { limiter: rule.id, capacity: rule.limit, remaining: snapshot?.remaining ?? rule.limit, windowMs: rule.windowMs, queued: snapshot?.queued ?? 0 };
      });
  }

  streamLink(): { state: LinkState; latencyMs: number | null; detail: string | null } {
    const status = this.stream.status();
    const state: LinkState = status.state === 'up' ? 'up' : status.state === 'resyncing' ? 'resyncing' : status.state === 'connecting' || status.state === 'idle' ? 'connecting' : 'down';
    return { state, latencyMs: status.pingRoundTripMs, detail: status.gaveUp ? 'The market-data stream gave up reconnecting; reconnect from the status bar' : status.lastError };
  }

  accountState(): AccountState {
    return this.accounts.state();
  }
}
