// Folding one `subscribe_margin_update` event into the last margin state (margin-api 6).
//
// The spec leaves the event payload "not shown"; the shape read here is the one docs/sandbox.md
// publishes (and docs/protocol.md (Margin) records as our client's reading):
//   {sequence, kind, activities: [{kind, …amounts, tx_id}], session, balances, prices, pool_paused,
//    drawn_total, collateral_total, fees_total, asset_id?, debt_total?, received_total?, rollover?,
//    session_closed?, published_tiers?}
// Rule of the spec kept here: every amount member is a POST-EVENT TOTAL and replaces the local
// value; nothing is ever added to what we hold. Members are applied in this order:
//   state            a complete snapshot: replaces everything
//   session          the session object, or null once it ended (session_closed: true also ends it);
//                    its tier must be the held tier version or one the caller knows (`tierOf`),
//                    otherwise the fold fails and the state is fetched again
//   drawn_total, collateral_total, fees_total        session.quote_drawn, .collateral, .fees
//   balances, prices  every asset's balance / price after the event: they replace the records
//   asset_id with debt_total / received_total        balances[asset].debt / .received
//   rollover          replaces the rollover; an event that carries the session but no rollover (or
//                     ends the session) removes it: the post-event state has none
//   pool_paused       kept as `pool_paused` on the state
//   activities        an ending activity (SessionClosed, SessionLiquidated, SessionExpired) becomes
//                     `last_session` {status, settlement} as GET /v1/margin/state publishes it
//   sequence          optional; when present the feed checks it follows the previous one
// Anything else is ignored only if a recognised member came with it; an event with nothing this
// client can fold fails, which marks the state stale and refetches it: never guessed at.
import { z } from 'zod';
import { marginBalanceSchema, marginPriceSchema, marginSessionSchema, marginStateSchema, rolloverSchema, tierSchema, type MarginState, type Tier } from '../../shared/api/margin-schemas';
import { amountSchema, b256Schema, integerSchema } from '../../shared/api/primitives';
import { fail, ok, type Result } from '../../shared/result';
import { parseWith } from '../../shared/schema';

export const MARGIN_FOLD_FAILED = 'MARGIN_FOLD_FAILED';

/** At most this many activities per event (one committed transaction) are read. */
export const MAX_EVENT_ACTIVITIES = 64;

const activitySchema = z.object({ kind: z.string().max(64) }).loose();

const eventSchema = z
  .object({
    sequence: integerSchema.optional(),
    kind: z.string().max(64).optional(),
    activities: z.array(activitySchema).max(MAX_EVENT_ACTIVITIES).optional(),
    state: marginStateSchema.optional(),
    session: marginSessionSchema.nullable().optional(),
    session_closed: z.boolean().optional(),
    drawn_total: amountSchema.optional(),
    collateral_total: amountSchema.optional(),
    fees_total: amountSchema.optional(),
    asset_id: b256Schema.optional(),
    debt_total: amountSchema.optional(),
    received_total: amountSchema.optional(),
    balances: z.record(z.string(), marginBalanceSchema).optional(),
    prices: z.record(z.string(), marginPriceSchema).optional(),
    rollover: rolloverSchema.optional(),
    pool_paused: z.boolean().optional(),
    tier: tierSchema.optional(),
    published_tiers: z.array(tierSchema).max(256).optional(),
  })
  .loose();

export interface MarginActivity {
  readonly kind: string;
  readonly [member: string]: unknown;
}

export interface FoldedEvent {
  readonly state: MarginState;
  /** The event's sequence number, when it carried one. */
  readonly sequence: bigint | null;
  /** `kind` of the event (its first activity), when given. */
  readonly kind: string | null;
  readonly activities: readonly MarginActivity[];
  /** Tier versions published by this event (TierPublished), latest of each. */
  readonly publishedTiers: readonly Tier[];
}

export interface FoldOptions {
  /** A tier version the caller knows (GET /v1/margin/tiers), for a session that starts on it. */
  readonly tierOf?: (tierId: string, version: bigint) => Tier | undefined;
}

const ENDING_ACTIVITIES: Readonly<Record<string, 'Closed' | 'Liquidated' | 'Expired'>> = {
  SessionClosed: 'Closed',
  SessionLiquidated: 'Liquidated',
  SessionExpired: 'Expired',
};

const SETTLEMENT_MEMBERS = ['pnl', 'profit_share', 'collateral_returned', 'collateral_forfeited', 'returned_to_parent'] as const;

function withoutRollover(state: MarginState): MarginState {
  if (!('rollover' in state)) return state;
  const { rollover: _dropped, ...rest } = state;
  return rest as MarginState;
}

