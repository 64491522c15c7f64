// Margin (Turbo) reads and events (margin-api 2.2-2.5, 4.1, 6). Members the spec names are typed;
// members it leaves "not shown" follow docs/protocol.md (Margin) (★ there) and unknown extras pass
// through untouched, so a newer service does not break parsing.
import { z } from 'zod';
import { amountSchema, b256ListSchema, b256Schema, integerSchema, sideSchema, u64Schema } from './primitives';

export const cohortSchema = z.enum(['Legacy', 'Turbo']);

export const tierTurboSchema = z
  .object({
    forfeit_collateral: z.boolean(),
    max_loss_bps: z.array(integerSchema),
    rollover_profit_bps: integerSchema,
    max_rollovers: z.number().int().min(0),
    term_seconds: integerSchema,
    rollover_window_seconds: integerSchema.optional(),
  })
  .loose();

/** A tier version. The cohort is the presence of `turbo` (omitted, never null, on legacy tiers). */
export const tierSchema = z
  .object({
    tier_id: z.string(),
    version: integerSchema,
    line: amountSchema,
    max_credit_line_bps: integerSchema,
    threshold: amountSchema,
    open_buffer: amountSchema,
    maintenance: amountSchema,
    profit_share_bps: integerSchema,
    duration: integerSchema,
    // Per period (margin 2.2 "prolong_seconds (per period)"); a single number is still accepted.
    prolong_seconds: z.union([integerSchema, z.record(z.string(), integerSchema)]).optional(),
    capital: amountSchema.optional(),
    books: b256ListSchema.optional(),
    open_fee: amountSchema.optional(),
    prolong_fee: z.unknown().optional(),
    turbo: tierTurboSchema.optional(),
  })
  .loose();

/** GET /v1/margin/tiers and /tiers/history: an array, or an object holding `tiers`. */
export const tiersResponseSchema = z.union([z.array(tierSchema), z.object({ tiers: z.array(tierSchema) }).transform((body) => body.tiers)]);

/** A signed amount (decimal string, optional leading minus), |value| at most u256: the PnL basis may be negative. */
const signedAmountSchema = z
  .string({ error: 'expected a signed amount as a decimal string' })
  .regex(/^-?(0|[1-9][0-9]{0,77})$/, 'expected a signed amount as a decimal string (digits with an optional leading minus, no leading zeros)')
  .transform((value) => BigInt(value))
  .refine((value) => (value < 0n ? -value : value) < 2n ** 256n, 'expected a signed amount of magnitude below 2^256');

export const marginSessionSchema = z
  .object({
    cohort: cohortSchema.optional(),
    collateral: amountSchema,
    fees: amountSchema,
    quote_drawn: amountSchema,
    // ★ docs/protocol.md (Margin) 3.2: the basis of realized profit; absent on services that do not publish it.
    pnl_basis: signedAmountSchema.optional(),
    credit_line: amountSchema.optional(),
    expires_at: integerSchema,
    tier_id: z.string().optional(),
    version: integerSchema.optional(),
  })
  .loose();

export const rolloverSchema = z
  .object({
    anchor: amountSchema,
    withdrawn: amountSchema,
    outside: amountSchema,
    rollovers_used: z.number().int().min(0),
    max_rollovers: z.number().int().min(0),
    profit_required: amountSchema.optional(),
    eligible_now: z.boolean().optional(),
  })
  .loose();

export const marginBalanceSchema = z.object({ on_account: amountSchema, received: amountSchema, locked: amountSchema, settled: amountSchema, debt: amountSchema });

/** 1e18-scaled prices of one asset. */
export const marginPriceSchema = z.object({
  bid: amountSchema,
  ask: amountSchema,
  decimals: z.number().int().min(0).max(77),
  timestamp: integerSchema.optional(),
  stale: z.boolean().optional(),
});

export const riskParamsSchema = z
  .object({
    stress_band_bps: z.record(z.string(), integerSchema).optional(),
    default_stress_band_bps: integerSchema.optional(),
    absorption_band_bps: z.record(z.string(), integerSchema).optional(),
    default_absorption_band_bps: integerSchema.optional(),
  })
  .loose();

/** GET /v1/margin/state, and `state` of the first subscribe_margin message. */
export const marginStateSchema = z
  .object({
    session: marginSessionSchema.nullable().optional(),
    tier: tierSchema.nullable().optional(),
    rollover: rolloverSchema.optional(),
    balances: z.record(z.string(), marginBalanceSchema),
    prices: z.record(z.string(), marginPriceSchema),
    collateral_decimals: z.number().int().min(0).max(77),
    collateral_asset_id: b256Schema.optional(),
    discount: z.unknown().optional(),
    risk_params: riskParamsSchema.optional(),
  })
  .loose();

/** GET /v1/margin/pool */
export const marginPoolSchema = z.object({ paused: z.boolean(), inventory: z.record(z.string(), amountSchema) }).loose();

/** GET /v1/margin/next-account */
export const nextMarginAccountSchema = z.object({ contract_id: b256Schema, index: integerSchema, configurables: z.unknown().optional() }).loose();

/** GET /v1/margin/close-cleanups: exactly what CloseMarginSession must carry. Array, or `{cleanups}`. */
const cleanupSchema = z.object({ order_book_id: b256Schema, order_ids: z.array(b256Schema) });
export const closeCleanupsResponseSchema = z.union([z.array(cleanupSchema), z.object({ cleanups: z.array(cleanupSchema) }).transform((body) => body.cleanups)]);

