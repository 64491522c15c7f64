// The order vocabulary shared by the rules (market/) and the encoders (protocol/).
export type Side = 'Buy' | 'Sell';

export type OrderType =
  | { readonly kind: 'Spot' }
  | { readonly kind: 'Market' }
  | { readonly kind: 'Limit'; readonly price: bigint; readonly timestamp: bigint }
  | { readonly kind: 'PostOnly' }
  | { readonly kind: 'FillOrKill' }
  | { readonly kind: 'BoundedMarket'; readonly max_price: bigint; readonly min_price: bigint };

export type OrderTypeKind = OrderType['kind'];

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
