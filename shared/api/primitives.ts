// Zod building blocks shared by every schema of this folder. Money and ids are parsed with the
// helpers of shared/encoding so a REST body, a WebSocket frame and a request body refuse the same
// values with the same reasons; `parseWith` (shared/schema.ts) adds the field path and the value.
import { z } from 'zod';
import { B256_PATTERN_TEXT, type B256 } from '../encoding/b256';
import { decimalValue, describeDecimalProblem, U128_MAX, U256_MAX, U64_MAX } from '../encoding/decimal';
import type { Identity } from '../encoding/identity';
import { inKindOrder, type OrderKind, type OrderTypeOf } from '../market/order-kinds';
import type { OrderType, Side } from '../market/order-type';
import { hasDeceptiveCharacter } from '../text/deceptive-characters';

const B256_PATTERN = new RegExp(B256_PATTERN_TEXT);
const BARE_B256_PATTERN = /^[0-9a-fA-F]{64}$/;
const DECIMAL_PATTERN = /^[0-9]+$/;
const HEX_INTEGER_PATTERN = /^0[xX][0-9a-fA-F]+$/;

/** A B256 id (`0x` + 64 hex), normalised to lowercase. */
export const b256Schema = z
  .string({ error: 'expected 0x followed by 64 hex digits' })
  .regex(B256_PATTERN, 'expected 0x followed by 64 hex digits')
  .transform((value) => value.toLowerCase() as B256);

/** The owner id as the `Svc-Owner-Id` header allows it: with or without `0x`. */
export const ownerIdSchema = z
  .string({ error: 'expected an owner id (64 hex digits, 0x optional)' })
  .refine((value) => B256_PATTERN.test(value) || BARE_B256_PATTERN.test(value), 'expected an owner id (64 hex digits, 0x optional)')
  .transform((value) => (value.startsWith('0x') || value.startsWith('0X') ? `0x${value.slice(2).toLowerCase()}` : `0x${value.toLowerCase()}`) as B256);

/** The conversion every decimal field of the wire goes through (decimalSchema below). */
export { decimalValue };

/** An unsigned decimal integer string no larger than `max`, as bigint. */
export function decimalSchema(max: bigint, what = 'a decimal integer string') {
  return z.unknown().transform((value, context): bigint => {
    if (typeof value !== 'string') {
      context.issues.push({ code: 'custom', message: `expected ${what}`, input: value });
      return z.NEVER;
    }
    const parsed = decimalValue(value, max);
    if (parsed !== null) return parsed;
    if (!DECIMAL_PATTERN.test(value)) {
      context.issues.push({ code: 'custom', message: `expected ${what}: the value ${describeDecimalProblem(value)}`, input: value });
      return z.NEVER;
    }
    context.issues.push({ code: 'custom', message: `expected ${what} at most ${max}`, input: value });
    return z.NEVER;
  });
}

/** Money, prices, quantities, u64 nonces: decimal strings on the wire. */
export const u64Schema = decimalSchema(U64_MAX, 'a u64 decimal string');
export const u128Schema = decimalSchema(U128_MAX, 'a u128 decimal string');
export const u256Schema = decimalSchema(U256_MAX, 'a u256 decimal string');
/**
 * An account's balance of one asset (GET /v1/balance, the balances stream): every amount the ledger
 * moves is a u64 (forwarded amounts, withdrawals, docs/protocol.md), so a balance beyond it is a lie
 * or a broken exchange, refused rather than shown.
 */
export const balanceAmountSchema = decimalSchema(U64_MAX, 'a balance as a u64 decimal string');
/** Amounts the spec does not bound to u64 (fees, totals of value, 1e18-scaled prices). */
export const amountSchema = decimalSchema(U256_MAX, 'an amount as a decimal string');

/** A hex integer string such as `0x0` (POST /v1/accounts nonce, chain_id). */
export function hexIntegerSchema(max: bigint) {
  return z
    .string({ error: 'expected a 0x-prefixed hex integer' })
    .regex(HEX_INTEGER_PATTERN, 'expected a 0x-prefixed hex integer')
    .transform((value) => BigInt(`0x${value.slice(2)}`))
    .refine((value) => value <= max, `expected a hex integer at most ${max}`);
}
export const hexU64Schema = hexIntegerSchema(U64_MAX);

