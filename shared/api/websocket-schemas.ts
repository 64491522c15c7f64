// WebSocket messages of both documents (spec 6, margin 4.6 and 6): the requests a client sends
// (schemas for the sandbox, builders for the client) and the messages the server pushes.
// Text `PING`/`PONG` frames are not JSON and are handled by the socket owner.
import { z } from 'zod';
import type { B256 } from '../encoding/b256';
import { identityToJson, type Identity } from '../encoding/identity';
import { MAX_IDENTITIES_PER_REQUEST } from './limits';
import { marginStateSchema } from './margin-schemas';
import { activeTriggerSchema, bookBalanceSchema, depthLevelSchema, orderSchema, tradeSchema } from './market-schemas';
import { b256Schema, balanceAmountSchema, identitySchema, integerSchema, u128Schema, u64Schema } from './primitives';

export const DEPTH_PRECISIONS = ['10', '100', '1000', '10000', '100000', '1000000', '10000000', '100000000', '1000000000'] as const;
export const DEPTH_VIEW_FREQUENCIES = ['100ms', '500ms', '1s', '3s'] as const;

const precisionSchema = z.enum(DEPTH_PRECISIONS, { error: 'expected a depth precision that is a power of ten from 10 to 1000000000' });
const turboViewSchema = z.enum(['executable', 'demand']);
const identitiesSchema = z.array(identitySchema).min(1).max(MAX_IDENTITIES_PER_REQUEST, `at most ${MAX_IDENTITIES_PER_REQUEST} identities per request`);
const marketTopic = { market_id: b256Schema, turbo: z.boolean().optional(), view: turboViewSchema.optional() };

/** Every request a client may send, as the sandbox parses it. */
export const clientRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('subscribe_depth'), ...marketTopic, precision: precisionSchema }),
  z.object({ action: z.literal('subscribe_depth_view'), ...marketTopic, precision: precisionSchema, frequency: z.string() }),
  z.object({ action: z.literal('subscribe_trades'), market_id: b256Schema, turbo: z.boolean().optional() }),
  z.object({ action: z.literal('subscribe_orders'), identities: identitiesSchema, turbo: z.boolean().optional() }),
  z.object({ action: z.literal('subscribe_balances'), identities: identitiesSchema }),
  z.object({ action: z.literal('subscribe_nonce'), identities: identitiesSchema }),
  z.object({ action: z.literal('subscribe_nonce_v2'), identities: identitiesSchema }),
  z.object({ action: z.literal('subscribe_margin'), margin_account_id: b256Schema }),
  z.object({ action: z.literal('unsubscribe_depth'), ...marketTopic }),
  z.object({ action: z.literal('unsubscribe_depth_view'), ...marketTopic }),
  z.object({ action: z.literal('unsubscribe_trades'), market_id: b256Schema, turbo: z.boolean().optional() }),
  z.object({ action: z.literal('unsubscribe_orders'), turbo: z.boolean().optional() }),
  z.object({ action: z.literal('unsubscribe_balances'), identities: identitiesSchema }),
  z.object({ action: z.literal('unsubscribe_nonce'), identities: identitiesSchema }),
  z.object({ action: z.literal('unsubscribe_nonce_v2'), identities: identitiesSchema }),
  z.object({ action: z.literal('unsubscribe_margin') }),
]);
export type ClientRequest = z.output<typeof clientRequestSchema>;

/** `frequency` is checked after the action so the service's own error text can be reproduced. */
export function isDepthViewFrequency(value: string): value is (typeof DEPTH_VIEW_FREQUENCIES)[number] {
  return (DEPTH_VIEW_FREQUENCIES as readonly string[]).includes(value);
}

// Builders: the exact JSON a client sends.
export interface MarketTopicOptions {
  readonly turbo?: boolean;
  readonly view?: 'executable' | 'demand';
}

function topicOptions(options: MarketTopicOptions): { turbo?: boolean; view?: string } {
  return { ...(options.turbo === undefined ? {} : { turbo: options.turbo }), ...(options.view === undefined ? {} : { view: options.view }) };
}

