// What the guards look at: every order a signed request would create, read from the very action
// groups the submitter is about to sign (so no path can show the guards one order and sign another).
import type { B256 } from '../../../shared/encoding/b256';
import type { OrderTypeKind, Side } from '../../../shared/market/order-type';
import type { ActionGroup } from '../../../shared/protocol/session-actions';
import type { TriggerLeg } from '../../../shared/protocol/trigger';

export interface OrderIntent {
  readonly marketId: B256;
  readonly turbo: boolean;
  /** The account that signs the request (the trading account or a Turbo Account). */
  readonly account: string;
  readonly side: Side;
  /** An order's kind, or `trigger` for a pending leg (a stop, an OCO leg, a take-profit or a stop-loss). */
  readonly kind: OrderTypeKind | 'trigger';
  /** The order's price (a market order's: its bound), or a leg's trigger price; raw quote units. */
  readonly price: bigint;
  /** Raw base units; null for a leg sized from its parent order. */
  readonly quantity: bigint | null;
  /** The trader asked that this order only reduce the position. */
  readonly reduceOnly: boolean;
}

function legIntent(base: Omit<OrderIntent, 'side' | 'kind' | 'price' | 'quantity'>, leg: TriggerLeg): OrderIntent {
  return { ...base, side: leg.side, kind: 'trigger', price: leg.trigger_price, quantity: leg.quantity.kind === 'Quantity' ? leg.quantity.quantity : null, reduceOnly: false };
}

/** The orders and legs the groups create, in their order; cancels, settling and margin actions create none. */
export function orderIntents(groups: readonly ActionGroup[], options: { readonly account: string; readonly reduceOnly: boolean }): OrderIntent[] {
  const intents: OrderIntent[] = [];
  for (const group of groups) {
    const base = { marketId: group.market_id, turbo: group.turbo === true, account: options.account, reduceOnly: options.reduceOnly };
    for (const action of group.actions) {
      switch (action.kind) {
        case 'CreateOrder':
          intents.push({ ...base, side: action.side, kind: action.order_type.kind, price: action.price, quantity: action.quantity });
          break;
        case 'CreateOrderWithTriggers':
          intents.push({ ...base, side: action.side, kind: action.order_type.kind, price: action.price, quantity: action.quantity });
          intents.push(legIntent(base, action.trigger_1));
          if (action.trigger_2 !== undefined) intents.push(legIntent(base, action.trigger_2));
          break;
        case 'CreateTriggerOrder':
          intents.push(legIntent(base, action.args));
          break;
        case 'CreateTriggerOrders':
          intents.push(legIntent(base, action.first), legIntent(base, action.second));
          break;
        default:
          break;
      }
    }
  }
  return intents;
}
