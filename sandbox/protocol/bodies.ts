// Schemas of the signed request bodies (PUT /v1/session, POST /v1/session/actions, the owner
// endpoints) and their conversion to shared/protocol values, so the sandbox can rebuild the
// exact signed bytes with shared/protocol.
// TODO(shared/api): replace these schemas with shared/api's request-body schemas once that
// module lands (it is to hold the zod schema of every request body); this file is the minimal
// local adapter the brief allows meanwhile, and holds no encoding of its own.
import { z } from 'zod';
import { U256_MAX, U64_MAX } from '../../shared/encoding/decimal';
import type { Identity } from '../../shared/encoding/identity';
import type { OrderType } from '../../shared/market/order-type';
import type { SessionAction } from '../../shared/protocol/actions';

const B256_PATTERN = /^0x[0-9a-fA-F]{64}$/;

export const b256 = z
  .string()
  .regex(B256_PATTERN, 'expected 0x followed by 64 hex digits')
  .transform((value) => value.toLowerCase());

const decimal = (max: bigint, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `expected ${what} as a decimal string`)
    .refine((value) => value.length <= 80 && BigInt(value) <= max, `expected ${what} at most ${max}`)
    .transform((value) => BigInt(value));

export const u64 = decimal(U64_MAX, 'a u64');
export const u256 = decimal(U256_MAX, 'a u256');

export const identity = z.union([z.strictObject({ Address: b256 }), z.strictObject({ ContractId: b256 })], {
  error: 'expected {Address: B256} or {ContractId: B256}',
});

export const signature = z.union([z.strictObject({ Secp256k1: z.string() }), z.strictObject({ TypedSecp256k1: z.string() })], {
  error: 'expected {Secp256k1: 0x…} or {TypedSecp256k1: 0x…}',
});

const side = z.enum(['Buy', 'Sell']);

const orderType = z.union(
  [
    z.enum(['Spot', 'Market', 'PostOnly', 'FillOrKill']),
    z.strictObject({ Limit: z.tuple([u64, u64]) }),
    z.strictObject({ BoundedMarket: z.strictObject({ max_price: u64, min_price: u64 }) }),
  ],
  { error: 'expected Spot, Market, PostOnly, FillOrKill, {Limit: [price, timestamp]} or {BoundedMarket: {max_price, min_price}}' },
);

type OrderTypeInput = z.output<typeof orderType>;

function toOrderType(value: OrderTypeInput): OrderType {
  if (typeof value === 'string') return { kind: value };
  if ('Limit' in value) return { kind: 'Limit', price: value.Limit[0], timestamp: value.Limit[1] };
  return { kind: 'BoundedMarket', max_price: value.BoundedMarket.max_price, min_price: value.BoundedMarket.min_price };
}

const createOrder = z.strictObject({ side, price: u64, quantity: u64, order_type: orderType.optional() });
const cancelOrder = z.strictObject({ order_id: b256 });
const toIdentity = z.strictObject({ to: identity });

/** Action kinds this network executes; the others of shared/protocol are refused as unsupported. */
export const SUPPORTED_ACTIONS = ['CreateOrder', 'CancelOrder', 'SettleBalance', 'RegisterReferer'] as const;

