// Trailing and break-even stops as main manages them (main/services/protect), pushed on the
// `protectiveStops` stream after every change: where each managed leg's trigger is now.
import type { Side } from '../../market/order-type';

export type ProtectiveReference = 'bid' | 'ask' | 'last' | 'mark';

export type ProtectiveDistance =
  | { readonly kind: 'ticks'; readonly ticks: bigint }
  | { readonly kind: 'percent'; readonly basisPoints: bigint }
  | { readonly kind: 'price'; readonly amount: bigint };

export interface ProtectiveStopView {
  readonly id: string;
  readonly networkId: string;
  readonly marketId: string;
  readonly turbo: boolean;
  /** The leg on the exchange now (each move replaces it with a leg of a new id). */
  readonly triggerId: string;
  /** The side of the stop's order: Sell protects a long, Buy a short. */
  readonly side: Side;
  readonly reference: ProtectiveReference;
  /** Trailing distance; null: break-even only. */
  readonly distance: ProtectiveDistance | null;
  readonly breakEven: { readonly entry: bigint; readonly afterTicks: bigint; readonly done: boolean } | null;
  /** The trigger price on the exchange (raw quote units). */
  readonly trigger: bigint;
  readonly armedAt: number;
}

/** A position's take-profit / stop-loss pair main keeps sized to the position (main/services/protect/position-brackets.ts). */
export interface PositionBracketView {
  readonly id: string;
  readonly networkId: string;
  readonly marketId: string;
  readonly turbo: boolean;
  /** The side of the pair's orders: Sell protects a long, Buy a short. */
  readonly side: Side;
  readonly takeProfit: bigint | null;
  readonly stopLoss: bigint | null;
  /** The legs on the exchange now (each resize replaces them). */
  readonly legIds: readonly string[];
  /** The size the legs are placed at (raw base units); 0 while none is placed. */
  readonly placed: bigint;
  /** Armed by the automatic bracket on fill. */
  readonly automatic: boolean;
  readonly armedAt: number;
}

/** A market's automatic bracket on fill: offsets from the average entry, in ticks or basis points. */
export interface AutoBracketView {
  readonly networkId: string;
  readonly marketId: string;
  readonly unit: 'ticks' | 'percent';
  readonly takeProfit: bigint | null;
  readonly stopLoss: bigint | null;
  readonly armedAt: number;
}
