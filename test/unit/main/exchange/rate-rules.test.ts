// The client's rate table against the spec's own table (exchange-api section 8), not against the
// sandbox's reading of it: the sandbox is the referee and keeps its own.
import { describe, expect, it } from 'vitest';
import { AGGREGATED_FEEDS, aggregatedRule, allRateRules, RATE_RULES, type RateRule } from '../../../../main/exchange/rate-rules';

// exchange-api 8, the table as the spec writes it.
const SPEC_TABLE = `
| PUT /v1/session | 5 per second | owner id |
| POST /v1/session/actions | 5 per second | owner id |
| POST /v1/accounts | 1 per second | IP |
| POST /v1/accounts/actions | 10 per minute | owner id |
| POST /v1/accounts/upgrade | 10 per minute | owner id |
| POST /v1/accounts/withdraw | 10 per minute | owner id |
| POST /v1/accounts/call, /v1/accounts/calls | 10 per minute | owner id |
| GET /v1/markets/fees | 5 per second | IP |
| GET /v1/aggregated/* (and /v1/agg/*) | 5 per second each | IP |
| GET /v1/accounts/window | shared aggregated limit | IP |
`;
// exchange-api 8: "Owner-id limits key on the `Svc-Owner-Id` header; IP limits key on the public IP."

interface SpecRow {
  readonly endpoint: string;
  readonly limit: string;
  readonly limiter: string;
}

const rows: SpecRow[] = SPEC_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [endpoint, limit, limiter] = line.split('|').slice(1, 4).map((cell) => cell.trim());
    return { endpoint: endpoint!, limit: limit!, limiter: limiter! };
  });

/** "5 per second", "10 per minute" (each), as a count and a window. */
function budget(limit: string): { limit: number; windowMs: number } {
  const match = /^(\d+) per (second|minute)( each)?$/.exec(limit);
  if (match === null) throw new Error(`not a budget: ${limit}`);
  return { limit: Number(match[1]), windowMs: match[2] === 'second' ? 1_000 : 60_000 };
}

function keyedBy(limiter: string): RateRule['keyedBy'] {
  if (limiter === 'owner id') return 'owner';
  if (limiter === 'IP') return 'ip';
  throw new Error(`not a limiter: ${limiter}`);
}

/** The client's rule for a spec row's endpoint (one rule per row; the aggregated row is one per feed). */
const ruleOfRow: Record<string, RateRule> = {
  'PUT /v1/session': RATE_RULES.session,
  'POST /v1/session/actions': RATE_RULES.sessionActions,
  'POST /v1/accounts': RATE_RULES.createAccount,
  'POST /v1/accounts/actions': RATE_RULES.accountActions,
  'POST /v1/accounts/upgrade': RATE_RULES.upgrade,
  'POST /v1/accounts/withdraw': RATE_RULES.withdraw,
  'POST /v1/accounts/call, /v1/accounts/calls': RATE_RULES.calls,
  'GET /v1/markets/fees': RATE_RULES.fees,
  'GET /v1/accounts/window': RATE_RULES.window,
};

describe('rate rules: the spec table (exchange-api 8)', () => {
  it('has a rule for every row, with the row’s count, window and limiter', () => {
    for (const row of rows) {
      if (row.endpoint.startsWith('GET /v1/aggregated/')) continue;
      const rule = ruleOfRow[row.endpoint];
      expect(rule, row.endpoint).toBeDefined();
      expect(rule!.keyedBy, row.endpoint).toBe(keyedBy(row.limiter));
      // "shared aggregated limit": the aggregated feeds' budget (5 per second, by IP).
      const expected = row.limit === 'shared aggregated limit' ? budget(rows.find((other) => other.endpoint.startsWith('GET /v1/aggregated/'))!.limit) : budget(row.limit);
      expect({ limit: rule!.limit, windowMs: rule!.windowMs }, row.endpoint).toEqual(expected);
    }
  });

  it('gives every aggregated feed its own "5 per second each" budget by IP', () => {
    const row = rows.find((each) => each.endpoint.startsWith('GET /v1/aggregated/'))!;
    for (const feed of AGGREGATED_FEEDS) {
      const rule = aggregatedRule(feed);
      expect(rule.id).toBe(`GET /v1/aggregated/${feed}`);
      expect({ limit: rule.limit, windowMs: rule.windowMs, keyedBy: rule.keyedBy }).toEqual({ ...budget(row.limit), keyedBy: keyedBy(row.limiter) });
    }
  });

  it('limits nothing the table does not list ("Rate limits of endpoints not listed: not shown")', () => {
    const listed = new Set(Object.values(ruleOfRow).map((rule) => rule.id));
    for (const rule of allRateRules()) expect(listed.has(rule.id) || rule.id.startsWith('GET /v1/aggregated/'), rule.id).toBe(true);
  });
});