/** Apply one event; a failure means the state can no longer be trusted (refetch it). */
export function foldMarginEvent(state: MarginState, event: unknown, options: FoldOptions = {}): Result<FoldedEvent> {
  const parsed = parseWith(eventSchema, event, 'subscribe_margin_update.event', MARGIN_FOLD_FAILED);
  if (!parsed.ok) return parsed;
  const update = parsed.value;
  const sequence = update.sequence ?? null;
  const activities: readonly MarginActivity[] = update.activities ?? [];
  const folded = (next: MarginState): FoldedEvent => ({ state: next, sequence, kind: update.kind ?? null, activities, publishedTiers: update.published_tiers ?? [] });
  if (update.state !== undefined) return ok(folded(update.state));

  let recognised = false;
  let next: MarginState = state;
  const session = () => next.session ?? null;

  if (update.session !== undefined) {
    const incoming = update.session;
    if (incoming !== null && incoming.tier_id !== undefined && incoming.version !== undefined) {
      const held = next.tier ?? null;
      if (held === null || held.tier_id !== incoming.tier_id || held.version !== incoming.version) {
        const known = options.tierOf?.(incoming.tier_id, incoming.version) ?? update.published_tiers?.find((tier) => tier.tier_id === incoming.tier_id && tier.version === incoming.version);
        if (known === undefined) {
          return fail(
            MARGIN_FOLD_FAILED,
            `subscribe_margin_update.event.session: tier ${incoming.tier_id} v${incoming.version} is not the held tier (${held === null ? 'none' : `${held.tier_id} v${held.version}`}) nor a known version`,
            { field: 'session' },
          );
        }
        next = { ...next, tier: known };
      }
    }
    next = { ...next, session: incoming };
    if (update.rollover === undefined) next = withoutRollover(next);
    recognised = true;
  }
  if (update.session_closed === true) {
    next = withoutRollover({ ...next, session: null });
    recognised = true;
  }
  const totals: [keyof NonNullable<MarginState['session']>, bigint | undefined, string][] = [
    ['quote_drawn', update.drawn_total, 'drawn_total'],
    ['collateral', update.collateral_total, 'collateral_total'],
    ['fees', update.fees_total, 'fees_total'],
  ];
  for (const [member, value, name] of totals) {
    if (value === undefined) continue;
    const current = session();
    if (current === null) return fail(MARGIN_FOLD_FAILED, `subscribe_margin_update.event.${name}: ${value} arrived but there is no session to apply it to`, { field: name });
    next = { ...next, session: { ...current, [member]: value } };
    recognised = true;
  }
  if (update.balances !== undefined) {
    next = { ...next, balances: update.balances };
    recognised = true;
  }
  if (update.prices !== undefined) {
    next = { ...next, prices: update.prices };
    recognised = true;
  }
  if (update.debt_total !== undefined || update.received_total !== undefined) {
    if (update.asset_id === undefined) return fail(MARGIN_FOLD_FAILED, 'subscribe_margin_update.event.asset_id: required with debt_total or received_total, got nothing', { field: 'asset_id' });
    const balance = next.balances[update.asset_id];
    if (balance === undefined) {
      return fail(MARGIN_FOLD_FAILED, `subscribe_margin_update.event.asset_id: ${update.asset_id} has no balance in the state`, { field: 'asset_id' });
    }
    next = {
      ...next,
      balances: {
        ...next.balances,
        [update.asset_id]: {
          ...balance,
          ...(update.debt_total === undefined ? {} : { debt: update.debt_total }),
          ...(update.received_total === undefined ? {} : { received: update.received_total }),
        },
      },
    };
    recognised = true;
  }
  if (update.rollover !== undefined) {
    if (session() === null) return fail(MARGIN_FOLD_FAILED, 'subscribe_margin_update.event.rollover: arrived but there is no session to apply it to', { field: 'rollover' });
    next = { ...next, rollover: update.rollover };
    recognised = true;
  }
  if (update.pool_paused !== undefined) {
    next = { ...next, pool_paused: update.pool_paused };
    recognised = true;
  }
  if (update.tier !== undefined) {
    next = { ...next, tier: update.tier };
    recognised = true;
  }
  if (update.published_tiers !== undefined) recognised = true;
  const ending = activities.find((activity) => ENDING_ACTIVITIES[activity.kind] !== undefined);
  if (ending !== undefined) {
    const settlement: Record<string, unknown> = {};
    for (const member of SETTLEMENT_MEMBERS) if (ending[member] !== undefined) settlement[member] = ending[member];
    next = { ...next, last_session: { status: ENDING_ACTIVITIES[ending.kind], settlement } };
  }
  if (!recognised) {
    return fail(MARGIN_FOLD_FAILED, `subscribe_margin_update.event: no member this client can fold (members: ${Object.keys(update).join(', ') || 'none'})`);
  }
  return ok(folded(next));
}
