// The margin insight views from parsed answers (shared/api/margin-schemas.ts): statistics, tier
// versions, activity entries and Turbo events as the windows show them. Members the spec leaves
// "not shown" that docs/protocol.md (Margin insights) reads are parsed here, at the boundary, and a
// wrong one is an error naming the field; members nobody reads are ignored.
import { z } from 'zod';
import type { MarginActivityEntry, MarginStatistics, Tier, TurboEvent } from '../../../shared/api/margin-schemas';
import { b256Schema, integerSchema } from '../../../shared/api/primitives';
import type { ActivityRow, MarginStatisticsView, TierVersionRow, TurboEventRow } from '../../../shared/ipc/views/margin-insights';
import { NO_EXPIRY } from '../../../shared/margin/expiry';
import { fail, ok, type Result } from '../../../shared/result';
import { parseWith } from '../../../shared/schema';
import { EXCHANGE_ERRORS } from '../../exchange/errors';
import { toMillis } from '../trading/trading-service';

const BAD = EXCHANGE_ERRORS.BAD_RESPONSE;

const U256_TEXT = /^\d{1,78}$/;

/** Activity members whose text is a raw amount (docs/sandbox.md lists the entries' members). */
const AMOUNT_KEYS = new Set(['amount', 'drawn_total', 'debt_total', 'collateral_total', 'received_total', 'fee', 'fees_total', 'cost', 'value', 'pnl', 'profit_share', 'profit_share_unpaid', 'collateral_returned', 'collateral_forfeited', 'returned_to_parent']);
/** Members shown elsewhere in the row, or not worth a note. */
const HIDDEN_KEYS = new Set(['asset_id', 'tx_id']);

export function statisticsView(body: MarginStatistics): MarginStatisticsView {
  return {
    activeSessions: body.active_sessions ?? null,
    activeLegacy: body.active_legacy ?? null,
    activeTurbo: body.active_turbo ?? null,
    frozen: body.frozen ?? null,
    liquidatable: body.liquidatable ?? null,
    closedSessions: body.closed_sessions ?? null,
    liquidatedSessions: body.liquidated_sessions ?? null,
    expiredSessions: body.expired_sessions ?? null,
    lent: Object.entries(body.lent ?? {}).map(([assetId, amount]) => ({ assetId, amount })),
    badDebt: body.bad_debt ?? null,
    poolPaused: body.pool_paused ?? null,
  };
}

/** The members of a tier version the history shows beyond shared/api's (docs/sandbox.md, tier body). */
const tierExtrasSchema = z
  .object({
    name: z.string().max(200).optional(),
    on_sale: z.boolean().optional(),
    published_at: integerSchema.optional(),
    collateral_asset_id: b256Schema.optional(),
  })
  .loose();

export interface TierHistory {
  readonly rows: readonly TierVersionRow[];
  /** The collateral asset the tiers name, where one does (the unit of activity amounts without an asset). */
  readonly collateralAssetId: string | null;
}

export function tierHistory(tiers: readonly Tier[]): Result<TierHistory> {
  const rows: TierVersionRow[] = [];
  let collateralAssetId: string | null = null;
  for (const [index, tier] of tiers.entries()) {
    const extras = parseWith(tierExtrasSchema, tier, `GET /v1/margin/tiers/history[${index}]`, BAD);
    if (!extras.ok) return extras;
    collateralAssetId ??= extras.value.collateral_asset_id ?? null;
    rows.push({
      tierId: tier.tier_id,
      version: tier.version,
      name: extras.value.name ?? null,
      cohort: tier.turbo === undefined ? 'Legacy' : 'Turbo',
      line: tier.line,
      threshold: tier.threshold,
      maxCreditLineBps: tier.max_credit_line_bps,
      profitShareBps: tier.profit_share_bps,
      durationSeconds: tier.duration >= NO_EXPIRY ? null : tier.duration,
      onSale: extras.value.on_sale ?? null,
      publishedAt: extras.value.published_at === undefined ? null : toMillis(extras.value.published_at),
    });
  }
  return ok({ rows, collateralAssetId });
}

/** Activity entries, newest first; amounts without an asset are counted in `collateralAssetId`. */
export function activityRows(entries: readonly MarginActivityEntry[], collateralAssetId: string | null, limit: number): Result<ActivityRow[]> {
  const rows: ActivityRow[] = [];
  for (const [index, entry] of entries.entries()) {
    const asset = entry.details.asset_id;
    if (asset !== undefined && asset !== null) {
      const checked = parseWith(b256Schema, asset, `GET /v1/margin/activity[${index}].details.asset_id`, BAD);
      if (!checked.ok) return checked;
    }
    const assetId = typeof asset === 'string' ? asset.toLowerCase() : collateralAssetId;
    const amounts: ActivityRow['amounts'][number][] = [];
    const notes: ActivityRow['notes'][number][] = [];
    for (const [key, value] of Object.entries(entry.details)) {
      if (HIDDEN_KEYS.has(key) || value === null) continue;
      if (AMOUNT_KEYS.has(key)) {
        if (typeof value !== 'string' || !U256_TEXT.test(value)) {
          const field = `GET /v1/margin/activity[${index}].details.${key}`;
          return fail(BAD, `${field}: expected an amount as a decimal string, got ${JSON.stringify(value).slice(0, 40)}`, { field });
        }
        amounts.push({ key, assetId, amount: BigInt(value) });
      } else notes.push({ key, text: String(value) });
    }
    rows.push({ sequence: entry.sequence, kind: entry.kind, time: toMillis(entry.timestamp), txId: entry.tx_id ?? null, amounts, notes });
  }
  rows.sort((a, b) => (a.sequence === b.sequence ? 0 : a.sequence > b.sequence ? -1 : 1));
  return ok(rows.slice(0, limit));
}

/** One event as a row. */
export function eventRow(event: TurboEvent): TurboEventRow {
  const base = { sequence: event.sequence ?? null, marketId: event.market_id ?? null, txId: event.tx_id ?? null };
  switch (event.type) {
    case 'SharedExecution':
      return { ...base, type: event.type, time: toMillis(event.timestamp), side: event.turbo_side, price: event.price, quantity: event.quantity, turboFee: event.turbo_fee_amount, role: event.house_execution_role, orderId: event.turbo_order_id };
    case 'SharedTradePerformed':
      return { ...base, type: event.type, time: toMillis(event.timestamp), side: null, price: event.price, quantity: event.quantity, turboFee: null, role: event.house_execution_role, orderId: event.turbo_order_id };
    case 'HouseOrderCreated':
      return { ...base, type: event.type, time: toMillis(event.timestamp), side: event.side, price: event.price, quantity: event.quantity, turboFee: null, role: null, orderId: event.order_id };
    case 'HouseOrderCompleted':
      return { ...base, type: event.type, time: toMillis(event.timestamp), side: null, price: null, quantity: null, turboFee: null, role: null, orderId: event.order_id };
    case 'SidecarChanged':
      return { ...base, type: event.type, time: null, side: null, price: null, quantity: null, turboFee: null, role: null, orderId: event.current };
  }
}
