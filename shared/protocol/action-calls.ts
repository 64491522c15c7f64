// Each action becomes one contract call (wire notes: "Session actions", "Margin action calls",
// "Trigger orders"; CreateSharedOrder and ExecuteTurboOrders are ours, in the same call style).
// Encoding is total over well-formed values: market rules are checked before (market/,
// check-action.ts), so the sandbox can rebuild the exact signed bytes of any request it receives.
import type { B256 } from '../encoding/b256';
import { ByteWriter } from '../encoding/byte-writer';
import { U64_MAX } from '../encoding/decimal';
import { contractIdentity } from '../encoding/identity';
import { powerOfTen } from '../market/market';
import type { Side } from '../market/order-type';
import { fail, ok, type Result } from '../result';
import { MARGIN_PERIODS, type MarginAccountAction, type MarginPeriod, type OwnerAction, type SessionAction } from './actions';
import { makeCall, type ContractCall } from './call';
import { writeOrderArgs } from './order-args';
import { triggerLockPrice, writeTriggerLeg, type TriggerLeg } from './trigger';

export const MISSING_TARGET = 'MISSING_TARGET';
export const FORWARDED_AMOUNT_TOO_LARGE = 'FORWARDED_AMOUNT_TOO_LARGE';

/** What a call needs to know about the group's book. For a Turbo group pass the Turbo row. */
export interface CallMarket {
  readonly contract_id: B256;
  readonly base: { readonly asset: B256; readonly decimals: number };
  readonly quote: { readonly asset: B256 };
}

/** Contracts outside the book that some actions target. */
export interface CallTargets {
  /** The account that signs the batch: the parent, or the Turbo Account for pool actions. */
  readonly trade_account_id: B256;
  readonly accounts_registry_id?: B256;
  readonly margin_pool_id?: B256;
  /** The pool's collateral (quote) asset, forwarded by ReturnQuote and AddCollateral. */
  readonly margin_collateral_asset_id?: B256;
}

export const SELECTORS = {
  CreateOrder: 'create_order',
  CancelOrder: 'cancel_order',
  SettleBalance: 'settle_balance',
  RegisterReferer: 'register_referer',
  CreateOrderWithTriggers: 'create_order_with_triggers',
  CreateTriggerOrder: 'create_trigger_order',
  CreateTriggerOrders: 'create_trigger_orders',
  CancelTriggerOrder: 'cancel_order',
  CreateSharedOrder: 'create_shared_order',
  ExecuteTurboOrders: 'execute_turbo_orders',
  RegisterMarginAccount: 'prop_register_contract',
  StartMarginSession: 'start_session',
  CloseMarginSession: 'close_session',
  WithdrawFromMarginAccount: 'withdraw',
  Draw: 'draw',
  ReturnQuote: 'return_quote',
  Borrow: 'borrow',
  Repay: 'repay',
  RepayFromCollateral: 'repay_from_collateral',
  RepayBaseFromCollateral: 'repay_base_from_collateral',
  AddCollateral: 'add_collateral',
  WithdrawFromMargin: 'withdraw',
  ProlongSession: 'prolong_session',
  SetAutoProlong: 'set_auto_prolong',
  Whitelist: 'whitelist_account',
} as const;

export function periodDiscriminant(period: MarginPeriod): bigint {
  return BigInt(MARGIN_PERIODS.indexOf(period));
}

function data(write: (writer: ByteWriter) => void): Uint8Array {
  const writer = new ByteWriter(128);
  write(writer);
  return writer.finish();
}

function quoteFor(market: CallMarket, price: bigint, quantity: bigint): bigint {
  return (price * quantity) / powerOfTen(market.base.decimals);
}

/** What an order of `side` forwards: quote value for a buy, the quantity of base for a sell. */
function orderForwarded(market: CallMarket, side: Side, price: bigint, quantity: bigint): { amount: bigint; asset: B256 } {
  return side === 'Buy' ? { amount: quoteFor(market, price, quantity), asset: market.quote.asset } : { amount: quantity, asset: market.base.asset };
}

