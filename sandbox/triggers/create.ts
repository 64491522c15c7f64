// The three create actions (CreateOrderWithTriggers, CreateTriggerOrder, CreateTriggerOrders),
// applied inside a signed batch's transaction. Every refusal is a Revert returned before the
// first mutation of this action; the leg rules are shared/protocol's checkTriggerLeg, the same the
// client runs before signing.
import { ZERO_B256, type B256 } from '../../shared/encoding/b256';
import { ORDER_CODES } from '../../shared/market/validate-order';
import type { MarketConfig } from '../config/network';
import { oppositeSide } from '../../shared/market/order-type';
import { triggerForwarded } from '../../shared/protocol/action-calls';
import type { CreateOrderWithTriggersAction, CreateTriggerOrderAction, CreateTriggerOrdersAction } from '../../shared/protocol/actions';
import { ACTION_CODES, checkTriggerLeg } from '../../shared/protocol/check-action';
import { triggerDirection, type TriggerDirection, type TriggerLeg, type TriggerParent } from '../../shared/protocol/trigger';
import type { ContractAccount } from '../ledger/accounts';
import type { ActionContext } from '../ledger/action-context';
import { REASONS, type MarketState } from '../ledger/market';
import { filledQuantity, type OrderRecord } from '../ledger/orders';
import { isRevert, revert, type Revert } from '../ledger/revert';
import type { TurboLink } from '../turbo/link';
import type { TriggerRecord } from './records';

/** Where a group's legs live: its book (the Turbo book for a Turbo group) and the market's pairing. */
export interface TriggerVenue {
  readonly market: MarketState;
  readonly link?: TurboLink | undefined;
  readonly turbo: boolean;
}

/** Contract error names of the leg rules (docs/sandbox.md "Trigger orders"). */
const LEG_REASONS: Readonly<Record<string, string>> = {
  ...REASONS,
  [ORDER_CODES.UNBOUNDED_MARKET_ORDER]: 'UnboundedMarketOrder',
  [ACTION_CODES.TRIGGER_SLIPPAGE]: 'TriggerSlippageExceeded',
  [ACTION_CODES.TRIGGER_AT_MARKET]: 'TriggerAtMarket',
};

/** The price a leg's direction is judged from: the last trade, else the mid (a Turbo book: its canonical book's). */
export function referencePriceOf(venue: TriggerVenue): bigint | undefined {
  return venue.turbo && venue.link !== undefined ? venue.link.canonical.referencePrice() : venue.market.referencePrice();
}

function legProblem(venue: TriggerVenue, account: ContractAccount, leg: TriggerLeg, label: string): Revert | undefined {
  const slippage = venue.turbo && venue.link !== undefined ? { maxSlippageBps: BigInt(venue.link.triggerMaxSlippage) } : {};
  const checked = checkTriggerLeg(venue.market.config, leg, { marginAccount: account.kind === 'margin', ...slippage }, label);
  return checked.ok ? undefined : revert(LEG_REASONS[checked.code] ?? checked.code, checked.message);
}

function directionOf(venue: TriggerVenue, leg: TriggerLeg, label: string): TriggerDirection | Revert {
  const reference = referencePriceOf(venue);
  if (reference === undefined) return revert('NoReferencePrice', `${label}: market ${venue.market.config.market_id} has no trade and no quotes yet, so the trigger has no side of the market`);
  const direction = triggerDirection(leg.trigger_price, reference);
  if (direction === undefined) return revert('TriggerAtMarket', `${label}: trigger price ${leg.trigger_price} is the reference price ${reference}; put it above or below the market`);
  return direction;
}

function accountProblem(config: MarketConfig, account: ContractAccount): Revert | undefined {
  if (config.whitelistRequired && !account.whitelisted) return revert('TraderNotWhiteListed', `trade account ${account.id} is not whitelisted on market ${config.market_id}`);
  return undefined;
}

/** The books a leg watches and their last trade sequences now (a Turbo leg also watches its canonical book). */
export function watchedSince(venue: TriggerVenue): Map<string, number> {
  const since = new Map<string, number>([[venue.market.config.contract_id, venue.market.lastTradeSequence]]);
  if (venue.turbo && venue.link !== undefined) since.set(venue.link.canonical.config.contract_id, venue.link.canonical.lastTradeSequence);
  return since;
}

