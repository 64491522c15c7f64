// The sandbox's rate table checked against the words of spec section 8 (exchange-api.md, "8.
// Limits"), not against the client's table: the sandbox referees the client's limiter, so each
// side must answer to the spec on its own. Each row below is the spec's line, verbatim; its
// limit and limiter are read from the line itself, and the requests it names are asked of
// `ruleFor`. The window arithmetic ("per second", "per minute") is checked on a fake clock.
import { describe, expect, it } from 'vitest';
import { RateLimiter, ruleFor, type RateRule } from '../../../sandbox/ratelimit';

interface SpecRow {
  /** The row of the spec's table, as the spec writes it. */
  readonly line: string;
  /** The requests the row names: its paths, and for a wildcard some of the paths it covers. */
  readonly requests: readonly (readonly [method: string, path: string])[];
}

/** Spec 4.1: "GET /v1/aggregated/{assets, orderbook, summary, ticker, trades, coingecko/tickers, coingecko/orderbook} ... each also served under /v1/agg/". */
const AGGREGATED_FEEDS = ['assets', 'orderbook', 'summary', 'ticker', 'trades', 'coingecko/tickers', 'coingecko/orderbook'];

const SPEC_SECTION_8: readonly SpecRow[] = [
  { line: '| PUT /v1/session | 5 per second | owner id |', requests: [['PUT', '/v1/session']] },
  { line: '| POST /v1/session/actions | 5 per second | owner id |', requests: [['POST', '/v1/session/actions']] },
  { line: '| POST /v1/accounts | 1 per second | IP |', requests: [['POST', '/v1/accounts']] },
  { line: '| POST /v1/accounts/actions | 10 per minute | owner id |', requests: [['POST', '/v1/accounts/actions']] },
  { line: '| POST /v1/accounts/upgrade | 10 per minute | owner id |', requests: [['POST', '/v1/accounts/upgrade']] },
  { line: '| POST /v1/accounts/withdraw | 10 per minute | owner id |', requests: [['POST', '/v1/accounts/withdraw']] },
  { line: '| POST /v1/accounts/call, /v1/accounts/calls | 10 per minute | owner id |', requests: [['POST', '/v1/accounts/call'], ['POST', '/v1/accounts/calls']] },
  { line: '| GET /v1/markets/fees | 5 per second | IP |', requests: [['GET', '/v1/markets/fees']] },
  {
    line: '| GET /v1/aggregated/* (and /v1/agg/*) | 5 per second each | IP |',
    requests: AGGREGATED_FEEDS.flatMap((feed) => [['GET', `/v1/aggregated/${feed}`] as const, ['GET', `/v1/agg/${feed}`] as const]),
  },
  { line: '| GET /v1/accounts/window | shared aggregated limit | IP |', requests: [['GET', '/v1/accounts/window']] },
];

const AGGREGATED_ROW = SPEC_SECTION_8.find((row) => row.line.includes('/v1/aggregated/*'))!;

function cells(line: string): [endpoint: string, limit: string, limiter: string] {
  const [endpoint, limit, limiter] = line.split('|').map((cell) => cell.trim()).filter((cell) => cell !== '');
  return [endpoint!, limit!, limiter!];
}

/** "5 per second", "10 per minute" (and "... each"); "shared aggregated limit" is the aggregated row's limit. */
function specLimit(text: string): { limit: number; windowMs: number } {
  if (text === 'shared aggregated limit') return specLimit(cells(AGGREGATED_ROW.line)[1]);
  const match = /^(\d+) per (second|minute)( each)?$/.exec(text);
  if (match === null) throw new Error(`not a limit the spec's table writes: ${text}`);
  return { limit: Number(match[1]), windowMs: match[2] === 'second' ? 1000 : 60_000 };
}

/** "Owner-id limits key on the `Svc-Owner-Id` header; IP limits key on the public IP." */
function specLimiter(text: string): RateRule['by'] {
  if (text === 'owner id') return 'owner';
  if (text === 'IP') return 'ip';
  throw new Error(`not a limiter the spec's table writes: ${text}`);
}

function rule(method: string, path: string): RateRule {
  const found = ruleFor(method, path);
  if (found === undefined) throw new Error(`${method} ${path} has no rate rule`);
  return found;
}

/** How many requests one key is accepted in a row at one instant. */
function acceptedAtOnce(limiter: RateLimiter, rateRule: RateRule, key: string, tries: number): number {
  let accepted = 0;
  for (let i = 0; i < tries; i++) if (limiter.take(rateRule, key)) accepted += 1;
  return accepted;
}