/**
 * A trigger leg's lock: sell, its quantity of base; buy, quantity × lock price / 10^bd of quote;
 * a leg sized from its parent locks nothing (the asset still names the side for the contract).
 */
export function triggerForwarded(market: CallMarket, leg: TriggerLeg): { amount: bigint; asset: B256 } {
  const asset = leg.side === 'Buy' ? market.quote.asset : market.base.asset;
  if (leg.quantity.kind === 'ParentOrder') return { amount: 0n, asset };
  return leg.side === 'Buy' ? { amount: quoteFor(market, triggerLockPrice(leg), leg.quantity.quantity), asset } : { amount: leg.quantity.quantity, asset };
}

function needMarket(market: CallMarket | undefined, kind: string): Result<CallMarket> {
  return market ? ok(market) : fail(MISSING_TARGET, `${kind} needs the market of its group`, { field: 'market_id' });
}

function needTarget(value: B256 | undefined, name: string, kind: string): Result<B256> {
  return value ? ok(value) : fail(MISSING_TARGET, `${kind} needs ${name}, which this network did not provide`, { field: name });
}

function checkedCall(call: ContractCall, kind: string): Result<ContractCall> {
  if (call.forwarded_amount > U64_MAX) return fail(FORWARDED_AMOUNT_TOO_LARGE, `${kind}: forwarded amount ${call.forwarded_amount} does not fit in a u64`);
  return ok(call);
}

/** The call an action becomes. `market` is the group's book (required by book actions). */
export function actionToCall(action: SessionAction, market: CallMarket | undefined, targets: CallTargets): Result<ContractCall> {
  const kind = action.kind;
  const selector = SELECTORS[kind];
  switch (kind) {
    case 'CreateOrder':
    case 'CreateSharedOrder': {
      const book = needMarket(market, kind);
      if (!book.ok) return book;
      const callData = data((writer) => writeOrderArgs(writer, action.price, action.quantity, action.order_type));
      return checkedCall(makeCall(book.value.contract_id, selector, callData, orderForwarded(book.value, action.side, action.price, action.quantity)), kind);
    }
    case 'CancelOrder':
    case 'CancelTriggerOrder': {
      const book = needMarket(market, kind);
      if (!book.ok) return book;
      return ok(makeCall(book.value.contract_id, selector, data((writer) => writer.b256(action.order_id))));
    }
    case 'SettleBalance': {
      const book = needMarket(market, kind);
      if (!book.ok) return book;
      return ok(makeCall(book.value.contract_id, selector, data((writer) => writer.identity(action.to))));
    }
    case 'RegisterReferer': {
      const registry = needTarget(targets.accounts_registry_id, 'accounts_registry_id', kind);
      if (!registry.ok) return registry;
      return ok(makeCall(registry.value, selector, data((writer) => writer.identity(action.to))));
    }
    case 'CreateOrderWithTriggers': {
      const book = needMarket(market, kind);
      if (!book.ok) return book;
      const callData = data((writer) => {
        writeOrderArgs(writer, action.price, action.quantity, action.order_type);
        writeTriggerLeg(writer, action.trigger_1);
        writer.option(action.trigger_2, writeTriggerLeg);
      });
      return checkedCall(makeCall(book.value.contract_id, selector, callData, orderForwarded(book.value, action.side, action.price, action.quantity)), kind);
    }
    case 'CreateTriggerOrder': {
      const book = needMarket(market, kind);
      if (!book.ok) return book;
      const callData = data((writer) => {
        writeTriggerLeg(writer, action.args);
        writer.option(action.parent?.expected_quantity, (inner, quantity) => inner.u64(quantity));
      });
      return checkedCall(makeCall(book.value.contract_id, selector, callData, triggerForwarded(book.value, action.args)), kind);
    }
    case 'CreateTriggerOrders': {
      const book = needMarket(market, kind);
      if (!book.ok) return book;
      const callData = data((writer) => {
        writeTriggerLeg(writer, action.first);
        writeTriggerLeg(writer, action.second);
        writer.option(action.parent?.expected_quantity, (inner, quantity) => inner.u64(quantity));
      });
      return checkedCall(makeCall(book.value.contract_id, selector, callData, triggerForwarded(book.value, action.first)), kind);
    }
    case 'ExecuteTurboOrders': {
      const book = needMarket(market, kind);
      if (!book.ok) return book;
      const callData = data((writer) => writer.b256(action.source_order_id).u64(action.max_base_quantity).u64(action.max_fills));
      return ok(makeCall(book.value.contract_id, selector, callData));
    }
    case 'RegisterMarginAccount': {
      const registry = needTarget(targets.accounts_registry_id, 'accounts_registry_id', kind);
      if (!registry.ok) return registry;
      const callData = data((writer) => writer.b256(action.margin_account_id).identity(contractIdentity(targets.trade_account_id)).u64(action.index));
      return ok(makeCall(registry.value, selector, callData));
    }
    case 'StartMarginSession': {
      const collateral = needTarget(targets.margin_collateral_asset_id, 'margin_collateral_asset_id', kind);
      if (!collateral.ok) return collateral;
      const callData = data((writer) => writer.u64(action.tier_id).u64(action.amount).unitEnum(periodDiscriminant(action.period)));
      return ok(makeCall(action.margin_account_id, selector, callData, { amount: action.amount, asset: collateral.value }));
    }
    case 'CloseMarginSession': {
      const callData = data((writer) =>
        writer.vec(action.cleanups, (inner, cleanup) => {
          inner.b256(cleanup.order_book_id).vec(cleanup.order_ids, (ids, orderId) => ids.b256(orderId));
        }),
      );
      return ok(makeCall(action.margin_account_id, selector, callData));
    }
    case 'WithdrawFromMarginAccount':
      return ok(makeCall(action.margin_account_id, selector, data((writer) => writer.b256(action.asset_id).u64(action.amount))));
    default:
      return poolActionToCall(action, targets);
  }
}

