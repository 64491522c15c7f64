// The contract between the renderer and main: every request (input schema + result type) and
// every push stream, declared per area in ./areas and merged here. The preload's bridge and the
// browser host's bridge are both checked against `TerminalApi`, and main's handlers against
// `Handlers` (main/ipc).
import type { Result } from '../result';
import { alertRequests, alertStreams } from './areas/alerts';
import { coreRequests, coreStreams } from './areas/core';
import { custodyRequests, custodyStreams } from './areas/custody';
import { deskRequests, deskStreams } from './areas/desk';
import { marginRequests, marginStreams } from './areas/margin';
import { positionRequests, positionStreams } from './areas/positions';
import { triggerRequests, triggerStreams } from './areas/triggers';
import { protectRequests, protectStreams } from './areas/protect';
import { guardRequests, guardStreams } from './areas/guards';
import { algoRequests, algoStreams } from './areas/algos';
import { overviewRequests, overviewStreams } from './areas/overview';
import { marginInsightRequests, marginInsightStreams } from './areas/margin-insights';
import { recordsRequests, recordsStreams } from './areas/records';
import type { InputOf, PayloadOf, ResultOf } from './spec';

export const requests = { ...coreRequests, ...marginRequests, ...triggerRequests, ...deskRequests, ...custodyRequests, ...positionRequests, ...protectRequests, ...alertRequests, ...guardRequests, ...algoRequests, ...overviewRequests, ...marginInsightRequests, ...recordsRequests } as const;

export const streams = { ...coreStreams, ...marginStreams, ...triggerStreams, ...deskStreams, ...custodyStreams, ...positionStreams, ...protectStreams, ...alertStreams, ...guardStreams, ...algoStreams, ...overviewStreams, ...marginInsightStreams, ...recordsStreams } as const;


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

/** The part of `TerminalApi` that one area of the contract declares. */
export type AreaApi<R, S> = {
  readonly [K in keyof R & RequestName]: (input: RequestInput<K>) => Promise<Result<RequestResult<K>>>;
} & {
  readonly [K in keyof S & StreamName as ListenerName<K>]: (listener: (payload: StreamPayload<K>) => void) => Unsubscribe;
};

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
