// The transport a bridge is built on, and the two typed helpers every area's bridge uses.
import type { Result } from '../../result';
import type { RequestInput, RequestName, RequestResult, StreamName, StreamPayload, Unsubscribe } from '../contract';

export interface BridgeTransport {
  invoke(name: RequestName, input: unknown): Promise<Result<unknown>>;
  listen(name: StreamName, listener: (payload: unknown) => void): Unsubscribe;
}

export function call<K extends RequestName>(transport: BridgeTransport, name: K, input: RequestInput<K>): Promise<Result<RequestResult<K>>> {
  // Main parsed the input and declared the result type in the contract.
  return transport.invoke(name, input) as Promise<Result<RequestResult<K>>>;
}

export function on<K extends StreamName>(transport: BridgeTransport, name: K, listener: (payload: StreamPayload<K>) => void): Unsubscribe {
  return transport.listen(name, listener as (payload: unknown) => void);
}
