// The owner endpoints (spec 4.2 and 9: POST /v1/accounts/upgrade, /call, /calls, /actions) a
// trader can reach from the Account view, as one table in MAIN: the page names a method and
// gives its parameters as text; only a method listed here can be called, each parameter is
// parsed by the method's own schema, and the call is built here. What the trusted confirmation
// shows (the endpoint, the method and every parameter, escaped) comes from the same table.
import { z } from 'zod';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import type { Market } from '../../../shared/market/market';
import { actionToCall } from '../../../shared/protocol/action-calls';
import type { ContractCall } from '../../../shared/protocol/call';
import { ownerActionCalls, type OwnerActionGroup } from '../../../shared/protocol/owner-messages';
import { fail, ok, type Result } from '../../../shared/result';
import { parseWith } from '../../../shared/schema';
import type { OwnerMethodView } from '../../../shared/ipc/views/custody';
import { trusted, type TrustedText } from '../confirm/trusted-text';

export const OWNER_METHOD_CODES = {
  NOT_ALLOWED: 'OWNER_METHOD_NOT_ALLOWED',
  BAD_PARAMETER: 'OWNER_METHOD_BAD_PARAMETER',
  /** A signed offline request whose method, rebuilt from this table, no longer signs the same message. */
  REBUILT_MISMATCH: 'OWNER_METHOD_REBUILT_MISMATCH',
} as const;

const b256Text = z
  .string()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected 0x and 64 hex digits')
  .transform((text) => `0x${text.replace(/^0x/, '').toLowerCase()}` as B256);

/** What a built request is: the endpoint it goes to and what is signed. */
export type OwnerMethodCall =
  | { readonly endpoint: 'upgrade'; readonly implementation: B256 }
  | { readonly endpoint: 'call'; readonly call: ContractCall }
  | { readonly endpoint: 'calls'; readonly calls: readonly ContractCall[] }
  | { readonly endpoint: 'actions'; readonly groups: readonly OwnerActionGroup[] };

/** The calls a method's owner message signs (`call_contracts`); none for an upgrade. */
export function ownerMethodCalls(call: OwnerMethodCall): readonly ContractCall[] {
  if (call.endpoint === 'upgrade') return [];
  if (call.endpoint === 'call') return [call.call];
  if (call.endpoint === 'calls') return call.calls;
  return ownerActionCalls(call.groups);
}

export interface MethodFacts {
  readonly tradeAccountId: B256;
  readonly market: (marketId: string) => Result<Market>;
  readonly marketName: (market: Market) => string;
}

export interface BuiltOwnerMethod {
  readonly call: OwnerMethodCall;
  /** For the journal and the result. */
  readonly description: string;
  /** One line per parameter, as main decoded it, for the trusted confirmation. */
  readonly lines: readonly TrustedText[];
  /** The parameters as parsed, for the confirmation's digest. */
  readonly parameters: Readonly<Record<string, string>>;
}

interface OwnerMethod {
  readonly view: OwnerMethodView;
  build(parameters: Readonly<Record<string, string>>, facts: MethodFacts): Result<BuiltOwnerMethod>;
}

function parameter(parameters: Readonly<Record<string, string>>, name: string, schema: typeof b256Text): Result<B256> {
  const parsed = parseWith(schema, parameters[name], name);
  return parsed.ok ? parsed : fail(OWNER_METHOD_CODES.BAD_PARAMETER, parsed.message, { field: name });
}

function bookOf(parameters: Readonly<Record<string, string>>, name: string, facts: MethodFacts): Result<Market> {
  const id = parameter(parameters, name, b256Text);
  if (!id.ok) return id;
  const market = facts.market(id.value);
  return market.ok ? market : fail(OWNER_METHOD_CODES.BAD_PARAMETER, `${name}: no market ${id.value} on this network`, { field: name });
}

