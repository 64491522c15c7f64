// Turning a trader's intent into the actions main signs (the trader's own limits, such as the
// maximum order size, are main's guards', checked on what is about to be signed: main/services/guards). The quantity is floored to the market's
// step and lowered to a whole quote value (the wire notes' rules), and the trader is told; a price
// off the tick is refused rather than moved, because moving a sell price down or a buy price up
// silently trades at a price nobody chose.
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import { isWholeQuoteValue, lowerQuantityToWholeQuote } from '../../../shared/market/amounts';
import type { Market } from '../../../shared/market/market';
import { signOrderType, type OrderTypeIntent } from '../../../shared/market/order-kinds';
import type { Side } from '../../../shared/market/order-type';
import { truncateQuantity } from '../../../shared/market/tick';
import { validateOrder, type ValidatedOrder } from '../../../shared/market/validate-order';
import type { ActionGroup } from '../../../shared/protocol/session-actions';
import { MAX_ACTIONS_PER_BATCH, MAX_GROUPS_PER_BATCH } from '../../../shared/protocol/session-actions';
import type { SessionAction } from '../../../shared/protocol/actions';
import { ok, type Result } from '../../../shared/result';

export type { OrderTypeIntent };

export interface PlaceIntent {
  readonly side: Side;
  readonly orderType: OrderTypeIntent;
  readonly price: bigint;
  readonly quantity: bigint;
  /** Only reduce the signing account's position (held by main's guards, main/services/guards). */
  readonly reduceOnly?: boolean | undefined;
}

export interface PreparedOrder {
  readonly group: ActionGroup;
  readonly description: string;
  readonly adjustments: string[];
  readonly validated: ValidatedOrder;
  readonly quantity: bigint;
}

export function pairName(market: Market): string {
  return `${market.base.symbol}/${market.quote.symbol}`;
}

export function describeOrder(market: Market, side: Side, kind: string, price: bigint, quantity: bigint): string {
  return `${side} ${formatUnits(quantity, market.base.decimals)} ${market.base.symbol} at ${formatUnits(price, market.quote.decimals)} ${market.quote.symbol} (${kind}) on ${pairName(market)}`;
}

export interface PrepareOptions {
  readonly nowSeconds: bigint;
  readonly turbo?: boolean;
  readonly marginAccount?: boolean;
}

export function prepareOrder(market: Market, intent: PlaceIntent, options: PrepareOptions): Result<PreparedOrder> {
  const adjustments: string[] = [];
  let quantity = intent.quantity;
  const floored = truncateQuantity(market, quantity);
  if (floored.changed) {
    adjustments.push(
      `Quantity floored from ${formatUnits(quantity, market.base.decimals)} to ${formatUnits(floored.value, market.base.decimals)} ${market.base.symbol} (the market's step).`,
    );
    quantity = floored.value;
  }
  if (quantity > 0n && !isWholeQuoteValue(market, intent.price, quantity)) {
    const lowered = lowerQuantityToWholeQuote(market, intent.price, quantity);
    adjustments.push(
      `Quantity lowered from ${formatUnits(quantity, market.base.decimals)} to ${formatUnits(lowered, market.base.decimals)} ${market.base.symbol} so the order is worth a whole number of ${market.quote.symbol} units.`,
    );
    quantity = lowered;
  }
  const orderType = signOrderType(intent.orderType, intent.price, options.nowSeconds);
  const validated = validateOrder(market, { side: intent.side, price: intent.price, quantity, order_type: orderType }, { marginAccount: options.marginAccount ?? false });
  if (!validated.ok) return validated;
  const action: SessionAction = { kind: 'CreateOrder', side: intent.side, price: intent.price, quantity, order_type: orderType };
  return ok({
    group: { market_id: market.market_id, market, ...(options.turbo ? { turbo: true } : {}), actions: [action] },
    description: describeOrder(market, intent.side, intent.orderType.kind, intent.price, quantity),
    adjustments,
    validated: validated.value,
    quantity,
  });
}

export interface CancelTarget {
  readonly market: Market;
  readonly turbo: boolean;
  /** An order's id, or a pending trigger leg's (`trigger`). */
  readonly orderId: B256;
  /** A trigger leg: cancelled with CancelTriggerOrder. */
  readonly trigger?: boolean;
}

export interface CancelBatch {
  readonly groups: ActionGroup[];
  /** The orders the batch cancels. */
  readonly orderIds: B256[];
  /** The trigger legs it cancels. */
  readonly triggerIds: B256[];
}

/**
 * Pack cancellations into as few batches as the caps allow: at most 5 actions in at most 5 market
 * groups per signed batch. Cancels need no SettleBalance, so a batch holds 5 cancels.
 */
export function packCancels(targets: readonly CancelTarget[]): CancelBatch[] {
  const batches: CancelBatch[] = [];
  let current: CancelBatch | null = null;
  let count = 0;
  const sorted = [...targets].sort((left, right) => `${left.market.market_id}${left.turbo}`.localeCompare(`${right.market.market_id}${right.turbo}`));
  for (const target of sorted) {
    if (current === null || count >= MAX_ACTIONS_PER_BATCH) {
      current = { groups: [], orderIds: [], triggerIds: [] };
      batches.push(current);
      count = 0;
    }
    let group = current.groups.find((candidate) => candidate.market_id === target.market.market_id && (candidate.turbo ?? false) === target.turbo);
    if (!group) {
      if (current.groups.length >= MAX_GROUPS_PER_BATCH) {
        current = { groups: [], orderIds: [], triggerIds: [] };
        batches.push(current);
        count = 0;
      }
      group = { market_id: target.market.market_id, market: target.market, ...(target.turbo ? { turbo: true } : {}), actions: [] };
      current.groups.push(group);
    }
    if (target.trigger === true) {
      (group.actions as SessionAction[]).push({ kind: 'CancelTriggerOrder', order_id: target.orderId });
      current.triggerIds.push(target.orderId);
    } else {
      (group.actions as SessionAction[]).push({ kind: 'CancelOrder', order_id: target.orderId });
      current.orderIds.push(target.orderId);
    }
    count++;
  }
  return batches;
}
