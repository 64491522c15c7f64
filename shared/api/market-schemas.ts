// REST responses about markets and market data (spec 2.3-2.5, 4.1; wire notes "Response shapes";
// margin 2.5 for Turbo rows and shared trades).
import { z } from 'zod';
import type { BookLevel } from '../book/order-book';
import type { Market } from '../market/market';
import { hasDeceptiveCharacter } from '../text/deceptive-characters';
import { amountSchema, b256Schema, balanceAmountSchema, displayNumberSchema, hexU64Schema, identitySchema, integerSchema, orderTypeSchema, sideSchema, symbolSchema, u64Schema } from './primitives';
import { triggerKindSchema, triggerQuantitySchema } from './action-schemas';

const assetSchema = z.object({
  symbol: symbolSchema,
  asset: b256Schema,
  decimals: z.number().int().min(0).max(77),
  max_precision: z.number().int().min(0).max(77),
});

/** One row of GET /v1/markets; Turbo rows (turbo=true) add their own fields. */
export const marketSchema: z.ZodType<Market, unknown> = z
  .object({
    contract_id: b256Schema,
    market_id: b256Schema,
    maker_fee: u64Schema,
    taker_fee: u64Schema,
    min_order: u64Schema,
    dust: u64Schema,
    price_window: z.number(),
    base: assetSchema,
    quote: assetSchema,
    turbo: z.boolean().optional(),
    canonical_contract_id: b256Schema.optional(),
    connected: z.boolean().optional(),
    paused: z.boolean().optional(),
    trigger_max_slippage: integerSchema.optional(),
  })
  .transform((row) => {
    // Optional members are left out rather than set to undefined (exactOptionalPropertyTypes-safe).
    const market: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) if (value !== undefined) market[key] = value;
    return market as unknown as Market;
  });

/** GET /v1/markets (chain_id is hex; zero is a valid network id). */
export const marketsResponseSchema = z.object({
  books_registry_id: b256Schema,
  accounts_registry_id: b256Schema,
  trade_account_oracle_id: b256Schema,
  chain_id: hexU64Schema,
  base_asset_id: b256Schema,
  markets: z.array(marketSchema),
});

/** A depth level as `{price, quantity}` or as a `[price, quantity]` pair. */
export const depthLevelSchema: z.ZodType<BookLevel, unknown> = z.union(
  [z.object({ price: u64Schema, quantity: u64Schema }), z.tuple([u64Schema, u64Schema]).transform(([price, quantity]) => ({ price, quantity }))],
  { error: 'expected a level {price, quantity} or [price, quantity]' },
);

export const depthSidesSchema = z.object({ buys: z.array(depthLevelSchema), sells: z.array(depthLevelSchema) });

/** GET /v1/depth: levels under `view` or `orders`, normalised to `{market_id?, precision?, buys, sells}`. */
export const depthResponseSchema = z
  .object({
    market_id: b256Schema.optional(),
    precision: integerSchema.optional(),
    view: depthSidesSchema.optional(),
    orders: depthSidesSchema.optional(),
    turbo: z.boolean().optional(),
  })
  .refine((body) => body.view !== undefined || body.orders !== undefined, { message: 'expected the levels under view or orders', path: ['view'] })
  .transform((body) => {
    const sides = body.view ?? body.orders!;
    return { market_id: body.market_id, precision: body.precision, buys: sides.buys, sells: sides.sells };
  });

export const barSchema = z.object({ timestamp: integerSchema, open: amountSchema, high: amountSchema, low: amountSchema, close: amountSchema, volume: amountSchema });
export const barsResponseSchema = z.object({ market_id: b256Schema.optional(), bars: z.array(barSchema) });

/**
 * A trade id: opaque, but shown (the tape keys and lists trades by it), so one holding a control,
 * bidi or zero-width character is refused like a symbol; bounded so a frame cannot carry a page of it.
 */
const tradeIdSchema = z
  .string()
  .min(1, 'expected a trade id')
  .max(128, 'expected a trade id of at most 128 characters')
  .refine((text) => !hasDeceptiveCharacter(text), 'expected a trade id without control, bidi or zero-width characters');

/** Trade (spec 2.5): `side` is the taker side; Turbo trades add `turbo`, `shared`, `confirmed`, `indexed_height`. */
export const tradeSchema = z.object({
  trade_id: z.union([tradeIdSchema, z.number().transform(String)]),
  side: sideSchema,
  price: u64Schema,
  quantity: u64Schema,
  total: amountSchema,
  timestamp: integerSchema,
  turbo: z.boolean().optional(),
  shared: z.object({ funding_source: z.object({ order_id: b256Schema }) }).optional(),
  confirmed: z.boolean().optional(),
  indexed_height: integerSchema.optional(),
});
export const tradesResponseSchema = z.object({ market_id: b256Schema.optional(), trades: z.array(tradeSchema) });

/**
 * A trade as one account saw it (GET /v1/trades_by_account, /v1/trade_by_account): the spec leaves
 * the members "not shown"; docs/protocol.md ("One fill source") says which ones the terminal reads:
 * the account's `role`, its own side (`account_side`), its order (`order_id`) and the fee it paid
 * (`fee`, in base for a buy and quote for a sale, as an order's fills carry it).
 */
export const accountTradeSchema = tradeSchema.extend({
  role: z.enum(['maker', 'taker']),
  account_side: sideSchema,
  order_id: b256Schema,
  fee: amountSchema,
  market_id: b256Schema.optional(),
  tx_id: z.string().max(200).optional(),
});
export const accountTradesResponseSchema = z.object({ market_id: b256Schema.optional(), trades: z.array(accountTradeSchema) });

