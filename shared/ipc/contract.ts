// The contract between the renderer and main: every request (input schema + result type) and
// every push stream. The preload's bridge and the browser host's bridge are both checked
// against `TerminalApi`, and main's handlers against `Handlers` (main/ipc).
import { z } from 'zod';
import type { Result } from '../result';
import { request, stream, type InputOf, type PayloadOf, type ResultOf } from './spec';
import type { AppInfo, ConnectionStatus, MarketsView } from './views';

const noInput = z.strictObject({});

export const requests = {
  getAppInfo: request<AppInfo>()(noInput),
  getConnection: request<ConnectionStatus>()(noInput),
  listMarkets: request<MarketsView>()(noInput),
} as const;

export const streams = {
  connection: stream<ConnectionStatus>(),
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
