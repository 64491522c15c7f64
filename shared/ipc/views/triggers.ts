// Trigger legs (take-profit, stop-loss, OCO) as the renderer sees them, and the results of the
// triggers area's requests. Money is bigint in raw units, as everywhere in the contract.
import type { Side } from '../../market/order-type';
import type { TriggerRole } from './trigger-fill';
import type { OrderView } from './trading';

/** How a leg executes once it fires: a market order, a bounded market order, or a limit. */
export type TriggerLegKind = 'market' | 'bounded' | 'limit';

export type TriggerState = 'pending' | 'fired' | 'cancelled';

export interface TriggerView {
  /** The leg's id (its order id for cancel_order). */
  readonly triggerId: string;
  readonly marketId: string;
  readonly turbo: boolean;
  /** The closing side of what it protects. */
  readonly side: Side;
  readonly triggerPrice: bigint;
  readonly kind: TriggerLegKind;
  /** Limit legs: the limit price; otherwise null. */
  readonly limitPrice: bigint | null;
  /** Bounded legs: the bounds; otherwise null. */
  readonly maxPrice: bigint | null;
  readonly minPrice: bigint | null;
  /** An explicit size, or null when the leg is sized from its parent (it follows the parent's fills). */
  readonly quantity: bigint | null;
  /** The order it is bound to (attached legs, protection of a resting order), or null. */
  readonly parentOrderId: string | null;
  /** The other leg of its OCO pair, or null. */
  readonly ocoId: string | null;
  /** `rise`: fires on a trade at or above the trigger; `fall`: at or below. Null when unknown. */
  readonly direction: 'rise' | 'fall' | null;
  readonly role: TriggerRole;
  readonly state: TriggerState;
  /** False while a parent-sized leg waits for its parent's first fill (dormant). */
  readonly armed: boolean;
  /** Escrow it holds now (raw units of quote for a buy, base for a sell). */
  readonly locked: bigint;
  /** The order it became, once fired. */
  readonly firedOrderId: string | null;
  /** Why it was cancelled (OcoSiblingFired, ParentCancelled, Cancelled, or the order's revert reason). */
  readonly reason: string | null;
  /** Milliseconds since the epoch (created). */
  readonly time: number;
}

export interface TriggersSnapshot {
  /** Pending legs, oldest first; group them under open orders by `parentOrderId`. */
  readonly pending: readonly TriggerView[];
  /** Legs that fired or were cancelled since the terminal started, newest first (bounded). */
  readonly recent: readonly TriggerView[];
}

export interface PlacedTriggers {
  /** The journal entry of the signed request. */
  readonly journalId: string;
  /** The entry order of a bracket; null for legs on their own. */
  readonly order: OrderView | null;
  /** The legs as the exchange reported them after the request (may be empty if it did not say). */
  readonly triggers: readonly TriggerView[];
  /** What main adjusted before signing (quantity floored to the step, bounds moved onto the tick), in words. */
  readonly adjustments: readonly string[];
}
