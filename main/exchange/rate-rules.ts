// The rate limits of spec section 8, exactly as the table gives them, and which rule a request
// falls under. Endpoints the table does not list are not limited by the client (their limits are
// "not shown"); the margin writes at POST /v1/margin/accounts use the session-actions budget because
// margin-api section 8 says the first document's limits apply to margin actions.

import { BugError } from '../../shared/result';

export type LimiterKeyKind = 'owner' | 'ip';

export interface RateRule {
  /** Stable name, also what the UI shows: the endpoint as the spec's table writes it. */
  readonly id: string;
  /** Requests allowed in any window of `windowMs`. */
  readonly limit: number;
  readonly windowMs: number;
  /** Whose budget: the `Svc-Owner-Id` header value, or the client's public IP. */
  readonly keyedBy: LimiterKeyKind;
}

const SECOND = 1_000;
const MINUTE = 60_000;

const rule = (id: string, limit: number, windowMs: number, keyedBy: LimiterKeyKind): RateRule => ({ id, limit, windowMs, keyedBy });

export const RATE_RULES = {
  session: rule('PUT /v1/session', 5, SECOND, 'owner'),
  sessionActions: rule('POST /v1/session/actions', 5, SECOND, 'owner'),
  createAccount: rule('POST /v1/accounts', 1, SECOND, 'ip'),
  accountActions: rule('POST /v1/accounts/actions', 10, MINUTE, 'owner'),
  upgrade: rule('POST /v1/accounts/upgrade', 10, MINUTE, 'owner'),
  withdraw: rule('POST /v1/accounts/withdraw', 10, MINUTE, 'owner'),
  // One row of the table names both paths: one budget for the two.
  calls: rule('POST /v1/accounts/call(s)', 10, MINUTE, 'owner'),
  fees: rule('GET /v1/markets/fees', 5, SECOND, 'ip'),
  // "shared aggregated limit": the same 5 per second per IP as an aggregated feed, with its own
  // budget (the sandbox counts it the same way). See docs/protocol.md, rate limits.
  window: rule('GET /v1/accounts/window', 5, SECOND, 'ip'),
} as const satisfies Record<string, RateRule>;

/** The aggregated feeds of spec 4.1; each has its own 5 per second budget per IP. */
export const AGGREGATED_FEEDS = ['assets', 'orderbook', 'summary', 'ticker', 'trades', 'coingecko/tickers', 'coingecko/orderbook'] as const;
export type AggregatedFeed = (typeof AGGREGATED_FEEDS)[number];

const aggregatedRules = new Map<AggregatedFeed, RateRule>(
  AGGREGATED_FEEDS.map((feed) => [feed, rule(`GET /v1/aggregated/${feed}`, 5, SECOND, 'ip')]),
);

/** The rule of one aggregated feed. The `/v1/agg/` alias draws from the same budget as `/v1/aggregated/`. */
export function aggregatedRule(feed: AggregatedFeed): RateRule {
  const found = aggregatedRules.get(feed);
  if (found === undefined) throw new BugError(`aggregatedRule: unknown feed ${feed}`);
  return found;
}

/** Every rule, for a UI that lists the budgets before any request was made. */
export function allRateRules(): RateRule[] {
  return [...Object.values(RATE_RULES), ...aggregatedRules.values()];
}
