// What the tape shows of the trades it holds: one row per trade, or one per taker order (its trades
// merged), filtered by a minimum size, each row marked when it is a large lot.
//
// The spec's public trade has no taker order id (trade_id, side, quantity, price, total, timestamp),
// so one taker order is recognised by what its trades share: the trades of one order execute in one
// transaction, so they carry the same timestamp and taker side, arrive next to each other (the
// stream sends a message's trades together, newest first), and walk the book one way (a buy up, a
// sell down). Two takers of the same side in one transaction would merge; docs/protocol.md says so.
import type { TradeView } from '../../../../shared/ipc/views';
import type { Side } from '../../../../shared/market/order-type';

export interface TapeRow {
  /** The newest trade's id: the stable key of the row. */
  readonly key: string;
  readonly side: Side;
  readonly time: number;
  /** The price of the row's last (worst) trade: where the taker's order stopped. */
  readonly price: bigint;
  /** The first trade's price (the best the taker got); equal to `price` for one trade. */
  readonly firstPrice: bigint;
  /** Base traded, summed. */
  readonly quantity: bigint;
  /** How many trades the row holds. */
  readonly count: number;
  readonly large: boolean;
}

/** Whether `next` (older on the tape) can be a trade of the same taker order as the group ending at `group` (its oldest trade). */
function sameTakerOrder(group: TradeView, next: TradeView): boolean {
  if (next.side !== group.side || next.time !== group.time) return false;
  // Going back in time within a sweep: a buy's earlier trades are at lower or equal prices, a sell's at higher or equal.
  return group.side === 'Buy' ? next.price <= group.price : next.price >= group.price;
}

/** Trades newest first (as the tape holds them) to rows, newest first. */
export function tapeRows(trades: readonly TradeView[], options: { readonly aggregate: boolean; readonly minimum: bigint | null; readonly largeLot: bigint | null }): TapeRow[] {
  const rows: TapeRow[] = [];
  let index = 0;
  while (index < trades.length) {
    const newest = trades[index]!;
    let oldest = newest;
    let quantity = newest.quantity;
    let count = 1;
    index++;
    while (options.aggregate && index < trades.length && sameTakerOrder(oldest, trades[index]!)) {
      oldest = trades[index]!;
      quantity += oldest.quantity;
      count++;
      index++;
    }
    if (options.minimum !== null && quantity < options.minimum) continue;
    rows.push({
      key: newest.tradeId,
      side: newest.side,
      time: newest.time,
      price: newest.price,
      firstPrice: oldest.price,
      quantity,
      count,
      large: options.largeLot !== null && quantity >= options.largeLot,
    });
  }
  return rows;
}

function sameRow(a: TapeRow, b: TapeRow): boolean {
  return a.key === b.key && a.side === b.side && a.time === b.time && a.price === b.price && a.firstPrice === b.firstPrice && a.quantity === b.quantity && a.count === b.count && a.large === b.large;
}

/**
 * `next` with every row that equals a row of `previous` (same key and fields) replaced by that
 * row's object: the tape's list is keyed by object, so a new trade draws one new row instead of
 * drawing all of them again.
 */
export function keepSameRows(previous: readonly TapeRow[], next: readonly TapeRow[]): TapeRow[] {
  if (previous.length === 0) return [...next];
  const byKey = new Map<string, TapeRow>();
  for (const row of previous) byKey.set(row.key, row);
  return next.map((row) => {
    const kept = byKey.get(row.key);
    return kept !== undefined && sameRow(kept, row) ? kept : row;
  });
}