function poolActionToCall(action: MarginAccountAction, targets: CallTargets): Result<ContractCall> {
  const kind = action.kind;
  const pool = needTarget(targets.margin_pool_id, 'margin_pool_id', kind);
  if (!pool.ok) return pool;
  const selector = SELECTORS[kind];
  const collateral = (): Result<B256> => needTarget(targets.margin_collateral_asset_id, 'margin_collateral_asset_id', kind);
  switch (kind) {
    case 'Draw':
      return ok(makeCall(pool.value, selector, data((writer) => writer.u64(action.amount))));
    case 'ReturnQuote': {
      const asset = collateral();
      return asset.ok ? ok(makeCall(pool.value, selector, null, { amount: action.amount, asset: asset.value })) : asset;
    }
    case 'Borrow':
    case 'RepayBaseFromCollateral':
    case 'WithdrawFromMargin':
      return ok(makeCall(pool.value, selector, data((writer) => writer.b256(action.asset_id).u64(action.amount))));
    case 'Repay':
      return ok(makeCall(pool.value, selector, null, { amount: action.amount, asset: action.asset_id }));
    case 'RepayFromCollateral':
      return ok(makeCall(pool.value, selector, data((writer) => writer.u64(action.amount))));
    case 'AddCollateral': {
      const asset = collateral();
      if (!asset.ok) return asset;
      return ok(makeCall(pool.value, selector, data((writer) => writer.b256(targets.trade_account_id)), { amount: action.amount, asset: asset.value }));
    }
    case 'ProlongSession':
      return ok(makeCall(pool.value, selector, data((writer) => writer.unitEnum(periodDiscriminant(action.period)).u64(action.times))));
    case 'SetAutoProlong':
      return ok(makeCall(pool.value, selector, data((writer) => writer.option(action.period, (inner, period) => inner.unitEnum(periodDiscriminant(period))))));
  }
}

/** Owner actions of POST /v1/accounts/actions, on the group's book. */
export function ownerActionToCall(action: OwnerAction, market: CallMarket): ContractCall {
  if (action.kind === 'SettleBalance') return makeCall(market.contract_id, SELECTORS.SettleBalance, data((writer) => writer.identity(action.to)));
  return makeCall(market.contract_id, SELECTORS.Whitelist, data((writer) => writer.identity(action.account)));
}
