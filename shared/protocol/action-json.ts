// The JSON of each action as it appears in a request body: `{"<Kind>": {fields}}`, money as
// decimal strings. Field names for actions the spec leaves "not shown" are ours (docs/protocol.md).
import { identityToJson } from '../encoding/identity';
import { BugError } from '../result';
import type { OwnerAction, SessionAction } from './actions';
import { orderTypeToJson } from './order-args';
import { triggerLegToJson, type TriggerParent } from './trigger';

export type ActionJson = Record<string, unknown>;

function parentJson(parent: TriggerParent | undefined): { parent?: { order_id: string; expected_quantity: string } } {
  return parent === undefined ? {} : { parent: { order_id: parent.order_id, expected_quantity: parent.expected_quantity.toString() } };
}

function bodyOf(action: SessionAction): Record<string, unknown> {
  switch (action.kind) {
    case 'CreateOrder':
    case 'CreateSharedOrder':
      return { side: action.side, price: action.price.toString(), quantity: action.quantity.toString(), order_type: orderTypeToJson(action.order_type) };
    case 'CancelOrder':
    case 'CancelTriggerOrder':
      return { order_id: action.order_id };
    case 'SettleBalance':
    case 'RegisterReferer':
      return { to: identityToJson(action.to) };
    case 'CreateOrderWithTriggers':
      return {
        side: action.side,
        price: action.price.toString(),
        quantity: action.quantity.toString(),
        order_type: orderTypeToJson(action.order_type),
        trigger_1: triggerLegToJson(action.trigger_1),
        ...(action.trigger_2 === undefined ? {} : { trigger_2: triggerLegToJson(action.trigger_2) }),
      };
    case 'CreateTriggerOrder':
      return { args: triggerLegToJson(action.args), ...parentJson(action.parent) };
    case 'CreateTriggerOrders':
      return { first: triggerLegToJson(action.first), second: triggerLegToJson(action.second), ...parentJson(action.parent) };
    case 'ExecuteTurboOrders':
      return { source_order_id: action.source_order_id, max_base_quantity: action.max_base_quantity.toString(), max_fills: action.max_fills.toString() };
    case 'RegisterMarginAccount':
      return { margin_account_id: action.margin_account_id, index: action.index.toString() };
    case 'StartMarginSession':
      return { margin_account_id: action.margin_account_id, tier_id: action.tier_id.toString(), amount: action.amount.toString(), period: action.period };
    case 'CloseMarginSession':
      return { margin_account_id: action.margin_account_id, cleanups: action.cleanups.map((cleanup) => ({ order_book_id: cleanup.order_book_id, order_ids: [...cleanup.order_ids] })) };
    case 'WithdrawFromMarginAccount':
      return { margin_account_id: action.margin_account_id, asset_id: action.asset_id, amount: action.amount.toString() };
    case 'Draw':
    case 'ReturnQuote':
    case 'RepayFromCollateral':
    case 'AddCollateral':
      return { amount: action.amount.toString() };
    case 'Borrow':
    case 'Repay':
    case 'RepayBaseFromCollateral':
    case 'WithdrawFromMargin':
      return { asset_id: action.asset_id, amount: action.amount.toString() };
    case 'ProlongSession':
      return { period: action.period, times: action.times.toString() };
    case 'SetAutoProlong':
      return { period: action.period };
  }
}

export function sessionActionToJson(action: SessionAction): ActionJson {
  const body = bodyOf(action);
  if (body === undefined) throw new BugError(`no JSON form for ${(action as { kind: string }).kind}`);
  return { [action.kind]: body };
}

export function ownerActionToJson(action: OwnerAction): ActionJson {
  return action.kind === 'SettleBalance' ? { SettleBalance: { to: identityToJson(action.to) } } : { Whitelist: { account: identityToJson(action.account) } };
}
