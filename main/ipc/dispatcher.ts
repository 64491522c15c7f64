// One entry point for every request from a renderer, whatever the transport: check the sender
// against the app's own origin, look the channel up in the contract, parse the input with its
// schema (everything inbound is `unknown`), run the handler, and map a thrown bug to data. A
// refused request never reaches its handler.
import { isRequestName, requests, type RequestName, type RequestResult } from '../../shared/ipc/contract';
import type { ParsedInputOf } from '../../shared/ipc/spec';
import { fail, type Result } from '../../shared/result';
import { parseWith, showValue } from '../../shared/schema';

export const UNKNOWN_CHANNEL = 'UNKNOWN_CHANNEL';
export const FORBIDDEN_SENDER = 'FORBIDDEN_SENDER';
export const INTERNAL_ERROR = 'INTERNAL_ERROR';

/** Who sent a request: the window it came from and the origin of the frame that sent it. */
export interface Caller {
  readonly windowId: string;
  /** The sending frame's URL as reported by the transport; null when unknown. */
  readonly frameUrl: string | null;
}

export type Handlers = {
  readonly [K in RequestName]: (
    input: ParsedInputOf<(typeof requests)[K]>,
    caller: Caller,
  ) => Promise<Result<RequestResult<K>>> | Result<RequestResult<K>>;
};

/** The handlers of one area of the contract (merged into `Handlers` by the terminal). */
export type AreaHandlers<R> = {
  readonly [K in keyof R & RequestName]: Handlers[K];
};

export interface DispatcherOptions {
  /** Origins the app's own pages are served from, e.g. `app://terminal` or `http://127.0.0.1:5173`. */
  readonly allowedOrigins: readonly string[];
  /** Receives unexpected exceptions (bugs); the caller gets INTERNAL_ERROR. */
  readonly onBug?: (error: unknown, channel: RequestName) => void;
}

export type Dispatch = (channel: unknown, input: unknown, caller: Caller) => Promise<Result<unknown>>;

export function originOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    // Custom schemes (app://terminal) report "null" as origin in WHATWG URL: rebuild it.
    return parsed.origin !== 'null' ? parsed.origin : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

export function createDispatcher(handlers: Handlers, options: DispatcherOptions): Dispatch {
  const allowed = new Set(options.allowedOrigins);
  return async (channel, input, caller) => {
    const origin = originOf(caller.frameUrl);
    if (origin === null || !allowed.has(origin)) {
      return fail(FORBIDDEN_SENDER, `request refused: the sender ${caller.frameUrl === null ? '(unknown frame)' : JSON.stringify(caller.frameUrl)} is not a page of this app`);
    }
    if (!isRequestName(channel)) {
      // showValue, not String(): a channel such as {"toString": 1} makes String() throw, and the
      // browser host would then never answer the call.
      return fail(UNKNOWN_CHANNEL, `request refused: ${showValue(channel)} is not an operation of the terminal`);
    }
    const parsed = parseWith(requests[channel].input, input, channel);
    if (!parsed.ok) return parsed;
    const handler = handlers[channel] as (input: unknown, caller: Caller) => Promise<Result<unknown>> | Result<unknown>;
    try {
      return await handler(parsed.value, caller);
    } catch (error) {
      options.onBug?.(error, channel);
      return fail(INTERNAL_ERROR, `${channel} failed unexpectedly; the error was logged`);
    }
  };
}
