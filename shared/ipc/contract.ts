// The contract between the renderer and main: every request (input schema + result type) and
// every push stream. The preload's bridge and the browser host's bridge are both checked
// against `TerminalApi`, and main's handlers against `Handlers` (main/ipc).
import type { Result } from '../result';
import { inputs, noInput } from './inputs';
import { request, stream, type InputOf, type PayloadOf, type ResultOf } from './spec';
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
} from './views';
import type { JournalEntryView } from './views/journal';

export const requests = {
  // App and networks
  getAppInfo: request<AppInfo>()(noInput),
  getConnection: request<ConnectionStatus>()(noInput),
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
} as const;

export const streams = {
  connection: stream<ConnectionStatus>(),
  account: stream<AccountState>(),
  book: stream<BookFrame>(),
  trades: stream<TradesFrame>(),
  bars: stream<BarsFrame>(),
  orders: stream<OrdersSnapshot>(),
  balances: stream<readonly BalanceView[]>(),
  fill: stream<FillNotice>(),
  rateLimits: stream<readonly RateLimitView[]>(),
  journal: stream<JournalEntryView>(),
  notice: stream<Notice>(),
  settings: stream<Settings>(),
} as const;

export type Requests = typeof requests;
export type Streams = typeof streams;
export type RequestName = keyof Requests;
export type StreamName = keyof Streams;
export type RequestInput<K extends RequestName> = InputOf<Requests[K]>;
export type RequestResult<K extends RequestName> = ResultOf<Requests[K]>;
export type StreamPayload<K extends StreamName> = PayloadOf<Streams[K]>;

export type Unsubscribe = () => void;

/** `onConnection`, `onBook`, ...: the listener method name of a push stream. */
export type ListenerName<K extends StreamName> = `on${Capitalize<K>}`;

/** What the renderer sees: one named method per operation and one listener per push stream. */
export type TerminalApi = {
  readonly [K in RequestName]: (input: RequestInput<K>) => Promise<Result<RequestResult<K>>>;
} & {
  readonly [K in StreamName as ListenerName<K>]: (listener: (payload: StreamPayload<K>) => void) => Unsubscribe;
};

export const requestNames = Object.keys(requests) as RequestName[];
export const streamNames = Object.keys(streams) as StreamName[];

export function isRequestName(value: unknown): value is RequestName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(requests, value);
}

export function isStreamName(value: unknown): value is StreamName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(streams, value);
}
