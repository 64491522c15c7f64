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
    listMarkets: (input) => call(transport, 'listMarkets', input),
    onConnection: (listener) => on(transport, 'connection', listener),
  } satisfies TerminalApi);
}