export const fillSchema = z.object({ order_id: b256Schema, quantity: u64Schema, price: u64Schema, timestamp: integerSchema, fee: amountSchema });

/** Order (spec 2.4). */
export const orderSchema = z.object({
  order_id: b256Schema,
  owner: identitySchema.optional(),
  side: sideSchema,
  order_type: orderTypeSchema,
  market_id: b256Schema.optional(),
  quantity: u64Schema,
  quantity_fill: u64Schema.optional(),
  price: u64Schema,
  price_fill: u64Schema.optional(),
  timestamp: integerSchema.optional(),
  close: z.boolean().optional(),
  partially_filled: z.boolean().optional(),
  cancel: z.boolean().optional(),
  history: z.array(z.object({ type: z.string(), status: z.string(), tx_id: z.string().optional() })).optional(),
  fills: z.array(fillSchema).optional(),
  turbo: z.boolean().optional(),
});

export const ordersResponseSchema = z.object({ identity: identitySchema.optional(), market_id: b256Schema.optional(), orders: z.array(orderSchema) });
export const orderResponseSchema = z.object({ order: orderSchema });

/**
 * A trigger leg as GET /v1/orders/active and the order stream's `triggers` list it: the wire notes'
 * `order_id, market_id, side, trigger_price`, plus (optional) the leg as signed and its state
 * (docs/protocol.md "Trigger orders").
 */
export const activeTriggerSchema = z.object({
  order_id: b256Schema,
  market_id: b256Schema.optional(),
  side: sideSchema,
  trigger_price: u64Schema,
  order_type: triggerKindSchema.optional(),
  quantity: triggerQuantitySchema.optional(),
  state: z.enum(['pending', 'fired', 'cancelled']).optional(),
  armed: z.boolean().optional(),
  direction: z.enum(['rise', 'fall']).optional(),
  parent_order_id: b256Schema.nullable().optional(),
  expected_quantity: u64Schema.nullable().optional(),
  oco_order_id: b256Schema.nullable().optional(),
  locked: amountSchema.optional(),
  fired_order_id: b256Schema.nullable().optional(),
  reason: z.string().nullable().optional(),
  timestamp: integerSchema.optional(),
  turbo: z.boolean().optional(),
});

/** GET /v1/orders/active: orders with their nested triggers, and standalone triggers. */
export const activeOrdersResponseSchema = z.object({
  entries: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('order'), order_id: b256Schema, triggers: z.array(activeTriggerSchema).default([]) }).loose(),
      activeTriggerSchema.extend({ kind: z.literal('trigger') }),
    ]),
  ),
});

/** Locked and unlocked per order book (GET /v1/balance; stream balances). */
export const bookBalanceSchema = z.object({ locked: balanceAmountSchema, unlocked: balanceAmountSchema, fee: amountSchema.optional() });

/** GET /v1/balance; `total_unlocked` already includes `trading_account_balance`. */
export const balanceResponseSchema = z.object({
  order_books: z.record(z.string(), bookBalanceSchema),
  total_locked: balanceAmountSchema,
  total_unlocked: balanceAmountSchema,
  trading_account_balance: balanceAmountSchema,
});

/** GET /v1/markets/ticker: display figures, kept as text. */
export const tickerSchema = z.object({
  market_id: b256Schema,
  high: displayNumberSchema.optional(),
  low: displayNumberSchema.optional(),
  bid: displayNumberSchema.optional(),
  bid_volume: displayNumberSchema.optional(),
  ask: displayNumberSchema.optional(),
  ask_volume: displayNumberSchema.optional(),
  open: displayNumberSchema.optional(),
  close: displayNumberSchema.optional(),
  last: displayNumberSchema.optional(),
  change: displayNumberSchema.optional(),
  percentage: displayNumberSchema.optional(),
  base_volume: displayNumberSchema.optional(),
  quote_volume: displayNumberSchema.optional(),
  timestamp: integerSchema.optional(),
});
export const tickerResponseSchema = z.array(tickerSchema);

/** GET /v1/markets/summary */
export const summarySchema = z.object({
  market_id: b256Schema,
  high_price: displayNumberSchema.optional(),
  low_price: displayNumberSchema.optional(),
  last_price: displayNumberSchema.optional(),
  volume_24h: displayNumberSchema.optional(),
  change_24h: displayNumberSchema.optional(),
});
export const summaryResponseSchema = z.array(summarySchema);

/** GET /v1/markets/fees: fields not shown; the fee rates are read where present. */
export const feesResponseSchema = z.array(z.object({ market_id: b256Schema, maker_fee: u64Schema.optional(), taker_fee: u64Schema.optional() }).loose());

export type MarketsResponse = z.output<typeof marketsResponseSchema>;
export type DepthResponse = z.output<typeof depthResponseSchema>;
export type Bar = z.output<typeof barSchema>;
export type Trade = z.output<typeof tradeSchema>;
export type AccountTrade = z.output<typeof accountTradeSchema>;
export type Order = z.output<typeof orderSchema>;
export type Fill = z.output<typeof fillSchema>;
export type ActiveOrdersResponse = z.output<typeof activeOrdersResponseSchema>;
export type ActiveTrigger = z.output<typeof activeTriggerSchema>;
export type BalanceResponse = z.output<typeof balanceResponseSchema>;
export type Ticker = z.output<typeof tickerSchema>;
export type Summary = z.output<typeof summarySchema>;