function unexpected(parameters: Readonly<Record<string, string>>, allowed: readonly string[]): Result<void> {
  const extra = Object.keys(parameters).find((name) => !allowed.includes(name));
  return extra === undefined ? ok(undefined) : fail(OWNER_METHOD_CODES.BAD_PARAMETER, `${extra}: not a parameter of this method`, { field: extra });
}

/** An owner action on one book whose only parameter is the market, aimed at the trading account. */
function bookAction(view: OwnerMethod['view'], kind: 'SettleBalance' | 'Whitelist', target: 'to' | 'account'): OwnerMethod {
  return {
    view,
    build(parameters, facts) {
      const extra = unexpected(parameters, ['marketId']);
      if (!extra.ok) return extra;
      const market = bookOf(parameters, 'marketId', facts);
      if (!market.ok) return market;
      const name = facts.marketName(market.value);
      const action = kind === 'SettleBalance' ? { kind, to: contractIdentity(facts.tradeAccountId) } : { kind, account: contractIdentity(facts.tradeAccountId) };
      return ok({
        call: { endpoint: 'actions', groups: [{ market_id: market.value.market_id, market: market.value, actions: [action] }] },
        description: `Owner action ${kind} on ${name}`,
        lines: [trusted`marketId: ${market.value.market_id} (${name})`, trusted`${target}: ContractId ${facts.tradeAccountId} (the trading account)`],
        parameters: { marketId: market.value.market_id },
      });
    },
  };
}

const settleBalance = bookAction(
  {
    method: 'settleBalance',
    endpoint: 'POST /v1/accounts/actions',
    title: 'Settle a book (owner action SettleBalance)',
    explains: "Moves the book's unlocked balance (proceeds and released funds) back to the trading account, signed by the owner key instead of the session.",
    parameters: [{ name: 'marketId', label: 'Market', kind: 'market' }],
  },
  'SettleBalance',
  'to',
);

const whitelist = bookAction(
  {
    method: 'whitelist',
    endpoint: 'POST /v1/accounts/actions',
    title: 'Whitelist the trading account on a book (owner action Whitelist)',
    explains: 'Books that require it accept orders only from whitelisted accounts; this whitelists the trading account itself, on one book.',
    parameters: [{ name: 'marketId', label: 'Market', kind: 'market' }],
  },
  'Whitelist',
  'account',
);

const cancelOrder: OwnerMethod = {
  view: {
    method: 'cancelOrder',
    endpoint: 'POST /v1/accounts/call',
    title: 'Cancel an order with the owner key (call cancel_order)',
    explains: 'Cancels one open order of the trading account, signed by the owner key: for when no session can sign (expired, or its key lost).',
    parameters: [
      { name: 'marketId', label: 'Market', kind: 'market' },
      { name: 'orderId', label: 'Order id', kind: 'b256' },
    ],
  },
  build(parameters, facts) {
    const extra = unexpected(parameters, ['marketId', 'orderId']);
    if (!extra.ok) return extra;
    const market = bookOf(parameters, 'marketId', facts);
    if (!market.ok) return market;
    const orderId = parameter(parameters, 'orderId', b256Text);
    if (!orderId.ok) return orderId;
    const call = actionToCall({ kind: 'CancelOrder', order_id: orderId.value }, market.value, { trade_account_id: facts.tradeAccountId });
    if (!call.ok) return call;
    const name = facts.marketName(market.value);
    return ok({
      call: { endpoint: 'call', call: call.value },
      description: `Owner call cancel_order of ${orderId.value} on ${name}`,
      lines: [trusted`contract: ${market.value.contract_id} (the ${name} book)`, trusted`marketId: ${market.value.market_id}`, trusted`orderId: ${orderId.value}`],
      parameters: { marketId: market.value.market_id, orderId: orderId.value },
    });
  },
};

