// A trade (spec 2.5) and the bounded log a market keeps of them. The log is a ring: the
// oldest trades are dropped past its capacity (bars are built incrementally and keep history).
//
// A trade is retained for the reads (logs, the fills of its orders), so it keeps no value of its
// own that it can derive from shared ones: its id is its id block's shared prefix and its
// sequence, its total and fees are computed from its price, quantity, the market's scale and the
// fee rates it was charged (each a bigint the market already holds). Every retained young value
// was one more object for the scavenger to copy per trade (docs/sandbox.md, "Performance").
// Read them with `tradeId`, `tradeTotal`, `tradeMakerFee` and `tradeTakerFee`.
import type { B256 } from '../../shared/encoding/b256';
import { feeOwed } from '../../shared/market/amounts';
import type { Side } from '../../shared/market/order-type';

export interface Trade {
  /**
   * The first 63 characters of its id, shared by the 4096 consecutive sequences of its block; the
   * id is this and the sequence's three low hex digits (`tradeId`).
   */
  readonly idBlock: string;
  readonly marketId: B256;
  readonly sequence: number;
  /** The taker's side. */
  readonly side: Side;
  readonly quantity: bigint;
  readonly price: bigint;
  /** 10^base.decimals of the market whose quote value it is: total = floor(price * quantity / scale). */
  readonly scale: bigint;
  /** Nanoseconds since the epoch. */
  readonly timestamp: bigint;
  readonly makerOrderId: B256;
  readonly takerOrderId: B256;
  readonly makerAccount: B256;
  readonly takerAccount: B256;
  /**
   * The fee rates (ppm) the maker and the taker were charged; each side pays on what it received
   * (the buyer on the quantity, the seller on the total), rounded up (`tradeMakerFee`, `tradeTakerFee`).
   */
  readonly makerFeePpm: bigint;
  readonly takerFeePpm: bigint;
  readonly txId: string;
  /** A Turbo-book trade funded by a shared quote: the canonical order that funded it. */
  readonly sharedSourceOrderId?: B256;
  /** Printed on a Turbo book. */
  readonly turbo?: boolean;
}

/** 0..4095 in three hex digits (the low digits of an id's sequence). */
export const HEX3: readonly string[] = Array.from({ length: 4096 }, (_, n) => n.toString(16).padStart(3, '0'));

/** An id of the market id scheme: its block's 63-character prefix and the sequence's low three hex digits. */
export function blockId(idBlock: string, sequence: number): B256 {
  return `${idBlock}${HEX3[sequence % 4096] as string}` as B256;
}

/** Spec 2.5's trade_id. */
export function tradeId(trade: Trade): B256 {
  return blockId(trade.idBlock, trade.sequence);
}

/** Quote value: floor(price * quantity / 10^base.decimals). */
export function tradeTotal(trade: Trade): bigint {
  return (trade.price * trade.quantity) / trade.scale;
}

/** The maker's fee, in the asset it received (base if it bought, quote if it sold). */
export function tradeMakerFee(trade: Trade): bigint {
  // The taker's side is the trade's: a taker selling means the maker bought.
  return feeOwed(trade.side === 'Sell' ? trade.quantity : tradeTotal(trade), trade.makerFeePpm);
}

/** The taker's fee, in the asset it received. */
export function tradeTakerFee(trade: Trade): bigint {
  return feeOwed(trade.side === 'Buy' ? trade.quantity : tradeTotal(trade), trade.takerFeePpm);
}

/**
 * The last `capacity` items pushed, oldest first. A ring: once full, a push overwrites the oldest
 * slot, so the log allocates nothing after it filled (copying its whole array every capacity/8
 * pushes would give the collector one more large array to move each time).
 */
export class BoundedLog<T> {
  private readonly items: T[] = [];
  /** Once full: the slot of the oldest item (the next to be overwritten). */
  private head = 0;
  constructor(readonly capacity: number) {}

  push(item: T): void {
    const items = this.items;
    if (items.length < this.capacity) {
      items.push(item);
      return;
    }
    items[this.head] = item;
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
  }

  /** Oldest first (the log's own array until it wraps, a copy after). */
  all(): readonly T[] {
    if (this.head === 0) return this.items;
    return this.items.slice(this.head).concat(this.items.slice(0, this.head));
  }

  get length(): number {
    return this.items.length;
  }
}
