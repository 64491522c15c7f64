// The margin reads the service needs, typed beyond what shared/api keeps: the REST client parses
// tiers, pool, discount and state as loose objects (members the spec leaves "not shown" pass
// through untouched), and this file narrows the members docs/protocol.md (Margin) and
// docs/sandbox.md define (capital, fees per period, required collateral, pool_id, discount_bps,
// margin_accounts, last_session). Every value is parsed here, at the boundary, with messages
// naming the field and the value.
import { z } from 'zod';
import type { MarginState, Tier } from '../../../shared/api/margin-schemas';
import { amountSchema, b256Schema, integerSchema } from '../../../shared/api/primitives';
import type { B256 } from '../../../shared/encoding/b256';
import { NO_EXPIRY, type Cohort, type LastSession, type MarginTier, type Period } from '../../../shared/margin/index';
import { fail, ok, type Result } from '../../../shared/result';
import { parseWith } from '../../../shared/schema';
import { responseFailure } from '../../exchange/errors';
import type { HttpFetch } from '../../exchange/http';
import type { ExchangeRestClient } from '../../exchange/rest-client';
import { MarginCodes } from './codes';

const PERIOD_KEYS = ['SixHours', 'Day', 'Week', 'Month'] as const satisfies readonly Period[];

// The REST client has already parsed the members shared/api names (to bigint) and passed the rest
// through as the wire's decimal strings: accept either, never a JSON number for money.
const amount = z.union([z.bigint().min(0n, 'expected >= 0'), amountSchema]);
const integer = z.union([z.bigint().min(0n, 'expected >= 0'), integerSchema]);

const perPeriod = z.partialRecord(z.enum(PERIOD_KEYS), amount);

/** The members of a tier version the formulas and the opening amount read (docs/sandbox.md, tier body). */
const tierTermsSchema = z
  .object({
    tier_id: z.string().max(20),
    version: integer,
    name: z.string().max(200).optional(),
    on_sale: z.boolean().optional(),
    line: amount,
    max_credit_line_bps: integer,
    capital: amount,
    threshold: amount,
    open_buffer: amount,
    maintenance: amount,
    profit_share_bps: integer,
    duration: integer,
    prolong_seconds: z.union([perPeriod, integer]).optional(),
    open_fee: amount.optional(),
    prolong_fee: perPeriod.optional(),
    required_collateral: amount.optional(),
    books: z.array(b256Schema).max(64).optional(),
    turbo: z
      .object({
        forfeit_collateral: z.boolean(),
        max_loss_bps: z.array(integer).min(1).max(16),
        rollover_profit_bps: integer,
        max_rollovers: z.number().int().min(0).max(1_000),
        term_seconds: integer,
      })
      .loose()
      .optional(),
  })
  .loose();

/** One tier version, as the service computes with it. */
export interface TierTerms {
  /** As the REST client parsed it (handed to the stream fold for sessions that start on it). */
  readonly wire: Tier;
  readonly tierId: string;
  readonly version: bigint;
  readonly name: string;
  readonly onSale: boolean;
  readonly cohort: Cohort;
  /** The shared/margin input. */
  readonly margin: MarginTier;
  readonly requiredCollateral: bigint;
  readonly openFee: bigint;
  readonly prolongFee: Readonly<Partial<Record<Period, bigint>>>;
  readonly prolongSeconds: Readonly<Partial<Record<Period, bigint>>>;
  readonly profitShareBps: bigint;
  readonly books: readonly B256[];
}

export function tierTerms(wire: Tier, field = 'tier'): Result<TierTerms> {
  const parsed = parseWith(tierTermsSchema, wire, field, MarginCodes.TIER_INCOMPLETE);
  if (!parsed.ok) return parsed;
  const tier = parsed.value;
  const turbo = tier.turbo;
  const prolongSeconds = typeof tier.prolong_seconds === 'bigint' || tier.prolong_seconds === undefined ? {} : tier.prolong_seconds;
  return ok({
    wire,
    tierId: tier.tier_id,
    version: tier.version,
    name: tier.name ?? `Tier ${tier.tier_id}`,
    onSale: tier.on_sale ?? true,
    cohort: turbo === undefined ? 'Legacy' : 'Turbo',
    margin: {
      line: tier.line,
      maxCreditLineBps: tier.max_credit_line_bps,
      capital: tier.capital,
      threshold: tier.threshold,
      openBuffer: tier.open_buffer,
      maintenance: tier.maintenance,
      duration: tier.duration,
      ...(turbo === undefined
        ? {}
        : {
            turbo: {
              maxLossBps: turbo.max_loss_bps,
              rolloverProfitBps: turbo.rollover_profit_bps,
              maxRollovers: turbo.max_rollovers,
              termSeconds: turbo.term_seconds,
              forfeitCollateral: turbo.forfeit_collateral,
            },
          }),
    },
    requiredCollateral: tier.required_collateral ?? 0n,
    openFee: tier.open_fee ?? 0n,
    prolongFee: tier.prolong_fee ?? {},
    prolongSeconds,
    profitShareBps: tier.profit_share_bps,
    books: tier.books ?? [],
  });
}

