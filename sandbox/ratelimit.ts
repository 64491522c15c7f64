// Rate limits of spec section 8. Algorithm: a sliding-window log per (rule, key): the times of
// the last `limit` accepted requests; a request is refused when `limit` of them fall inside
// the window (1 s or 60 s) before now, by the sandbox clock. Only `limit` entries are kept per
// key and at most MAX_KEYS keys per rule (the oldest key is forgotten first), so memory is
// bounded whatever the clients do. Refused requests are not counted.
import type { Clock } from '../shared/clock';

export interface RateRule {
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Whose budget: the Svc-Owner-Id header, or the client's IP. */
  readonly by: 'owner' | 'ip';
}

const PER_SECOND = 1000;
const PER_MINUTE = 60_000;
export const MAX_KEYS = 10_000;

const rule = (name: string, limit: number, windowMs: number, by: RateRule['by']): RateRule => ({ name, limit, windowMs, by });

const SESSION = rule('PUT /v1/session', 5, PER_SECOND, 'owner');
const ACTIONS = rule('POST /v1/session/actions', 5, PER_SECOND, 'owner');
const ACCOUNTS = rule('POST /v1/accounts', 1, PER_SECOND, 'ip');
const OWNER_ACTIONS = rule('POST /v1/accounts/actions', 10, PER_MINUTE, 'owner');
const UPGRADE = rule('POST /v1/accounts/upgrade', 10, PER_MINUTE, 'owner');
const WITHDRAW = rule('POST /v1/accounts/withdraw', 10, PER_MINUTE, 'owner');
const CALLS = rule('POST /v1/accounts/call(s)', 10, PER_MINUTE, 'owner');
const FEES = rule('GET /v1/markets/fees', 5, PER_SECOND, 'ip');
const WINDOW = rule('GET /v1/accounts/window', 5, PER_SECOND, 'ip');
const aggregated = new Map<string, RateRule>();

/** The rule for a request, if it has one. The two aggregated prefixes share one budget per feed. */
export function ruleFor(method: string, path: string): RateRule | undefined {
  if (method === 'PUT' && path === '/v1/session') return SESSION;
  if (method === 'POST') {
    switch (path) {
      case '/v1/session/actions':
        return ACTIONS;
      case '/v1/accounts':
        return ACCOUNTS;
      case '/v1/accounts/actions':
        return OWNER_ACTIONS;
      case '/v1/accounts/upgrade':
        return UPGRADE;
      case '/v1/accounts/withdraw':
        return WITHDRAW;
      case '/v1/accounts/call':
      case '/v1/accounts/calls':
        return CALLS;
      default:
        return undefined;
    }
  }
  if (method !== 'GET') return undefined;
  if (path === '/v1/markets/fees') return FEES;
  if (path === '/v1/accounts/window') return WINDOW;
  const feed = /^\/v1\/(?:aggregated|agg)\/(.+)$/.exec(path)?.[1];
  if (feed === undefined) return undefined;
  let found = aggregated.get(feed);
  if (found === undefined) {
    if (aggregated.size >= 64) return rule('GET /v1/aggregated/*', 5, PER_SECOND, 'ip');
    found = rule(`GET /v1/aggregated/${feed}`, 5, PER_SECOND, 'ip');
    aggregated.set(feed, found);
  }
  return found;
}

export class RateLimiter {
  private readonly logs = new Map<string, number[]>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** Count the request if it fits; false when over the limit. */
  take(rateRule: RateRule, key: string): boolean {
    const now = this.clock.now();
    const id = `${rateRule.name}|${key}`;
    let log = this.logs.get(id);
    if (log === undefined) {
      if (this.logs.size >= MAX_KEYS) {
        const oldest = this.logs.keys().next().value;
        if (oldest !== undefined) this.logs.delete(oldest);
      }
      log = [];
      this.logs.set(id, log);
    }
    const windowStart = now - rateRule.windowMs;
    while (log.length > 0 && (log[0] as number) <= windowStart) log.shift();
    if (log.length >= rateRule.limit) return false;
    log.push(now);
    return true;
  }

  reset(): void {
    this.logs.clear();
  }
}