function newRecord(
  venue: TriggerVenue,
  context: ActionContext,
  leg: TriggerLeg,
  direction: TriggerDirection,
  extra: { parentId?: B256; expectedQuantity?: bigint; ownLock: bigint; since?: Map<string, number> },
): TriggerRecord {
  const { id, sequence } = venue.market.nextTrigger();
  return {
    id,
    marketId: venue.market.config.market_id,
    account: context.account.id,
    leg,
    direction,
    since: extra.since ?? watchedSince(venue),
    ...(extra.parentId === undefined ? {} : { parentId: extra.parentId }),
    ...(extra.expectedQuantity === undefined ? {} : { expectedQuantity: extra.expectedQuantity }),
    ownLock: extra.ownLock,
    locked: 0n,
    state: 'pending',
    timestamp: context.timestamp,
    sequence,
    history: [{ type: 'created', status: 'success', tx_id: context.txId }],
    stamp: -1,
    ...(venue.turbo ? { turbo: true } : {}),
  };
}

function pair(first: TriggerRecord, second: TriggerRecord | undefined): void {
  if (second === undefined) return;
  // Both records were created in this transaction: a revert deletes them, so no undo is needed.
  first.ocoId = second.id;
  second.ocoId = first.id;
}

/** The resting order a standalone leg binds to, checked against `expected_quantity`. */
function parentProblem(venue: TriggerVenue, account: ContractAccount, parent: TriggerParent, legs: readonly TriggerLeg[]): Revert | undefined {
  const order = venue.market.orders.get(parent.order_id);
  if (order === undefined || order.account !== account.id) {
    return revert('ParentOrderNotFound', `parent ${parent.order_id} is not an order of trade account ${account.id} on book ${venue.market.config.contract_id}`);
  }
  if (order.close && filledQuantity(order) === 0n) return revert('ParentOrderClosed', `parent ${parent.order_id} closed without any fill: there is nothing to protect`);
  if (order.quantity !== parent.expected_quantity) {
    return revert('ExpectedQuantityMismatch', `parent ${parent.order_id} was placed for ${order.quantity}, the leg expects ${parent.expected_quantity}`);
  }
  const same = legs.find((leg) => leg.side === order.side);
  if (same !== undefined) return revert('TriggerSameSide', `a leg protecting the ${order.side} order ${order.id} closes it, so it must be a ${oppositeSide(order.side)}`);
  return undefined;
}

/** CreateTriggerOrder (one leg) and CreateTriggerOrders (an OCO pair): legs resting with their escrow. */
function createStandalone(venue: TriggerVenue, context: ActionContext, legs: readonly [TriggerLeg] | readonly [TriggerLeg, TriggerLeg], labels: readonly string[], parent: TriggerParent | undefined): Revert | undefined {
  const { account } = context;
  const config = venue.market.config;
  const refused = accountProblem(config, account);
  if (refused) return refused;
  for (const [index, leg] of legs.entries()) {
    const label = labels[index] as string;
    if (leg.quantity.kind === 'ParentOrder') {
      if (parent === undefined) return revert('ParentOrderRequired', `${label}: a leg sized from an order names that order as its parent with its initial quantity`);
      if (leg.quantity.parent_order_id !== parent.order_id) return revert('TriggerParentMismatch', `${label}: sized from ${leg.quantity.parent_order_id}, bound to ${parent.order_id}`);
    }
    const problem = legProblem(venue, account, leg, label);
    if (problem) return problem;
  }
  const [first, second] = legs;
  if (second !== undefined) {
    if (second.side !== first.side) return revert('TriggerSideMismatch', 'an OCO pair protects one position: both legs are on the same side');
    if (triggerForwarded(config, second).amount > triggerForwarded(config, first).amount) {
      return revert('TriggerLockOrder', 'the first leg must lock at least as much as the second: its lock covers both');
    }
  }
  if (parent !== undefined) {
    const problem = parentProblem(venue, account, parent, legs);
    if (problem) return problem;
  }
  const directions: TriggerDirection[] = [];
  for (const [index, leg] of legs.entries()) {
    const direction = directionOf(venue, leg, labels[index] as string);
    if (typeof direction !== 'string') return direction;
    directions.push(direction);
  }
  const forwarded = triggerForwarded(config, first);
  const available = account.balances.get(forwarded.asset);
  if (available < forwarded.amount) {
    return revert('InsufficientBalance', `trade account ${account.id} holds ${available} of asset ${forwarded.asset}, the trigger forwards ${forwarded.amount}`);
  }
  account.balances.add(forwarded.asset, -forwarded.amount);
  const records = legs.map((leg, index) =>
    newRecord(venue, context, leg, directions[index] as TriggerDirection, {
      ...(parent === undefined ? {} : { parentId: parent.order_id as B256, expectedQuantity: parent.expected_quantity }),
      ownLock: triggerForwarded(config, leg).amount,
    }),
  );
  const holder = records[0] as TriggerRecord;
  holder.locked = forwarded.amount;
  pair(holder, records[1]);
  for (const record of records) venue.market.triggers.register(record);
  venue.market.triggers.lock(holder, forwarded.amount);
  return undefined;
}

