// How many orders and pending legs a list shows, in the words of the Open orders tab and of its
// "Cancel all" button: "3", or "0 + 1 leg" when legs are listed under the orders.
export function ordersAndLegsText(orders: number, legs: number): string {
  return legs > 0 ? `${orders} + ${legs} leg${legs === 1 ? '' : 's'}` : `${orders}`;
}