/** One action `{"<Kind>": {…}}` → a shared/protocol value, or a message naming what is wrong. */
export function parseAction(value: unknown, path: string, known: readonly string[]): { ok: true; action: SessionAction } | { ok: false; unknown: boolean; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length !== 1) {
    return { ok: false, unknown: false, message: `${path}: expected an object with exactly one action key, got ${JSON.stringify(value)?.slice(0, 80)}` };
  }
  const [kind, body] = Object.entries(value)[0] as [string, unknown];
  if (!known.includes(kind)) return { ok: false, unknown: true, message: `${path}: unknown action ${JSON.stringify(kind)}` };
  if (!(SUPPORTED_ACTIONS as readonly string[]).includes(kind)) {
    return { ok: false, unknown: true, message: `${path}: action ${kind} is not supported on this network` };
  }
  const issue = (error: z.ZodError): string => {
    const first = error.issues[0];
    const where = first ? [path, kind, ...first.path.map(String)].join('.') : `${path}.${kind}`;
    const got = first && 'input' in first ? `, got ${JSON.stringify(first.input)?.slice(0, 80)}` : '';
    return `${where}: ${first?.message ?? 'invalid'}${got}`;
  };
  switch (kind) {
    case 'CreateOrder': {
      const parsed = createOrder.safeParse(body, { reportInput: true });
      if (!parsed.success) return { ok: false, unknown: false, message: issue(parsed.error) };
      const { side: s, price, quantity } = parsed.data;
      return { ok: true, action: { kind: 'CreateOrder', side: s, price, quantity, order_type: toOrderType(parsed.data.order_type ?? 'Spot') } };
    }
    case 'CancelOrder': {
      const parsed = cancelOrder.safeParse(body, { reportInput: true });
      if (!parsed.success) return { ok: false, unknown: false, message: issue(parsed.error) };
      return { ok: true, action: { kind: 'CancelOrder', order_id: parsed.data.order_id as SessionActionId } };
    }
    default: {
      const parsed = toIdentity.safeParse(body, { reportInput: true });
      if (!parsed.success) return { ok: false, unknown: false, message: issue(parsed.error) };
      return { ok: true, action: { kind: kind as 'SettleBalance' | 'RegisterReferer', to: parsed.data.to as Identity } };
    }
  }
}

type SessionActionId = Extract<SessionAction, { kind: 'CancelOrder' }>['order_id'];

export const sessionBodySchema = z.strictObject({
  contract_id: b256,
  session_id: z.strictObject({ Address: b256 }),
  signature,
  contract_ids: z.array(b256).max(64),
  nonce: u64,
  expiry: u64,
});

export const actionGroupSchema = z.strictObject({
  market_id: b256,
  actions: z.array(z.unknown()).max(16),
  turbo: z.boolean().optional(),
});

export const sessionActionsBodySchema = z
  .strictObject({
    actions: z.array(actionGroupSchema).max(16),
    signature,
    trade_account_id: b256,
    session_id: identity.optional(),
    nonce: u64.optional(),
    parallel_nonce: u256.optional(),
    collect_orders: z.boolean().optional(),
    estimate_gas_usage: z.boolean().optional(),
    min_gas_limit: u64.optional(),
    variable_outputs: z.number().int().min(0).optional(),
  })
  .refine((body) => (body.nonce === undefined) !== (body.parallel_nonce === undefined), {
    message: 'exactly one of nonce and parallel_nonce is required',
    path: ['nonce'],
  });

const ownerBase = {
  trade_account_id: b256,
  signature,
  nonce: u64.optional(),
  parallel_nonce: u256.optional(),
};

const exactlyOneNonce = <T extends { nonce?: bigint; parallel_nonce?: bigint }>(body: T): boolean => (body.nonce === undefined) !== (body.parallel_nonce === undefined);
const nonceRule = { message: 'exactly one of nonce and parallel_nonce is required', path: ['nonce'] };

export const withdrawBodySchema = z.strictObject({ ...ownerBase, to: identity, asset_id: b256, amount: u64 }).refine(exactlyOneNonce, nonceRule);
export const upgradeBodySchema = z.strictObject({ ...ownerBase, implementation: b256 }).refine(exactlyOneNonce, nonceRule);

const ownerCall = z.strictObject({
  contract_id: b256,
  method: z.string().min(1).max(64),
  amount: u64,
  asset_id: b256,
  gas: u64,
  call_data: z
    .string()
    .regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex bytes')
    .max(8192)
    .nullable(),
});
export type OwnerCallInput = z.output<typeof ownerCall>;

export const ownerCallBodySchema = z.strictObject({ ...ownerBase, call: ownerCall }).refine(exactlyOneNonce, nonceRule);
export const ownerCallsBodySchema = z.strictObject({ ...ownerBase, calls: z.array(ownerCall).min(1).max(5) }).refine(exactlyOneNonce, nonceRule);
export const ownerActionsBodySchema = z
  .strictObject({
    ...ownerBase,
    actions: z.array(z.strictObject({ market_id: b256, actions: z.array(z.unknown()).min(1).max(5), turbo: z.boolean().optional() })).min(1).max(5),
  })
  .refine(exactlyOneNonce, nonceRule);
