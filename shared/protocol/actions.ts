// Every action of both documents as a typed value. The same value produces the JSON of the
// request body (action-json.ts) and the call that is signed (action-calls.ts), so the two cannot drift.
import type { B256 } from '../encoding/b256';
import type { Identity } from '../encoding/identity';
import type { OrderType, Side } from '../market/order-type';
import type { TriggerLeg, TriggerParent } from './trigger';

/** Margin periods, with their unit-enum discriminants in call data. */
export const MARGIN_PERIODS = ['SixHours', 'Day', 'Week', 'Month'] as const;
export type MarginPeriod = (typeof MARGIN_PERIODS)[number];

export interface CloseCleanup {
  readonly order_book_id: B256;
  readonly order_ids: readonly B256[];
}

// Trading (first document)
export interface CreateOrderAction {
  readonly kind: 'CreateOrder';
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly order_type: OrderType;
}
export interface CancelOrderAction {
  readonly kind: 'CancelOrder';
  readonly order_id: B256;
}
export interface SettleBalanceAction {
  readonly kind: 'SettleBalance';
  /** Where the book's balance goes: the trading account, as ContractId. */
  readonly to: Identity;
}
export interface RegisterRefererAction {
  readonly kind: 'RegisterReferer';
  readonly to: Identity;
}

// Trigger orders
export interface CreateOrderWithTriggersAction {
  readonly kind: 'CreateOrderWithTriggers';
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly order_type: OrderType;
  readonly trigger_1: TriggerLeg;
  readonly trigger_2?: TriggerLeg;
}
export interface CreateTriggerOrderAction {
  readonly kind: 'CreateTriggerOrder';
  readonly args: TriggerLeg;
  readonly parent?: TriggerParent;
}
export interface CreateTriggerOrdersAction {
  readonly kind: 'CreateTriggerOrders';
  /** Put the leg that locks more first: its lock covers both. */
  readonly first: TriggerLeg;
  readonly second: TriggerLeg;
  readonly parent?: TriggerParent;
}
export interface CancelTriggerOrderAction {
  readonly kind: 'CancelTriggerOrder';
  readonly order_id: B256;
}

// House market maker (canonical group, turbo false)
export interface CreateSharedOrderAction {
  readonly kind: 'CreateSharedOrder';
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: bigint;
  /** Spot or PostOnly only; PostOnly when omitted in JSON. */
  readonly order_type: Extract<OrderType, { kind: 'Spot' } | { kind: 'PostOnly' }>;
}
export interface ExecuteTurboOrdersAction {
  readonly kind: 'ExecuteTurboOrders';
  readonly source_order_id: B256;
  readonly max_base_quantity: bigint;
  readonly max_fills: bigint;
}

// Margin: parent actions
export interface RegisterMarginAccountAction {
  readonly kind: 'RegisterMarginAccount';
  readonly margin_account_id: B256;
  readonly index: bigint;
}
export interface StartMarginSessionAction {
  readonly kind: 'StartMarginSession';
  readonly margin_account_id: B256;
  /** A decimal string on the wire, a u64 in call data. */
  readonly tier_id: bigint;
  readonly amount: bigint;
  readonly period: MarginPeriod;
}
export interface CloseMarginSessionAction {
  readonly kind: 'CloseMarginSession';
  readonly margin_account_id: B256;
  readonly cleanups: readonly CloseCleanup[];
}
export interface WithdrawFromMarginAccountAction {
  readonly kind: 'WithdrawFromMarginAccount';
  readonly margin_account_id: B256;
  readonly asset_id: B256;
  readonly amount: bigint;
}

// Margin: Turbo Account actions (target the pool)
export interface DrawAction {
  readonly kind: 'Draw';
  readonly amount: bigint;
}
export interface ReturnQuoteAction {
  readonly kind: 'ReturnQuote';
  readonly amount: bigint;
}
export interface BorrowAction {
  readonly kind: 'Borrow';
  readonly asset_id: B256;
  readonly amount: bigint;
}
export interface RepayAction {
  readonly kind: 'Repay';
  readonly asset_id: B256;
  readonly amount: bigint;
}
export interface RepayFromCollateralAction {
  readonly kind: 'RepayFromCollateral';
  readonly amount: bigint;
}
export interface RepayBaseFromCollateralAction {
  readonly kind: 'RepayBaseFromCollateral';
  readonly asset_id: B256;
  readonly amount: bigint;
}
export interface AddCollateralAction {
  readonly kind: 'AddCollateral';
  readonly amount: bigint;
}
export interface WithdrawFromMarginAction {
  readonly kind: 'WithdrawFromMargin';
  readonly asset_id: B256;
  readonly amount: bigint;
}
export interface ProlongSessionAction {
  readonly kind: 'ProlongSession';
  readonly period: MarginPeriod;
  readonly times: bigint;
}
export interface SetAutoProlongAction {
  readonly kind: 'SetAutoProlong';
  /** null disables automatic prolongation. */
  readonly period: MarginPeriod | null;
}

export type TradingAction = CreateOrderAction | CancelOrderAction | SettleBalanceAction | RegisterRefererAction;
export type TriggerAction = CreateOrderWithTriggersAction | CreateTriggerOrderAction | CreateTriggerOrdersAction | CancelTriggerOrderAction;
export type HouseAction = CreateSharedOrderAction | ExecuteTurboOrdersAction;
export type MarginParentAction = RegisterMarginAccountAction | StartMarginSessionAction | CloseMarginSessionAction | WithdrawFromMarginAccountAction;
export type MarginAccountAction =
  | DrawAction
  | ReturnQuoteAction
  | BorrowAction
  | RepayAction
  | RepayFromCollateralAction
  | RepayBaseFromCollateralAction
  | AddCollateralAction
  | WithdrawFromMarginAction
  | ProlongSessionAction
  | SetAutoProlongAction;

export type SessionAction = TradingAction | TriggerAction | HouseAction | MarginParentAction | MarginAccountAction;
export type SessionActionKind = SessionAction['kind'];

export const SESSION_ACTION_KINDS: readonly SessionActionKind[] = [
  'CreateOrder',
  'CancelOrder',
  'SettleBalance',
  'RegisterReferer',
  'CreateOrderWithTriggers',
  'CreateTriggerOrder',
  'CreateTriggerOrders',
  'CancelTriggerOrder',
  'CreateSharedOrder',
  'ExecuteTurboOrders',
  'RegisterMarginAccount',
  'StartMarginSession',
  'CloseMarginSession',
  'WithdrawFromMarginAccount',
  'Draw',
  'ReturnQuote',
  'Borrow',
  'Repay',
  'RepayFromCollateral',
  'RepayBaseFromCollateral',
  'AddCollateral',
  'WithdrawFromMargin',
  'ProlongSession',
  'SetAutoProlong',
];

/** Actions that place an order on the group's book (a SettleBalance is prepended before them). */
export function createsOrder(action: SessionAction): boolean {
  return action.kind === 'CreateOrder' || action.kind === 'CreateOrderWithTriggers' || action.kind === 'CreateSharedOrder';
}

// Owner actions of POST /v1/accounts/actions
export interface WhitelistAction {
  readonly kind: 'Whitelist';
  /** The account to whitelist on the group's book: the trading account, as ContractId. */
  readonly account: Identity;
}
export type OwnerAction = SettleBalanceAction | WhitelistAction;
