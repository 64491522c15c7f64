// The core area of the contract: app, networks, onboarding, market data, trading, settings, journal.
import { inputs, noInput } from '../inputs';
import { request, stream } from '../spec';
import type {
  AccountState,
  AppInfo,
  BalanceView,
  BarsFrame,
  BookFrame,
  CancelReport,
  ConnectionStatus,
  FillNotice,
  FillView,
  FreshnessView,
  KeyImportChallenge,
  MarketsView,
  NetworkView,
  Notice,
  OrdersSnapshot,
  OrderView,
  Page,
  PlacedOrder,
  RateLimitView,
  SessionView,
  Settings,
  TradesFrame,
} from '../views';
import type { JournalDamageView, JournalEntryView } from '../views/journal';

export const coreRequests = {
  // App and networks
  getAppInfo: request<AppInfo>()(noInput),
  getConnection: request<ConnectionStatus>()(noInput),
  getFreshness: request<FreshnessView>()(noInput),
  listNetworks: request<readonly NetworkView[]>()(noInput),
  selectNetwork: request<NetworkView>()(inputs.selectNetwork),
  configureNetwork: request<NetworkView>()(inputs.configureNetwork),
  listMarkets: request<MarketsView>()(noInput),

  // Owner keys, trade account and session (onboarding)
  getAccountState: request<AccountState>()(noInput),
  createOwnerKey: request<{ readonly address: string }>()(inputs.createOwnerKey),
  beginKeyImport: request<KeyImportChallenge>()(noInput),
  importOwnerKey: request<{ readonly address: string }>()(inputs.importOwnerKey),
  registerWatchOnlyOwner: request<{ readonly address: string }>()(inputs.registerWatchOnlyOwner),
  selectOwner: request<AccountState>()(inputs.selectOwner),
  forgetOwner: request<AccountState>()(inputs.forgetOwner),
  createTradeAccount: request<{ readonly tradeAccountId: string }>()(noInput),
  mintFromFaucet: request<{ readonly message: string }>()(noInput),
  whitelistAccount: request<{ readonly alreadyWhitelisted: boolean }>()(noInput),
  createSession: request<SessionView>()(inputs.createSession),

  // Market data (per window)
  subscribeBook: request<{ readonly subscriptionId: string }>()(inputs.subscribeBook),
  updateBookView: request<null>()(inputs.updateBookView),
  subscribeTrades: request<{ readonly subscriptionId: string }>()(inputs.subscribeTrades),
  subscribeBars: request<{ readonly subscriptionId: string }>()(inputs.subscribeBars),
  unsubscribe: request<null>()(inputs.unsubscribe),
  setWindowVisible: request<null>()(inputs.setWindowVisible),

  // Trading
  placeOrder: request<PlacedOrder>()(inputs.placeOrder),
  cancelOrder: request<CancelReport>()(inputs.cancelOrder),
  cancelAllOrders: request<CancelReport>()(inputs.cancelAllOrders),
  moveOrder: request<PlacedOrder>()(inputs.moveOrder),
  amendOrder: request<PlacedOrder>()(inputs.amendOrder),
  settleBalance: request<null>()(inputs.settleBalance),
  getOrders: request<OrdersSnapshot>()(noInput),
  getBalances: request<readonly BalanceView[]>()(noInput),
  getOrderHistory: request<Page<OrderView>>()(inputs.getOrderHistory),
  getFills: request<Page<FillView>>()(inputs.getFills),

  // Terminal
  getSettings: request<Settings>()(noInput),
  updateSettings: request<Settings>()(inputs.updateSettings),
  getRateLimits: request<readonly RateLimitView[]>()(noInput),
  getJournal: request<readonly JournalEntryView[]>()(inputs.getJournal),
  getJournalDamage: request<JournalDamageView>()(noInput),
  acknowledgeJournalDamage: request<JournalDamageView>()(inputs.acknowledgeJournalDamage),
} as const;

export const coreStreams = {
  connection: stream<ConnectionStatus>(),
  freshness: stream<FreshnessView>(),
  account: stream<AccountState>(),
  book: stream<BookFrame>(),
  trades: stream<TradesFrame>(),
  bars: stream<BarsFrame>(),
  orders: stream<OrdersSnapshot>(),
  balances: stream<readonly BalanceView[]>(),
  fill: stream<FillNotice>(),
  rateLimits: stream<readonly RateLimitView[]>(),
  journal: stream<JournalEntryView>(),
  journalDamage: stream<JournalDamageView>(),
  notice: stream<Notice>(),
  settings: stream<Settings>(),
} as const;
