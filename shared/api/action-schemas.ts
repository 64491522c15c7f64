// JSON actions of request bodies back to the typed values of shared/protocol, so a receiver (the
// sandbox) can rebuild the exact signed bytes with the same encoder the client used. The inverse of
// shared/protocol/action-json.ts.
import { z } from 'zod';
import type { OrderType } from '../market/order-type';
import { MARGIN_PERIODS, type OwnerAction, type SessionAction, type SessionActionKind } from '../protocol/actions';
import type { TriggerKind, TriggerLeg, TriggerQuantity } from '../protocol/trigger';
import { b256Schema, identitySchema, orderTypeSchema, sideSchema, u64Schema } from './primitives';

export const marginPeriodSchema = z.enum(MARGIN_PERIODS);

export const triggerKindSchema: z.ZodType<TriggerKind, unknown> = z.union(
  [
    z.literal('Market').transform((): TriggerKind => ({ kind: 'Market' })),
    z
      .strictObject({ MarketBounded: z.object({ max_price: u64Schema, min_price: u64Schema }) })
      .transform(({ MarketBounded: bounds }): TriggerKind => ({ kind: 'MarketBounded', max_price: bounds.max_price, min_price: bounds.min_price })),
    z.strictObject({ Spot: z.object({ price: u64Schema }) }).transform(({ Spot: spot }): TriggerKind => ({ kind: 'Spot', price: spot.price })),
  ],
  { error: 'expected "Market", {MarketBounded: {max_price, min_price}} or {Spot: {price}}' },
);

export const triggerQuantitySchema: z.ZodType<TriggerQuantity, unknown> = z.union(
  [
    z.strictObject({ Quantity: z.object({ quantity: u64Schema }) }).transform(({ Quantity: value }): TriggerQuantity => ({ kind: 'Quantity', quantity: value.quantity })),
    z
      .strictObject({ ParentOrder: z.object({ parent_order_id: b256Schema }) })
      .transform(({ ParentOrder: value }): TriggerQuantity => ({ kind: 'ParentOrder', parent_order_id: value.parent_order_id })),
  ],
  { error: 'expected {Quantity: {quantity}} or {ParentOrder: {parent_order_id}}' },
);

export const triggerLegSchema: z.ZodType<TriggerLeg, unknown> = z.object({
  order_type: triggerKindSchema,
  quantity: triggerQuantitySchema,
  trigger_price: u64Schema,
  side: sideSchema,
});

const triggerParentSchema = z.object({ order_id: b256Schema, expected_quantity: u64Schema });

// Spec 2.4: Spot is the default order type when `order_type` is absent.
const orderFields = { side: sideSchema, price: u64Schema, quantity: u64Schema, order_type: orderTypeSchema.optional().transform((type): OrderType => type ?? { kind: 'Spot' }) };
const assetAmount = { asset_id: b256Schema, amount: u64Schema };