/**
 * An integer the spec does not type precisely (timestamps, versions, counters): a decimal
 * string or a JSON safe integer, as bigint.
 */
export const integerSchema = z.union([
  z.number().int().min(0).refine(Number.isSafeInteger, 'expected a safe integer').transform((value) => BigInt(value)),
  decimalSchema(U256_MAX, 'an integer'),
]);

/** The longest asset symbol accepted (the spec does not bound it; a symbol is a short name, never a sentence). */
export const MAX_SYMBOL_LENGTH = 32;

/**
 * An asset symbol the exchange names (GET /v1/markets): printed in every window and in the trusted
 * confirmations, so one holding a control, bidi or zero-width character (a CR that rewrites the
 * host's terminal line, a U+202E that reverses what follows) is refused, not shown.
 */
export const symbolSchema = z
  .string({ error: 'expected a symbol' })
  .min(1, 'expected a symbol')
  .max(MAX_SYMBOL_LENGTH, `expected a symbol of at most ${MAX_SYMBOL_LENGTH} characters`)
  .refine((text) => !hasDeceptiveCharacter(text), 'expected a symbol without control, bidi or zero-width characters');

/** Ticker and summary figures are for display only; they are kept as text, never as number. */
export const displayNumberSchema = z.union([z.string(), z.number().transform((value) => String(value))]);

export const identitySchema = z.union([z.strictObject({ Address: b256Schema }), z.strictObject({ ContractId: b256Schema })], {
  error: 'expected {Address: B256} or {ContractId: B256}',
}) as z.ZodType<Identity, unknown>;

export const sideSchema = z.enum(['Buy', 'Sell']) as z.ZodType<Side, unknown>;

/** Each kind's `order_type` on the wire (spec 2.4; wire notes for Limit and BoundedMarket), to the typed value. */
const orderTypeJsonSchemas = {
  Limit: z.strictObject({ Limit: z.tuple([u64Schema, u64Schema]) }).transform(({ Limit: [price, timestamp] }): OrderTypeOf<'Limit'> => ({ kind: 'Limit', price, timestamp })),
  Spot: z.literal('Spot').transform((kind): OrderTypeOf<'Spot'> => ({ kind })),
  PostOnly: z.literal('PostOnly').transform((kind): OrderTypeOf<'PostOnly'> => ({ kind })),
  FillOrKill: z.literal('FillOrKill').transform((kind): OrderTypeOf<'FillOrKill'> => ({ kind })),
  Market: z.literal('Market').transform((kind): OrderTypeOf<'Market'> => ({ kind })),
  BoundedMarket: z
    .strictObject({ BoundedMarket: z.object({ max_price: u64Schema, min_price: u64Schema }) })
    .transform(({ BoundedMarket: bounds }): OrderTypeOf<'BoundedMarket'> => ({ kind: 'BoundedMarket', max_price: bounds.max_price, min_price: bounds.min_price })),
} satisfies { readonly [K in OrderKind]: z.ZodType<OrderTypeOf<K>, unknown> };

/** CreateOrder `order_type`, to the typed value. */
export const orderTypeSchema: z.ZodType<OrderType, unknown> = z.union(inKindOrder(orderTypeJsonSchemas), {
  error: 'expected Spot, Market, PostOnly, FillOrKill, {Limit: [price, timestamp]} or {BoundedMarket: {max_price, min_price}}',
});

/** `{Secp256k1: "0x<128 hex>"}` or `{TypedSecp256k1: …}`, as the variant and 64 bytes of hex. */
export const signatureSchema = z.union(
  [
    z.strictObject({ Secp256k1: z.string().regex(/^0x[0-9a-fA-F]{128}$/, 'expected 0x and 128 hex digits') }).transform((value) => ({ variant: 'Secp256k1' as const, hex: value.Secp256k1.toLowerCase() })),
    z
      .strictObject({ TypedSecp256k1: z.string().regex(/^0x[0-9a-fA-F]{128}$/, 'expected 0x and 128 hex digits') })
      .transform((value) => ({ variant: 'TypedSecp256k1' as const, hex: value.TypedSecp256k1.toLowerCase() })),
  ],
  { error: 'expected {Secp256k1: 0x…} or {TypedSecp256k1: 0x…} with 128 hex digits' },
);

/** `[B256, …]` */
export const b256ListSchema = z.array(b256Schema);
