// The bridge object the renderer calls. It is built from a transport (Electron's ipcRenderer in
// the preload, a token WebSocket in the browser host, an in-memory pair in tests) and has one
// named method per operation: no generic invoke, so a script in the page can reach only what the
// contract lists.
import type { Result } from '../result';
import type { RequestInput, RequestName, RequestResult, StreamName, StreamPayload, TerminalApi, Unsubscribe } from './contract';

export interface BridgeTransport {
  invoke(name: RequestName, input: unknown): Promise<Result<unknown>>;
  listen(name: StreamName, listener: (payload: unknown) => void): Unsubscribe;
}

function call<K extends RequestName>(transport: BridgeTransport, name: K, input: RequestInput<K>): Promise<Result<RequestResult<K>>> {
  // Main parsed the input and declared the result type in the contract.
  return transport.invoke(name, input) as Promise<Result<RequestResult<K>>>;
}

function on<K extends StreamName>(transport: BridgeTransport, name: K, listener: (payload: StreamPayload<K>) => void): Unsubscribe {
  return transport.listen(name, listener as (payload: unknown) => void);
}

export function createBridge(transport: BridgeTransport) {
  return Object.freeze({
    getAppInfo: (input) => call(transport, 'getAppInfo', input),
    getConnection: (input) => call(transport, 'getConnection', input),
    listNetworks: (input) => call(transport, 'listNetworks', input),
    selectNetwork: (input) => call(transport, 'selectNetwork', input),
    configureNetwork: (input) => call(transport, 'configureNetwork', input),
    listMarkets: (input) => call(transport, 'listMarkets', input),
    getAccountState: (input) => call(transport, 'getAccountState', input),
    createOwnerKey: (input) => call(transport, 'createOwnerKey', input),
    beginKeyImport: (input) => call(transport, 'beginKeyImport', input),
    importOwnerKey: (input) => call(transport, 'importOwnerKey', input),
    registerWatchOnlyOwner: (input) => call(transport, 'registerWatchOnlyOwner', input),
    selectOwner: (input) => call(transport, 'selectOwner', input),
    forgetOwner: (input) => call(transport, 'forgetOwner', input),
    createTradeAccount: (input) => call(transport, 'createTradeAccount', input),
    mintFromFaucet: (input) => call(transport, 'mintFromFaucet', input),
    whitelistAccount: (input) => call(transport, 'whitelistAccount', input),
    createSession: (input) => call(transport, 'createSession', input),
    subscribeBook: (input) => call(transport, 'subscribeBook', input),
    updateBookView: (input) => call(transport, 'updateBookView', input),
    subscribeTrades: (input) => call(transport, 'subscribeTrades', input),
    subscribeBars: (input) => call(transport, 'subscribeBars', input),
    unsubscribe: (input) => call(transport, 'unsubscribe', input),
    setWindowVisible: (input) => call(transport, 'setWindowVisible', input),
    placeOrder: (input) => call(transport, 'placeOrder', input),
    cancelOrder: (input) => call(transport, 'cancelOrder', input),
    cancelAllOrders: (input) => call(transport, 'cancelAllOrders', input),
    moveOrder: (input) => call(transport, 'moveOrder', input),
    settleBalance: (input) => call(transport, 'settleBalance', input),
    getOrders: (input) => call(transport, 'getOrders', input),
    getBalances: (input) => call(transport, 'getBalances', input),
    getOrderHistory: (input) => call(transport, 'getOrderHistory', input),
    getFills: (input) => call(transport, 'getFills', input),
    getSettings: (input) => call(transport, 'getSettings', input),
    updateSettings: (input) => call(transport, 'updateSettings', input),
    getRateLimits: (input) => call(transport, 'getRateLimits', input),
    getJournal: (input) => call(transport, 'getJournal', input),
    onConnection: (listener) => on(transport, 'connection', listener),
    onAccount: (listener) => on(transport, 'account', listener),
    onBook: (listener) => on(transport, 'book', listener),
    onTrades: (listener) => on(transport, 'trades', listener),
    onBars: (listener) => on(transport, 'bars', listener),
    onOrders: (listener) => on(transport, 'orders', listener),
    onBalances: (listener) => on(transport, 'balances', listener),
    onFill: (listener) => on(transport, 'fill', listener),
    onRateLimits: (listener) => on(transport, 'rateLimits', listener),
    onJournal: (listener) => on(transport, 'journal', listener),
    onNotice: (listener) => on(transport, 'notice', listener),
    onSettings: (listener) => on(transport, 'settings', listener),
  } satisfies TerminalApi);
}