export function tierIsNoExpiry(terms: TierTerms): boolean {
  return terms.margin.duration === NO_EXPIRY || terms.margin.turbo?.termSeconds === NO_EXPIRY;
}

/** GET /v1/accounts?owner=: the `margin_accounts` the sandbox (and docs/sandbox.md) lists. */
const childrenSchema = z
  .object({
    trade_account_id: b256Schema,
    margin_accounts: z
      .array(
        z
          .object({
            trade_account_id: b256Schema,
            index: integer,
            parent: b256Schema.optional(),
            margin_session: z.enum(['Active', 'None']).optional(),
          })
          .loose(),
      )
      .max(1_000)
      .optional(),
  })
  .loose();

export interface ChildAccount {
  readonly marginAccountId: B256;
  readonly index: bigint;
  readonly hasSession: boolean;
}

const discountSchema = z.object({ discount_bps: integer.optional() }).loose();
const poolSchema = z.object({ pool_id: b256Schema.optional(), paused: z.boolean(), collateral_asset_id: b256Schema.optional(), inventory: z.record(z.string(), amount) }).loose();

export interface PoolView {
  readonly poolId: B256 | null;
  readonly paused: boolean;
  readonly collateralAssetId: B256 | null;
  readonly inventory: Readonly<Record<string, bigint>>;
}

const settlementSchema = z
  .object({
    pnl: z.union([z.bigint(), z.string().regex(/^-?\d{1,80}$/, 'expected a signed decimal string').transform(BigInt)]).optional(),
    profit_share: amount.optional(),
    collateral_returned: amount.optional(),
    collateral_forfeited: amount.optional(),
    /** A JSON text of {asset: amount} (docs/sandbox.md), or the object itself. */
    returned_to_parent: z.union([z.string().max(10_000), z.record(z.string(), z.string())]).optional(),
  })
  .loose();

const lastSessionSchema = z
  .object({
    status: z.enum(['Closed', 'Liquidated', 'Expired']),
    ended_at: integer.optional(),
    settlement: settlementSchema.nullable().optional(),
  })
  .loose();

/**
 * A settlement's `returned_to_parent`: a JSON text of {asset: raw amount} (docs/sandbox.md) or the
 * object itself, as holdings; null when it is absent or unreadable.
 */