export function applyCreateTriggerOrder(venue: TriggerVenue, context: ActionContext, action: CreateTriggerOrderAction): Revert | undefined {
  return createStandalone(venue, context, [action.args], ['args'], action.parent);
}

export function applyCreateTriggerOrders(venue: TriggerVenue, context: ActionContext, action: CreateTriggerOrdersAction): Revert | undefined {
  return createStandalone(venue, context, [action.first, action.second], ['first', 'second'], action.parent);
}

/**
 * CreateOrderWithTriggers: the order, placed exactly as a CreateOrder (`place`), and its legs,
 * sized from it, as an OCO pair when there are two. Directions are taken from the market as it
 * stood before the order traded. A parent that closes without any fill takes its legs with it.
 */
export function applyCreateOrderWithTriggers(
  venue: TriggerVenue,
  context: ActionContext,
  action: CreateOrderWithTriggersAction,
  place: (args: { side: CreateOrderWithTriggersAction['side']; price: bigint; quantity: bigint; orderType: CreateOrderWithTriggersAction['order_type'] }) => OrderRecord | Revert,
): OrderRecord | Revert {
  const legs = action.trigger_2 === undefined ? [action.trigger_1] : [action.trigger_1, action.trigger_2];
  const directions: TriggerDirection[] = [];
  for (const [index, leg] of legs.entries()) {
    const label = `trigger_${index + 1}`;
    if (leg.quantity.kind !== 'ParentOrder' || leg.quantity.parent_order_id !== ZERO_B256) {
      return revert('QuantityMustBeParentOrder', `${label}: a leg attached at placement takes the new order's size (ParentOrder with a zero id)`);
    }
    if (leg.side === action.side) return revert('TriggerSameSide', `${label}: a leg protecting a ${action.side} closes it, so it must be a ${oppositeSide(action.side)}`);
    const problem = legProblem(venue, context.account, leg, label);
    if (problem) return problem;
    const direction = directionOf(venue, leg, label);
    if (typeof direction !== 'string') return direction;
    directions.push(direction);
  }
  // Judged against the market before the order trades: its own fills may reach a leg.
  const since = watchedSince(venue);
  const order = place({ side: action.side, price: action.price, quantity: action.quantity, orderType: action.order_type });
  if (isRevert(order)) return order;
  const records = legs.map((leg, index) =>
    newRecord(venue, context, { ...leg, quantity: { kind: 'ParentOrder', parent_order_id: order.id } }, directions[index] as TriggerDirection, {
      parentId: order.id,
      expectedQuantity: order.quantity,
      ownLock: 0n,
      since,
    }),
  );
  pair(records[0] as TriggerRecord, records[1]);
  for (const record of records) venue.market.triggers.register(record);
  if (order.close) venue.market.triggers.onParentClosedUnfilled(order, context);
  return order;
}
