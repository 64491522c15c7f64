// The order vocabulary shared by the rules (market/) and the encoders (protocol/); each order kind
// is defined in order-kinds.ts.
import type { OrderType } from './order-kinds';

export type Side = 'Buy' | 'Sell';

export type { OrderKind as OrderTypeKind, OrderType } from './order-kinds';

export const SPOT: OrderType = { kind: 'Spot' };

export interface OrderIntent {
  readonly side: Side;
  /** Raw quote units per whole base unit. */
  readonly price: bigint;
  /** Raw base units. */
  readonly quantity: bigint;
  readonly order_type: OrderType;
}

export function oppositeSide(side: Side): Side {
  return side === 'Buy' ? 'Sell' : 'Buy';
}
