// Request bodies of every write (spec 4.2, margin 4.2; wire notes for the "not shown" members).
// The sandbox parses incoming requests with these; the client builds them with shared/protocol.
import { z } from 'zod';
import { U64_MAX } from '../encoding/decimal';
import { ownerActionSchema, sessionActionSchema } from './action-schemas';
import { b256ListSchema, b256Schema, decimalSchema, identitySchema, signatureSchema, u256Schema, u64Schema } from './primitives';

const nonceShape = { nonce: u64Schema.optional(), parallel_nonce: u256Schema.optional() };

export type NonceChoiceBody = { kind: 'sequential'; value: bigint } | { kind: 'parallel'; value: bigint };

function checkOneNonce(body: { nonce?: bigint | undefined; parallel_nonce?: bigint | undefined }, context: z.RefinementCtx): void {
  const count = (body.nonce === undefined ? 0 : 1) + (body.parallel_nonce === undefined ? 0 : 1);
  if (count !== 1) context.addIssue({ code: 'custom', message: 'expected exactly one of nonce and parallel_nonce', path: ['nonce'] });
}

/** `nonce` (u64) or `parallel_nonce` (u256), never both: normalised into `nonce_choice`. */
function normaliseNonce<T extends { nonce?: bigint | undefined; parallel_nonce?: bigint | undefined }>(body: T): Omit<T, 'nonce' | 'parallel_nonce'> & { nonce_choice: NonceChoiceBody } {
  const { nonce, parallel_nonce: parallel, ...rest } = body;
  return { ...rest, nonce_choice: nonce !== undefined ? { kind: 'sequential', value: nonce } : { kind: 'parallel', value: parallel ?? 0n } };
}

/** POST /v1/accounts */
export const createAccountRequestSchema = z.object({ identity: identitySchema });

/** PUT /v1/session (wire notes): expiry in unix seconds, as a decimal string (a number is tolerated). */
export const sessionRequestSchema = z.object({
  contract_id: b256Schema,
  session_id: identitySchema,
  signature: signatureSchema,
  contract_ids: b256ListSchema,
  nonce: u64Schema,
  expiry: z.union([decimalSchema(U64_MAX, 'unix seconds'), z.number().int().min(0).transform((value) => BigInt(value))]),
});

export const actionGroupSchema = z.object({
  market_id: b256Schema,
  // Bounded well above the 5-action cap, so the cap is refused with its own code (7004), while a
  // body cannot make the parser allocate without limit.
  actions: z.array(sessionActionSchema).max(64),
  turbo: z.boolean().optional(),
});

/** POST /v1/session/actions and POST /v1/margin/accounts (same envelope). */
export const sessionActionsRequestSchema = z.object({
  actions: z.array(actionGroupSchema).max(64),
  signature: signatureSchema,
  trade_account_id: b256Schema,
  session_id: identitySchema.optional(),
  collect_orders: z.boolean().optional(),
  estimate_gas_usage: z.boolean().optional(),
  min_gas_limit: u64Schema.optional(),
  variable_outputs: z.number().int().min(0).optional(),
  ...nonceShape,
})
  .superRefine(checkOneNonce)
  .transform(normaliseNonce);

/** POST /v1/accounts/actions: owner actions SettleBalance and Whitelist. */
export const ownerActionsRequestSchema = z.object({
  trade_account_id: b256Schema,
  signature: signatureSchema,
  actions: z.array(z.object({ market_id: b256Schema, actions: z.array(ownerActionSchema).max(64), turbo: z.boolean().optional() })).max(64),
  ...nonceShape,
})
  .superRefine(checkOneNonce)
  .transform(normaliseNonce);

/** One call object of POST /v1/accounts/call(s) (our definition, docs/protocol.md). */
export const ownerCallSchema = z.object({
  contract_id: b256Schema,
  method: z.string().min(1),
  amount: u64Schema,
  asset_id: b256Schema,
  gas: u64Schema,
  call_data: z
    .string()
    .regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex bytes')
    .nullable(),
});

export const ownerCallRequestSchema = z.object({ trade_account_id: b256Schema, signature: signatureSchema, call: ownerCallSchema, ...nonceShape }).superRefine(checkOneNonce).transform(normaliseNonce);
export const ownerCallsRequestSchema = z.object({ trade_account_id: b256Schema, signature: signatureSchema, calls: z.array(ownerCallSchema).max(64), ...nonceShape }).superRefine(checkOneNonce).transform(normaliseNonce);
export const upgradeRequestSchema = z.object({ trade_account_id: b256Schema, signature: signatureSchema, implementation: b256Schema, ...nonceShape }).superRefine(checkOneNonce).transform(normaliseNonce);
export const withdrawRequestSchema = z.object({ trade_account_id: b256Schema, signature: signatureSchema, to: identitySchema, asset_id: b256Schema, amount: u64Schema, ...nonceShape }).superRefine(checkOneNonce).transform(normaliseNonce);

/** POST /analytics/v1/whitelist */
export const whitelistRequestSchema = z.object({ tradeAccount: b256Schema });

/** POST {faucet_url}/api/<network>/mint-v2: one of address or contract. */
export const faucetRequestSchema = z
  .object({ address: b256Schema.optional(), contract: b256Schema.optional() })
  .refine((body) => (body.address === undefined) !== (body.contract === undefined), 'expected exactly one of address and contract');

export type CreateAccountRequest = z.output<typeof createAccountRequestSchema>;
export type SessionRequest = z.output<typeof sessionRequestSchema>;
export type ActionGroupRequest = z.output<typeof actionGroupSchema>;
export type SessionActionsRequestBody = z.output<typeof sessionActionsRequestSchema>;
export type OwnerActionsRequestBody = z.output<typeof ownerActionsRequestSchema>;
export type OwnerCallRequest = z.output<typeof ownerCallSchema>;
export type OwnerCallRequestBody = z.output<typeof ownerCallRequestSchema>;
export type OwnerCallsRequestBody = z.output<typeof ownerCallsRequestSchema>;
export type UpgradeRequestBody = z.output<typeof upgradeRequestSchema>;
export type WithdrawRequestBody = z.output<typeof withdrawRequestSchema>;
export type WhitelistRequest = z.output<typeof whitelistRequestSchema>;
export type FaucetRequest = z.output<typeof faucetRequestSchema>;
