// REST responses about accounts, sessions, nonces and signed writes (spec 2.2, 2.7, 4.2, 7;
// wire notes "Session creation" and "Response shapes").
import { z } from 'zod';
import type { WindowSnapshot } from '../nonce/lane-window';
import { orderSchema } from './market-schemas';
import { b256ListSchema, b256Schema, hexU64Schema, identitySchema, integerSchema, u128Schema, u64Schema } from './primitives';

/** The structured REST error `{code, message}` (4000 signature, 4002 account not found, 7004 batch, 1003 rate). */
/** `{code, message}`, with the error's `name` where the service sends one (the sandbox always does; docs/sandbox.md). */
export const apiErrorSchema = z.object({ code: z.number().int(), message: z.string(), name: z.string().optional() });

export const tradeAccountSchema = z.object({
  last_modification: integerSchema.optional(),
  nonce: u64Schema,
  owner: identitySchema,
  // Some networks send synced_with_network, others sync_state; neither is needed to sign.
  synced_with_network: z.boolean().optional(),
  sync_state: z.unknown().optional(),
});

/**
 * GET /v1/accounts: found, or none. "None" arrives as HTTP 200 with null fields on one lookup form
 * and as `{code: 4002}` on another; both parse to `{kind: 'none'}`.
 */
export const accountLookupSchema = z.union([
  z
    .object({ trade_account_id: b256Schema, trade_account: tradeAccountSchema, session: z.unknown().optional() })
    .transform((body) => ({ kind: 'found' as const, trade_account_id: body.trade_account_id, trade_account: body.trade_account, session: body.session ?? null })),
  z.object({ trade_account_id: z.null(), trade_account: z.null().optional(), session: z.null().optional() }).transform(() => ({ kind: 'none' as const })),
  z.object({ code: z.literal(4002), message: z.string().optional() }).transform(() => ({ kind: 'none' as const })),
]);

/** POST /v1/accounts: the nonce comes back as a hex string. */
export const createAccountResponseSchema = z.object({ trade_account_id: b256Schema, nonce: hexU64Schema });

/** GET /v1/accounts/window, as the window model's snapshot. */
export const windowResponseSchema: z.ZodType<WindowSnapshot, unknown> = z
  .object({
    nonce_session_id: z.number().int().min(0).max(4),
    base: u128Schema,
    slots: z.array(z.object({ word_position: u128Schema, bitmap: u128Schema })).max(8),
  })
  .transform((body) => ({ lane: body.nonce_session_id, base: body.base, slots: body.slots }));

/** PUT /v1/session */
export const sessionResponseSchema = z.object({
  tx_id: z.string(),
  trade_account_id: b256Schema,
  contract_ids: b256ListSchema,
  session_id: identitySchema,
  session_expiry: integerSchema,
});

/**
 * POST /v1/session/actions (and the owner writes): success `{tx_id, orders?}`, pre-flight refusal
 * `{code, message}` (nonce not consumed), on-chain revert `{message, reason, receipts}` (nonce
 * consumed). A refusal may come with HTTP 200, so the body decides, never the status alone.
 */
export const actionsResultSchema = z.union([
  z.object({ tx_id: z.string(), orders: z.array(orderSchema).optional() }).transform((body) => ({ kind: 'success' as const, tx_id: body.tx_id, orders: body.orders ?? [] })),
  z
    // `reason` a string, as errors.ts asRevert reads a revert: the two must agree on what a revert is.
    .object({ message: z.string(), reason: z.string(), receipts: z.unknown() })
    .transform((body) => ({ kind: 'reverted' as const, message: body.message, reason: body.reason, receipts: body.receipts })),
  apiErrorSchema.transform((body) => ({ kind: 'refused' as const, code: body.code, message: body.message, ...(body.name === undefined ? {} : { name: body.name }) })),
]);

/** GET /health */
export const healthResponseSchema = z.object({ status: z.string() });

/** POST /analytics/v1/whitelist */
export const whitelistResponseSchema = z.object({ success: z.boolean(), tradeAccount: b256Schema, alreadyWhitelisted: z.boolean().optional() });

/** GET /analytics/v1/referral/code-info */
export const referralCodeInfoSchema = z.object({ valid: z.boolean(), ownerAddress: b256Schema.nullable().optional(), isActive: z.boolean().optional() });

/** Faucet: `message` on success, `error` under the 60-second cooldown. */
export const faucetResponseSchema = z.union([
  z.object({ message: z.string() }).transform((body) => ({ kind: 'minted' as const, message: body.message })),
  z.object({ error: z.string() }).transform((body) => ({ kind: 'refused' as const, error: body.error })),
]);


export type ApiError = z.output<typeof apiErrorSchema>;
export type AccountLookup = z.output<typeof accountLookupSchema>;
export type CreateAccountResponse = z.output<typeof createAccountResponseSchema>;
export type SessionResponse = z.output<typeof sessionResponseSchema>;
export type ActionsResult = z.output<typeof actionsResultSchema>;