describe('the sandbox rate table against spec section 8', () => {
  for (const row of SPEC_SECTION_8) {
    it(row.line, () => {
      const [endpoint, limitText, limiterText] = cells(row.line);
      const expected = { ...specLimit(limitText), by: specLimiter(limiterText) };
      for (const [method, path] of row.requests) {
        // The request is one the row names (its method, and its path or the wildcard's prefix).
        expect(endpoint.startsWith(`${method} `)).toBe(true);
        expect(endpoint.includes(path) || endpoint.includes(`${path.split('/').slice(0, 3).join('/')}/*`), `${method} ${path} in ${endpoint}`).toBe(true);
        const found = rule(method, path);
        expect({ limit: found.limit, windowMs: found.windowMs, by: found.by }, `${method} ${path}`).toEqual(expected);
      }
    });
  }

  it('"POST /v1/accounts/call, /v1/accounts/calls": one row, one budget for the two paths', () => {
    const limiter = new RateLimiter({ now: () => 0 });
    expect(acceptedAtOnce(limiter, rule('POST', '/v1/accounts/call'), 'owner:a', 6)).toBe(6);
    expect(acceptedAtOnce(limiter, rule('POST', '/v1/accounts/calls'), 'owner:a', 6)).toBe(4);
  });

  it('"5 per second each" (and /v1/agg/*): each feed its own budget, shared by its two prefixes', () => {
    const limiter = new RateLimiter({ now: () => 0 });
    expect(acceptedAtOnce(limiter, rule('GET', '/v1/aggregated/ticker'), 'ip:1', 3)).toBe(3);
    expect(acceptedAtOnce(limiter, rule('GET', '/v1/agg/ticker'), 'ip:1', 3)).toBe(2);
    for (const feed of AGGREGATED_FEEDS.filter((other) => other !== 'ticker')) {
      expect(acceptedAtOnce(limiter, rule('GET', `/v1/agg/${feed}`), 'ip:1', 6), feed).toBe(5);
    }
  });

  it('"shared aggregated limit": the window read has the aggregated limit with a budget of its own (the sandbox\'s reading, docs/sandbox.md)', () => {
    const limiter = new RateLimiter({ now: () => 0 });
    for (const feed of AGGREGATED_FEEDS) acceptedAtOnce(limiter, rule('GET', `/v1/aggregated/${feed}`), 'ip:1', 5);
    expect(acceptedAtOnce(limiter, rule('GET', '/v1/accounts/window'), 'ip:1', 6)).toBe(5);
  });

  it('"Rate limits of endpoints not listed: not shown": the sandbox limits no other endpoint', () => {
    const unlisted = [
      ['GET', '/v1/markets'],
      ['GET', '/v1/accounts'],
      ['GET', '/v1/bars'],
      ['GET', '/v1/depth'],
      ['GET', '/v1/trades'],
      ['GET', '/v1/orders'],
      ['GET', '/v1/session'],
      ['POST', '/v1/faucet'],
      ['PUT', '/v1/accounts'],
      ['GET', '/v1/session/actions'],
    ] as const;
    for (const [method, path] of unlisted) expect(ruleFor(method, path), `${method} ${path}`).toBeUndefined();
  });

  it('"per owner id" and "per IP": each key has its own budget', () => {
    const limiter = new RateLimiter({ now: () => 0 });
    const session = rule('PUT', '/v1/session');
    expect(acceptedAtOnce(limiter, session, 'owner:a', 6)).toBe(5);
    expect(acceptedAtOnce(limiter, session, 'owner:b', 6)).toBe(5);
    const accounts = rule('POST', '/v1/accounts');
    expect(acceptedAtOnce(limiter, accounts, 'ip:1', 2)).toBe(1);
    expect(acceptedAtOnce(limiter, accounts, 'ip:2', 2)).toBe(1);
  });
});

describe('"per second" and "per minute" on the sandbox clock', () => {
  it('"5 per second": no second-long window holds a sixth accepted request', () => {
    let now = 10_000;
    const limiter = new RateLimiter({ now: () => now });
    const session = rule('PUT', '/v1/session');
    expect(acceptedAtOnce(limiter, session, 'owner:a', 5)).toBe(5);
    now += 999;
    expect(limiter.take(session, 'owner:a')).toBe(false);
    // A second after the five, all of them have left the window.
    now += 1;
    expect(acceptedAtOnce(limiter, session, 'owner:a', 6)).toBe(5);
  });

  it('"10 per minute": the eleventh is refused until a minute after the first', () => {
    let now = 10_000;
    const limiter = new RateLimiter({ now: () => now });
    const withdraw = rule('POST', '/v1/accounts/withdraw');
    for (let i = 0; i < 10; i++) {
      expect(limiter.take(withdraw, 'owner:a')).toBe(true);
      now += 1000;
    }
    now = 10_000 + 59_999;
    expect(limiter.take(withdraw, 'owner:a')).toBe(false);
    now = 10_000 + 60_000;
    expect(limiter.take(withdraw, 'owner:a')).toBe(true);
    expect(limiter.take(withdraw, 'owner:a')).toBe(false);
  });

  it('a refused request is not counted against the next window', () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now });
    const accounts = rule('POST', '/v1/accounts');
    expect(limiter.take(accounts, 'ip:1')).toBe(true);
    now = 500;
    for (let i = 0; i < 10; i++) expect(limiter.take(accounts, 'ip:1')).toBe(false);
    now = 1000;
    expect(limiter.take(accounts, 'ip:1')).toBe(true);
  });
});
