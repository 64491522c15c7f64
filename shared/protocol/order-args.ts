// OrderArgs = u64 price ‖ u64 quantity ‖ OrderType, the type packed tightly:
// Limit u64 0 ‖ u64 price ‖ u64 timestamp; Spot 1; FillOrKill 2; PostOnly 3; Market 4;
// BoundedMarket u64 5 ‖ u64 max_price ‖ u64 min_price.
import type { ByteWriter } from '../encoding/byte-writer';
import type { OrderType } from '../market/order-type';

export const ORDER_TYPE_DISCRIMINANT = { Limit: 0n, Spot: 1n, FillOrKill: 2n, PostOnly: 3n, Market: 4n, BoundedMarket: 5n } as const;

export function writeOrderType(writer: ByteWriter, orderType: OrderType): void {
  writer.u64(ORDER_TYPE_DISCRIMINANT[orderType.kind]);
  if (orderType.kind === 'Limit') writer.u64(orderType.price).u64(orderType.timestamp);
  if (orderType.kind === 'BoundedMarket') writer.u64(orderType.max_price).u64(orderType.min_price);
}

export function writeOrderArgs(writer: ByteWriter, price: bigint, quantity: bigint, orderType: OrderType): void {
  writer.u64(price).u64(quantity);
  writeOrderType(writer, orderType);
}

export type OrderTypeJson =
  | 'Spot'
  | 'Market'
  | 'PostOnly'
  | 'FillOrKill'
  | { Limit: [string, string] }
  | { BoundedMarket: { max_price: string; min_price: string } };

export function orderTypeToJson(orderType: OrderType): OrderTypeJson {
  switch (orderType.kind) {
    case 'Limit':
      return { Limit: [orderType.price.toString(), orderType.timestamp.toString()] };
    case 'BoundedMarket':
      return { BoundedMarket: { max_price: orderType.max_price.toString(), min_price: orderType.min_price.toString() } };
    default:
      return orderType.kind;
  }
}