const settleBooks: OwnerMethod = {
  view: {
    method: 'settleBooks',
    endpoint: 'POST /v1/accounts/calls',
    title: 'Settle two books in one request (calls settle_balance)',
    explains: 'Moves the unlocked balance of both books back to the trading account in one owner-signed transaction: both or neither.',
    parameters: [
      { name: 'marketId', label: 'Market', kind: 'market' },
      { name: 'secondMarketId', label: 'Second market', kind: 'market' },
    ],
  },
  build(parameters, facts) {
    const extra = unexpected(parameters, ['marketId', 'secondMarketId']);
    if (!extra.ok) return extra;
    const first = bookOf(parameters, 'marketId', facts);
    if (!first.ok) return first;
    const second = bookOf(parameters, 'secondMarketId', facts);
    if (!second.ok) return second;
    if (first.value.market_id === second.value.market_id) return fail(OWNER_METHOD_CODES.BAD_PARAMETER, 'secondMarketId: the same market twice', { field: 'secondMarketId' });
    const calls: ContractCall[] = [];
    for (const market of [first.value, second.value]) {
      const call = actionToCall({ kind: 'SettleBalance', to: contractIdentity(facts.tradeAccountId) }, market, { trade_account_id: facts.tradeAccountId });
      if (!call.ok) return call;
      calls.push(call.value);
    }
    const [firstName, secondName] = [facts.marketName(first.value), facts.marketName(second.value)];
    return ok({
      call: { endpoint: 'calls', calls },
      description: `Owner calls settle_balance on ${firstName} and ${secondName}`,
      lines: [
        trusted`marketId: ${first.value.market_id} (${firstName}; contract ${first.value.contract_id})`,
        trusted`secondMarketId: ${second.value.market_id} (${secondName}; contract ${second.value.contract_id})`,
        trusted`to: ContractId ${facts.tradeAccountId} (the trading account), for both`,
      ],
      parameters: { marketId: first.value.market_id, secondMarketId: second.value.market_id },
    });
  },
};

const upgrade: OwnerMethod = {
  view: {
    method: 'upgrade',
    endpoint: 'POST /v1/accounts/upgrade',
    title: 'Upgrade the trading account contract',
    explains:
      'Moves the trading account to the implementation the exchange publishes. The signature authorises only that implementation (the exchange refuses any other), so give the id the venue announced.',
    parameters: [{ name: 'implementation', label: 'Implementation id', kind: 'b256' }],
  },
  build(parameters) {
    const extra = unexpected(parameters, ['implementation']);
    if (!extra.ok) return extra;
    const implementation = parameter(parameters, 'implementation', b256Text);
    if (!implementation.ok) return implementation;
    return ok({
      call: { endpoint: 'upgrade', implementation: implementation.value },
      description: `Upgrade the trading account to implementation ${implementation.value}`,
      lines: [trusted`implementation: ${implementation.value}`],
      parameters: { implementation: implementation.value },
    });
  },
};

/** Every owner method the page may ask for; anything else is refused before a confirmation. */
const OWNER_METHODS: Readonly<Record<string, OwnerMethod>> = { settleBalance, whitelist, cancelOrder, settleBooks, upgrade };

export function ownerMethodViews(): OwnerMethodView[] {
  return Object.values(OWNER_METHODS).map((method) => method.view);
}

export function buildOwnerMethod(method: string, parameters: Readonly<Record<string, string>>, facts: MethodFacts): Result<BuiltOwnerMethod & { readonly view: OwnerMethodView }> {
  const entry = Object.hasOwn(OWNER_METHODS, method) ? OWNER_METHODS[method] : undefined;
  if (entry === undefined) return fail(OWNER_METHOD_CODES.NOT_ALLOWED, `method: ${JSON.stringify(method).slice(0, 80)} is not an owner method the terminal allows (${Object.keys(OWNER_METHODS).join(', ')})`, { field: 'method' });
  const built = entry.build(parameters, facts);
  return built.ok ? ok({ ...built.value, view: entry.view }) : built;
}