/** GET /v1/margin/discount: members not shown; kept as a loose object. */
export const marginDiscountSchema = z.object({}).loose();

/** A count of sessions (docs/protocol.md, Margin insights): a safe integer or its decimal text. */
const countSchema = integerSchema.refine((value) => value <= BigInt(Number.MAX_SAFE_INTEGER), 'expected a count below 2^53').transform((value) => Number(value));

/**
 * GET /v1/margin/statistics: members not shown by the spec; the ones docs/protocol.md (Margin
 * insights) reads are typed when present, others pass through.
 */
export const marginStatisticsSchema = z
  .object({
    active_sessions: countSchema.optional(),
    active_legacy: countSchema.optional(),
    active_turbo: countSchema.optional(),
    frozen: countSchema.optional(),
    liquidatable: countSchema.optional(),
    closed_sessions: countSchema.optional(),
    liquidated_sessions: countSchema.optional(),
    expired_sessions: countSchema.optional(),
    /** Outstanding loans per asset id, raw units. */
    lent: z.record(b256Schema, amountSchema).optional(),
    /** In the collateral asset's raw units. */
    bad_debt: amountSchema.optional(),
    pool_paused: z.boolean().optional(),
  })
  .loose();

/** One entry of GET /v1/margin/activity: what happened to the account, when, and its figures as text. */
export const marginActivityEntrySchema = z
  .object({
    sequence: integerSchema,
    kind: z.string().min(1).max(64),
    /** Unix seconds. */
    timestamp: integerSchema,
    tx_id: z.string().max(80).nullable().optional(),
    details: z.record(z.string().max(64), z.union([z.string().max(200), z.boolean(), z.null()])).default({}),
  })
  .loose();

/** GET /v1/margin/activity: an array of entries, or an object holding `activity`. */
export const marginActivitySchema = z.union([z.array(marginActivityEntrySchema), z.object({ activity: z.array(marginActivityEntrySchema) }).loose().transform((body) => body.activity)]);

/**
 * Members every event may carry beyond margin 6's table: the envelope is not shown, so these are
 * optional (docs/protocol.md, Margin insights: a sequence to page on, the book, the transaction).
 */
const eventMeta = {
  sequence: integerSchema.optional(),
  market_id: b256Schema.optional(),
  tx_id: z.string().max(80).nullable().optional(),
};

/** GET /v1/events (Turbo book activity). */
export const turboEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('SharedExecution'),
    house_order_id: b256Schema,
    source_order_id: b256Schema,
    turbo_order_id: b256Schema,
    house_trader: z.unknown(),
    turbo_trader: z.unknown(),
    turbo_side: sideSchema,
    house_execution_role: z.enum(['Maker', 'Taker']),
    quantity: u64Schema,
    price: u64Schema,
    house_fee_amount: amountSchema,
    turbo_fee_amount: amountSchema,
    timestamp: integerSchema,
    ...eventMeta,
  }),
  z.object({
    type: z.literal('SharedTradePerformed'),
    source_order_id: b256Schema,
    turbo_order_id: b256Schema,
    house_execution_role: z.enum(['Maker', 'Taker']),
    quantity: u64Schema,
    price: u64Schema,
    timestamp: integerSchema,
    ...eventMeta,
  }),
  z.object({
    type: z.literal('HouseOrderCreated'),
    canonical_book: b256Schema,
    order_id: b256Schema,
    source_order_id: b256Schema,
    trader: z.unknown(),
    side: sideSchema,
    price: u64Schema,
    quantity: u64Schema,
    timestamp: integerSchema,
    ...eventMeta,
  }),
  z.object({ type: z.literal('HouseOrderCompleted'), order_id: b256Schema, timestamp: integerSchema, ...eventMeta }),
  z.object({ type: z.literal('SidecarChanged'), previous: b256Schema.nullable(), current: b256Schema.nullable(), ...eventMeta }),
]);

/** The envelope of GET /v1/events is not shown: an array, or an object holding `events`. */
export const turboEventsResponseSchema = z.union([z.array(turboEventSchema), z.object({ events: z.array(turboEventSchema) }).loose().transform((body) => body.events)]);

/**
 * GET /v1/events as a page: the events, and where the envelope says so (docs/protocol.md, Margin
 * insights) the sequence to pass back as `after` and the latest sequence; null when it does not.
 */
export const turboEventsPageSchema = z.union([
  z.array(turboEventSchema).transform((events) => ({ events, nextAfter: null, latest: null })),
  z
    .object({ events: z.array(turboEventSchema), next_after: integerSchema.nullable().optional(), latest: integerSchema.optional() })
    .loose()
    .transform((body) => ({ events: body.events, nextAfter: body.next_after ?? null, latest: body.latest ?? null })),
]);

export type Tier = z.output<typeof tierSchema>;
export type MarginState = z.output<typeof marginStateSchema>;
export type MarginPool = z.output<typeof marginPoolSchema>;
export type TurboEvent = z.output<typeof turboEventSchema>;
export type TurboEventsPage = z.output<typeof turboEventsPageSchema>;
export type MarginStatistics = z.output<typeof marginStatisticsSchema>;
export type MarginActivityEntry = z.output<typeof marginActivityEntrySchema>;