export function returnedToParentOf(value: unknown): { readonly assetId: string; readonly amount: bigint }[] | null {
  let returned: unknown = value;
  if (typeof value === 'string') {
    try {
      returned = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  if (returned === null || typeof returned !== 'object' || Array.isArray(returned)) return null;
  return Object.entries(returned as Record<string, unknown>)
    .filter((entry): entry is [string, string] => /^0x[0-9a-f]{64}$/.test(entry[0]) && typeof entry[1] === 'string' && /^\d{1,80}$/.test(entry[1]))
    .map(([assetId, amount]) => ({ assetId, amount: BigInt(amount) }));
}

/** `last_session` of the state (GET, or folded from an ending activity); null when absent or unreadable. */
export function lastSessionOf(state: MarginState): LastSession | null {
  const raw = (state as Record<string, unknown>).last_session;
  if (raw === undefined || raw === null) return null;
  const parsed = lastSessionSchema.safeParse(raw);
  if (!parsed.success) return null;
  const settlement = parsed.data.settlement ?? {};
  const returnedToParent = returnedToParentOf(settlement.returned_to_parent) ?? [];
  return {
    status: parsed.data.status,
    endedAt: parsed.data.ended_at ?? null,
    pnl: settlement.pnl ?? null,
    profitShare: settlement.profit_share ?? null,
    collateralReturned: settlement.collateral_returned ?? null,
    collateralForfeited: settlement.collateral_forfeited ?? null,
    returnedToParent,
  };
}

/** `pool` of the state (docs/sandbox.md), when the service embeds it. */
export function poolOfState(state: MarginState): PoolView | null {
  const raw = (state as Record<string, unknown>).pool;
  if (raw === undefined) return null;
  const parsed = poolSchema.safeParse(raw);
  return parsed.success ? poolView(parsed.data) : null;
}

/** `pool_paused` folded from the stream, else the embedded pool's flag. */
export function poolPausedOf(state: MarginState): boolean | null {
  const folded = (state as Record<string, unknown>).pool_paused;
  if (typeof folded === 'boolean') return folded;
  return poolOfState(state)?.paused ?? null;
}

function poolView(body: z.output<typeof poolSchema>): PoolView {
  return { poolId: body.pool_id ?? null, paused: body.paused, collateralAssetId: body.collateral_asset_id ?? null, inventory: body.inventory };
}

export interface MarginReadsOptions {
  readonly rest: ExchangeRestClient;
  readonly baseUrl: string;
  readonly fetch: HttpFetch;
  readonly timeoutMs?: number;
}

export class MarginReads {
  constructor(private readonly options: MarginReadsOptions) {}

  async tiers(): Promise<Result<TierTerms[]>> {
    const listed = await this.options.rest.getMarginTiers();
    if (!listed.ok) return listed;
    const terms: TierTerms[] = [];
    for (const [index, wire] of listed.value.entries()) {
      const parsed = tierTerms(wire, `GET /v1/margin/tiers[${index}]`);
      if (!parsed.ok) return parsed;
      terms.push(parsed.value);
    }
    return ok(terms);
  }

  async pool(): Promise<Result<PoolView>> {
    const read = await this.options.rest.getMarginPool();
    if (!read.ok) return read;
    const parsed = parseWith(poolSchema, read.value, 'GET /v1/margin/pool', MarginCodes.TIER_INCOMPLETE);
    return parsed.ok ? ok(poolView(parsed.value)) : parsed;
  }

  /** The owner's discount in bps (0 when the service names none). */
  async discountBps(owner: B256): Promise<Result<bigint>> {
    const read = await this.options.rest.getMarginDiscount(owner);
    if (!read.ok) return read;
    const parsed = parseWith(discountSchema, read.value, 'GET /v1/margin/discount');
    if (!parsed.ok) return parsed;
    const bps = parsed.value.discount_bps ?? 0n;
    if (bps > 10_000n) return fail(MarginCodes.TIER_INCOMPLETE, `GET /v1/margin/discount.discount_bps: expected 0..10000, got ${bps}`, { field: 'discount_bps' });
    return ok(bps);
  }

  async nextAccount(parent: B256): Promise<Result<{ marginAccountId: B256; index: bigint }>> {
    const read = await this.options.rest.getMarginNextAccount(parent);
    if (!read.ok) return read;
    return ok({ marginAccountId: read.value.contract_id, index: read.value.index });
  }

  state(account: B256): Promise<Result<MarginState>> {
    return this.options.rest.getMarginState(account);
  }

  async cleanups(account: B256): Promise<Result<{ order_book_id: B256; order_ids: B256[] }[]>> {
    return this.options.rest.getMarginCloseCleanups(account);
  }

  /**
   * The registered children of the owner's trading account, in index order. The REST client's
   * account lookup keeps only the spec's members, so this reads the body itself (no rate rule
   * applies to GET /v1/accounts, as in the REST client).
   */
  async children(owner: B256, parent: B256): Promise<Result<ChildAccount[]>> {
    const label = 'GET /v1/accounts';
    const response = await this.options.fetch({ method: 'GET', url: `${this.options.baseUrl}/v1/accounts?owner=${encodeURIComponent(owner)}`, timeoutMs: this.options.timeoutMs ?? 10_000 });
    if (!response.ok) return response;
    const failure = responseFailure({ label, write: false, signed: false, parallelNonce: false }, response.value.status, response.value.body);
    if (failure !== null) return failure;
    const parsed = parseWith(childrenSchema, response.value.body, label);
    if (!parsed.ok) return parsed;
    if (parsed.value.trade_account_id !== parent) return ok([]);
    const children = (parsed.value.margin_accounts ?? []).map((child) => ({ marginAccountId: child.trade_account_id, index: child.index, hasSession: child.margin_session === 'Active' }));
    children.sort((left, right) => (left.index < right.index ? -1 : left.index > right.index ? 1 : 0));
    return ok(children);
  }
}