/** The body schema of each session action, producing the typed action. */
const ACTION_BODIES: { readonly [Kind in SessionActionKind]: z.ZodType<Extract<SessionAction, { kind: Kind }>, unknown> } = {
  CreateOrder: z.object(orderFields).transform((body) => ({ kind: 'CreateOrder' as const, ...body })),
  CancelOrder: z.object({ order_id: b256Schema }).transform((body) => ({ kind: 'CancelOrder' as const, ...body })),
  SettleBalance: z.object({ to: identitySchema }).transform((body) => ({ kind: 'SettleBalance' as const, ...body })),
  RegisterReferer: z.object({ to: identitySchema }).transform((body) => ({ kind: 'RegisterReferer' as const, ...body })),
  CreateOrderWithTriggers: z
    .object({ ...orderFields, trigger_1: triggerLegSchema, trigger_2: triggerLegSchema.optional() })
    .transform(({ trigger_2: second, ...body }) => ({ kind: 'CreateOrderWithTriggers' as const, ...body, ...(second === undefined ? {} : { trigger_2: second }) })),
  CreateTriggerOrder: z
    .object({ args: triggerLegSchema, parent: triggerParentSchema.optional() })
    .transform(({ parent, args }) => ({ kind: 'CreateTriggerOrder' as const, args, ...(parent === undefined ? {} : { parent }) })),
  CreateTriggerOrders: z
    .object({ first: triggerLegSchema, second: triggerLegSchema, parent: triggerParentSchema.optional() })
    .transform(({ parent, first, second }) => ({ kind: 'CreateTriggerOrders' as const, first, second, ...(parent === undefined ? {} : { parent }) })),
  CancelTriggerOrder: z.object({ order_id: b256Schema }).transform((body) => ({ kind: 'CancelTriggerOrder' as const, ...body })),
  CreateSharedOrder: z
    .object({
      side: sideSchema,
      price: u64Schema,
      quantity: u64Schema,
      order_type: z.enum(['Spot', 'PostOnly'], { error: 'a shared order is Spot or PostOnly' }).default('PostOnly'),
    })
    .transform(({ order_type: type, ...body }) => ({ kind: 'CreateSharedOrder' as const, ...body, order_type: { kind: type } as Extract<OrderType, { kind: 'Spot' | 'PostOnly' }> })),
  ExecuteTurboOrders: z
    .object({ source_order_id: b256Schema, max_base_quantity: u64Schema, max_fills: u64Schema })
    .transform((body) => ({ kind: 'ExecuteTurboOrders' as const, ...body })),
  RegisterMarginAccount: z.object({ margin_account_id: b256Schema, index: u64Schema }).transform((body) => ({ kind: 'RegisterMarginAccount' as const, ...body })),
  StartMarginSession: z
    .object({ margin_account_id: b256Schema, tier_id: u64Schema, amount: u64Schema, period: marginPeriodSchema })
    .transform((body) => ({ kind: 'StartMarginSession' as const, ...body })),
  CloseMarginSession: z
    .object({ margin_account_id: b256Schema, cleanups: z.array(z.object({ order_book_id: b256Schema, order_ids: z.array(b256Schema) })) })
    .transform((body) => ({ kind: 'CloseMarginSession' as const, ...body })),
  WithdrawFromMarginAccount: z
    .object({ margin_account_id: b256Schema, ...assetAmount })
    .transform((body) => ({ kind: 'WithdrawFromMarginAccount' as const, ...body })),
  Draw: z.object({ amount: u64Schema }).transform((body) => ({ kind: 'Draw' as const, ...body })),
  ReturnQuote: z.object({ amount: u64Schema }).transform((body) => ({ kind: 'ReturnQuote' as const, ...body })),
  Borrow: z.object(assetAmount).transform((body) => ({ kind: 'Borrow' as const, ...body })),
  Repay: z.object(assetAmount).transform((body) => ({ kind: 'Repay' as const, ...body })),
  RepayFromCollateral: z.object({ amount: u64Schema }).transform((body) => ({ kind: 'RepayFromCollateral' as const, ...body })),
  RepayBaseFromCollateral: z.object(assetAmount).transform((body) => ({ kind: 'RepayBaseFromCollateral' as const, ...body })),
  AddCollateral: z.object({ amount: u64Schema }).transform((body) => ({ kind: 'AddCollateral' as const, ...body })),
  WithdrawFromMargin: z.object(assetAmount).transform((body) => ({ kind: 'WithdrawFromMargin' as const, ...body })),
  ProlongSession: z.object({ period: marginPeriodSchema, times: u64Schema }).transform((body) => ({ kind: 'ProlongSession' as const, ...body })),
  SetAutoProlong: z.object({ period: marginPeriodSchema.nullable() }).transform((body) => ({ kind: 'SetAutoProlong' as const, ...body })),
};

const OWNER_ACTION_BODIES: Record<OwnerAction['kind'], z.ZodType<OwnerAction, unknown>> = {
  SettleBalance: ACTION_BODIES.SettleBalance,
  Whitelist: z.object({ account: identitySchema }).transform((body) => ({ kind: 'Whitelist' as const, ...body })),
};

/** `{"<Kind>": {…}}` with exactly one known key, dispatched to that kind's body schema. */
function singleKeySchema<T>(bodies: Record<string, z.ZodType<T, unknown>>, what: string): z.ZodType<T, unknown> {
  const names = Object.keys(bodies).join(', ');
  return z.unknown().transform((value, context): T => {
    const keys = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
    const kind = keys[0];
    const body = kind === undefined ? undefined : bodies[kind];
    if (keys.length !== 1 || body === undefined) {
      context.issues.push({ code: 'custom', message: `expected one ${what} object with exactly one key of: ${names}`, input: value });
      return z.NEVER;
    }
    const parsed = body.safeParse((value as Record<string, unknown>)[kind!], { reportInput: true });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) context.issues.push({ ...issue, path: [kind!, ...issue.path] } as never);
    return z.NEVER;
  });
}

export const sessionActionSchema = singleKeySchema<SessionAction>(ACTION_BODIES as unknown as Record<string, z.ZodType<SessionAction, unknown>>, 'session action');
export const ownerActionSchema = singleKeySchema<OwnerAction>(OWNER_ACTION_BODIES, 'owner action');
