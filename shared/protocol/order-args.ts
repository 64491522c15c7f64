// OrderArgs = u64 price ‖ u64 quantity ‖ OrderType, the type packed tightly:
// Limit u64 0 ‖ u64 price ‖ u64 timestamp; Spot 1; FillOrKill 2; PostOnly 3; Market 4;
// BoundedMarket u64 5 ‖ u64 max_price ‖ u64 min_price.
import type { ByteWriter } from '../encoding/byte-writer';
import { orderTypeJson, writeOrderTypeFields, type OrderType, type OrderTypeJson } from '../market/order-kinds';

export type { OrderTypeJson } from '../market/order-kinds';

export function writeOrderType(writer: ByteWriter, orderType: OrderType): void {
  writeOrderTypeFields(writer, orderType);
}

export function writeOrderArgs(writer: ByteWriter, price: bigint, quantity: bigint, orderType: OrderType): void {
  writer.u64(price).u64(quantity);
  writeOrderType(writer, orderType);
}

export function orderTypeToJson(orderType: OrderType): OrderTypeJson {
  return orderTypeJson(orderType);
}
