// The lies the adversarial proxy can tell over REST. Each one names the requests it applies to and
// what the terminal hears once the real exchange answered: the request itself always reaches the
// exchange (a lie about the answer is the dangerous kind: the effect happened, the terminal is told
// otherwise). A lie with a count tells itself that many times, then the proxy is honest again.

/** The exchange's real answer, its body parsed when it is JSON. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What the proxy does with the terminal's request once the exchange answered. */
export type RestVerdict =
  | { readonly kind: 'answer'; readonly status: number; readonly body: unknown }
  /** Destroy the connection: the terminal never hears an answer. */
  | { readonly kind: 'drop' }
  /** Keep the connection open and say nothing, until the terminal gives up. */
  | { readonly kind: 'hang' };

export interface RestLie {
  readonly name: string;
  applies(method: string, path: string): boolean;
  answer(upstream: UpstreamAnswer): RestVerdict;
}

const SESSION_ACTIONS = (method: string, path: string) => method === 'POST' && path === '/v1/session/actions';

/** The request executed; the terminal is told its sequential nonce was stale (sandbox code 4006, its text). */
export function sequentialRefusalAfterExecution(): RestLie {
  return {
    name: 'sequential nonce refusal after execution',
    applies: SESSION_ACTIONS,
    answer: () => ({ kind: 'answer', status: 400, body: { code: 4006, name: 'NonceMismatch', message: 'Nonce in the request (0) does not match the account nonce (1)' } }),
  };
}

/** The request executed; the terminal is told its parallel nonce could not be used (HTTP 400, the wire notes' text). */
export function parallelRefusalAfterExecution(): RestLie {
  return {
    name: 'parallel nonce refusal after execution',
    applies: SESSION_ACTIONS,
    answer: () => ({ kind: 'answer', status: 400, body: { code: 4007, name: 'ParallelNonce', message: 'Parallel nonce is not usable: it expired' } }),
  };
}

/** The request executed; the terminal is told the exchange (or a gateway in front of it) failed. */
export function serverErrorAfterExecution(status: number): RestLie {
  return { name: `HTTP ${status} after execution`, applies: SESSION_ACTIONS, answer: () => ({ kind: 'answer', status, body: { message: 'Bad Gateway' } }) };
}

/** The request executed; its answer is lost with the connection. */
export function dropAfterExecution(): RestLie {
  return { name: 'connection dropped after execution', applies: SESSION_ACTIONS, answer: () => ({ kind: 'drop' }) };
}

/** The request executed; no answer comes at all, until the terminal's timeout. */
export function silenceAfterExecution(): RestLie {
  return { name: 'no answer after execution', applies: SESSION_ACTIONS, answer: () => ({ kind: 'hang' }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** GET /v1/accounts answers the account's nonce as `nonce` (an old value): the terminal signs with a spent nonce. */
export function staleNonce(nonce: bigint): RestLie {
  return {
    name: 'stale nonce read',
    applies: (method, path) => method === 'GET' && path === '/v1/accounts',
    answer: (upstream) => {
      const body = upstream.body;
      if (!isRecord(body) || !isRecord(body.trade_account)) return { kind: 'answer', ...upstream };
      return { kind: 'answer', status: upstream.status, body: { ...body, trade_account: { ...body.trade_account, nonce: nonce.toString() } } };
    },
  };
}

/** GET /v1/markets names another chain: a signature for it would be good on that chain. */
export function wrongChainId(chainId: bigint): RestLie {
  return {
    name: 'wrong chain id',
    applies: (method, path) => method === 'GET' && path === '/v1/markets',
    answer: (upstream) => (isRecord(upstream.body) ? { kind: 'answer', status: upstream.status, body: { ...upstream.body, chain_id: `0x${chainId.toString(16)}` } } : { kind: 'answer', ...upstream }),
  };
}

/** What the absurd-number lie writes into a money field: alternately negative and 10^40. */
export const ABSURD_VALUES = ['-5000000000', `1${'0'.repeat(40)}`] as const;

const MONEY_FIELDS = new Set(['price', 'quantity', 'total', 'total_locked', 'total_unlocked', 'trading_account_balance', 'locked', 'unlocked', 'quantity_fill', 'min_order', 'dust']);

/**
 * Every money field of the body (balances, prices, sizes, market minimums) replaced by an absurd
 * value, in place; the values alternate so both kinds reach the terminal. `pick` says which to use.
 */
export function absurdify(value: unknown, pick: () => string): unknown {
  if (Array.isArray(value)) {
    // A depth level as [price, quantity].
    if (value.length === 2 && value.every((item) => typeof item === 'string' && /^\d+$/.test(item))) return [pick(), pick()];
    return value.map((item) => absurdify(item, pick));
  }
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) out[key] = MONEY_FIELDS.has(key) && typeof member === 'string' && /^\d+$/.test(member) ? pick() : absurdify(member, pick);
  return out;
}

function alternating(values: readonly string[]): () => string {
  let next = 0;
  return () => values[next++ % values.length]!;
}

/** The reads whose money fields the absurd-number lie rewrites by default. */
export const MONEY_READS = ['/v1/balance', '/v1/depth', '/v1/orders', '/v1/orders/active', '/v1/markets', '/v1/trades'] as const;

/** Balances, depth, orders and markets (or the reads named) with negative and 10^40 money fields. */
export function absurdNumbers(values: readonly string[] = ABSURD_VALUES, paths: readonly string[] = MONEY_READS): RestLie {
  const reads = new Set(paths);
  return {
    name: 'absurd numbers',
    applies: (method, path) => method === 'GET' && reads.has(path),
    answer: (upstream) => ({ kind: 'answer', status: upstream.status, body: absurdify(upstream.body, alternating(values)) }),
  };
}

/** Text that rewrites a terminal line (CR, ESC, erase) and reorders what follows it (U+202E, zero-width). */
export const HOSTILE_TEXT = ['\r\u001b[2K', '\u202e', '\u200b', '\u0007'] as const;

/** Market symbols with control, bidi and zero-width characters (GET /v1/markets). */
export function controlCharactersInNames(): RestLie {
  return {
    name: 'control characters in names',
    applies: (method, path) => method === 'GET' && path === '/v1/markets',
    answer: (upstream) => {
      const body = upstream.body;
      if (!isRecord(body) || !Array.isArray(body.markets)) return { kind: 'answer', ...upstream };
      const markets = body.markets.map((market: unknown, index) => {
        if (!isRecord(market) || !isRecord(market.base) || !isRecord(market.quote)) return market;
        const hostile = HOSTILE_TEXT[index % HOSTILE_TEXT.length]!;
        return { ...market, base: { ...market.base, symbol: `${String(market.base.symbol)}${hostile}USDC` }, quote: { ...market.quote, symbol: `${hostile}${String(market.quote.symbol)}` } };
      });
      return { kind: 'answer', status: upstream.status, body: { ...body, markets } };
    },
  };
}