export function subscribeDepthRequest(marketId: B256, precision: bigint, options: MarketTopicOptions = {}) {
  return { action: 'subscribe_depth', market_id: marketId, precision: precision.toString(), ...topicOptions(options) };
}
export function subscribeDepthViewRequest(marketId: B256, precision: bigint, frequency: (typeof DEPTH_VIEW_FREQUENCIES)[number], options: MarketTopicOptions = {}) {
  return { action: 'subscribe_depth_view', market_id: marketId, precision: precision.toString(), frequency, ...topicOptions(options) };
}
export function subscribeTradesRequest(marketId: B256, turbo?: boolean) {
  return { action: 'subscribe_trades', market_id: marketId, ...(turbo === undefined ? {} : { turbo }) };
}
export function identitiesRequest(action: 'subscribe_orders' | 'subscribe_balances' | 'subscribe_nonce' | 'subscribe_nonce_v2' | 'unsubscribe_balances' | 'unsubscribe_nonce' | 'unsubscribe_nonce_v2', identities: readonly Identity[], turbo?: boolean) {
  return { action, identities: identities.map(identityToJson), ...(turbo === undefined || action !== 'subscribe_orders' ? {} : { turbo }) };
}
export function unsubscribeMarketRequest(action: 'unsubscribe_depth' | 'unsubscribe_depth_view' | 'unsubscribe_trades', marketId: B256, options: MarketTopicOptions = {}) {
  return { action, market_id: marketId, ...topicOptions(options) };
}
export function unsubscribeOrdersRequest(turbo?: boolean) {
  return { action: 'unsubscribe_orders', ...(turbo === undefined ? {} : { turbo }) };
}
export function subscribeMarginRequest(marginAccountId: B256) {
  return { action: 'subscribe_margin', margin_account_id: marginAccountId };
}
export function unsubscribeMarginRequest() {
  return { action: 'unsubscribe_margin' };
}

// Server messages.
const stamps = { onchain_timestamp: integerSchema.nullable().optional(), seen_timestamp: integerSchema.optional(), turbo: z.boolean().optional() };
const sides = z.object({ buys: z.array(depthLevelSchema), sells: z.array(depthLevelSchema) });

function depthLevels<T extends { view?: z.output<typeof sides> | undefined; orders?: z.output<typeof sides> | undefined }>(body: T, context: z.RefinementCtx): void {
  if (body.view === undefined && body.orders === undefined) context.addIssue({ code: 'custom', message: 'expected the levels under view or orders', path: ['view'] });
}

export const balanceUpdateSchema = z.object({
  identity: identitySchema,
  asset_id: b256Schema,
  total_locked: balanceAmountSchema,
  total_unlocked: balanceAmountSchema,
  trading_account_balance: balanceAmountSchema,
  order_books: z.record(z.string(), bookBalanceSchema),
});

export const parallelWindowUpdateSchema = z.object({
  contract_id: b256Schema,
  nonce_session_id: z.number().int().min(0).max(4),
  base: u128Schema,
  slots: z.array(z.object({ word_position: u128Schema, bitmap: u128Schema })).max(8),
});

const dataMessages = z.discriminatedUnion('action', [
  z
    .object({ action: z.literal('subscribe_depth'), market_id: b256Schema, view: sides.optional(), orders: sides.optional(), ...stamps })
    .superRefine(depthLevels)
    .transform((body) => ({ ...body, levels: (body.view ?? body.orders)! })),
  z.object({ action: z.literal('subscribe_depth_update'), market_id: b256Schema.optional(), changes: sides, ...stamps }),
  z
    .object({ action: z.literal('subscribe_depth_view'), market_id: b256Schema, view: sides.optional(), orders: sides.optional(), ...stamps })
    .superRefine(depthLevels)
    .transform((body) => ({ ...body, levels: (body.view ?? body.orders)! })),
  z.object({ action: z.literal('subscribe_trades'), market_id: b256Schema.optional(), trades: z.array(tradeSchema), confirmed: z.boolean().optional(), indexed_height: integerSchema.optional(), ...stamps }),
  // `triggers` (ours): trigger legs whose state changed, docs/protocol.md "Trigger orders".
  z.object({ action: z.literal('subscribe_orders'), orders: z.array(orderSchema), triggers: z.array(activeTriggerSchema).optional(), ...stamps }),
  z.object({ action: z.literal('subscribe_balances'), balance: z.array(balanceUpdateSchema), ...stamps }),
  z.object({ action: z.literal('subscribe_nonce'), contract_id: b256Schema, nonce: u64Schema, ...stamps }),
  z.object({
    action: z.literal('subscribe_nonce_v2'),
    update: z.union([
      z.strictObject({ sequential: z.object({ contract_id: b256Schema, nonce: u64Schema }) }),
      z.strictObject({ parallel: parallelWindowUpdateSchema }),
    ]),
    ...stamps,
  }),
  z.object({ action: z.literal('subscribe_margin'), state: marginStateSchema, ...stamps }),
  // The event payload is not shown; it is folded by shared/margin's owner.
  z.object({ action: z.literal('subscribe_margin_update'), event: z.unknown(), ...stamps }),
  // A restarted Turbo trade stream closes the subscription and asks for a resubscribe.
  z.object({ action: z.literal('error'), message: z.string(), turbo: z.boolean().optional(), resync_required: z.boolean().optional() }),
]);

/** Any JSON message from the server: a data message by `action`, or a stream error `{error}`. */
export const serverMessageSchema = z.union([dataMessages, z.object({ error: z.string() }).transform((body) => ({ action: 'stream_error' as const, error: body.error }))]);
export type ServerMessage = z.output<typeof serverMessageSchema>;
