// Folding one `subscribe_margin_update` event into the last margin state (margin-api 6).
//
// TODO(shared/margin or shared/api): the event payload is "not shown" in the spec and shared/api
// types it as `unknown`; replace this adapter with a shared `marginEventSchema` and
// `foldMarginEvent(state, event)` once they exist. Until then the members below are read and
// everything else makes the fold fail, which marks the state stale and refetches it: an event we
// cannot interpret is never guessed at.
//
// Rule of the spec kept here: activity members are post-event TOTALS and replace the local value;
// nothing is ever added to what we hold.
//   state            a complete snapshot: replaces everything
//   session          the session object, or null when it closed; session_closed: true also closes it
//   drawn_total      session.quote_drawn
//   collateral_total session.collateral
//   fees_total       session.fees
//   debt_total, received_total (with asset_id)   balances[asset].debt / .received
//   balances, prices (records by asset id)       replace those assets' entries
//   tier             the session's tier version
//   sequence         optional; when present it must follow the previous one without a gap
import { z } from 'zod';
import { marginBalanceSchema, marginPriceSchema, marginSessionSchema, marginStateSchema, tierSchema, type MarginState } from '../../shared/api/margin-schemas';
import { amountSchema, b256Schema, integerSchema } from '../../shared/api/primitives';
import { fail, ok, type Result } from '../../shared/result';
import { parseWith } from '../../shared/schema';

export const MARGIN_FOLD_FAILED = 'MARGIN_FOLD_FAILED';

const eventSchema = z
  .object({
    sequence: integerSchema.optional(),
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
    tier: tierSchema.optional(),
  })
  .loose();

export interface FoldedEvent {
  readonly state: MarginState;
  /** The event's sequence number, when it carried one. */
  readonly sequence: bigint | null;
}

/** Apply one event; a failure means the state can no longer be trusted (refetch it). */
export function foldMarginEvent(state: MarginState, event: unknown): Result<FoldedEvent> {
  const parsed = parseWith(eventSchema, event, 'subscribe_margin_update.event', MARGIN_FOLD_FAILED);
  if (!parsed.ok) return parsed;
  const update = parsed.value;
  const sequence = update.sequence ?? null;
  if (update.state !== undefined) return ok({ state: update.state, sequence });

  let recognised = false;
  let next: MarginState = state;
  const session = () => next.session ?? null;

  if (update.session !== undefined) {
    next = { ...next, session: update.session };
    recognised = true;
  }
  if (update.session_closed === true) {
    next = { ...next, session: null };
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
  if (update.balances !== undefined) {
    next = { ...next, balances: { ...next.balances, ...update.balances } };
    recognised = true;
  }
  if (update.prices !== undefined) {
    next = { ...next, prices: { ...next.prices, ...update.prices } };
    recognised = true;
  }
  if (update.tier !== undefined) {
    next = { ...next, tier: update.tier };
    recognised = true;
  }
  if (!recognised) {
    return fail(MARGIN_FOLD_FAILED, `subscribe_margin_update.event: no member this client can fold (members: ${Object.keys(update).join(', ') || 'none'})`);
  }
  return ok({ state: next, sequence });
}
