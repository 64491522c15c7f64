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
