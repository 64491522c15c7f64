// The positions area of the contract: the account's positions per book (Canonical and Turbo) and
// per signing account, computed in main from the fills, flatten (all or a share) and reverse. The renderer names which
// positions to close; main recomputes their sizes from the fills and never takes a size from the
// page (the size a confirmation stated is only compared with main's). Merged in ../contract.ts.
import { z } from 'zod';
import { b256Input, noInput } from '../inputs';
import { request } from '../spec';
import type { FlattenReport, PositionsView } from '../views/positions';

export const positionRef = z.strictObject({
  marketId: b256Input,
  turbo: z.boolean(),
  /** The signing account the position belongs to (trading account or Turbo Account). */
  account: b256Input,
  /**
   * The closing quantity the confirmation stated (raw base units). Main still computes its own and
   * refuses the position, sending nothing, when the two differ.
   */
  quantity: z.bigint().min(1n, 'must be positive').max(0xffff_ffff_ffff_ffffn, 'must fit in u64').optional(),
  /** The share of the position to close (100 unless named): main closes its own plan of that share. */
  percent: z.union([z.literal(25), z.literal(50), z.literal(75), z.literal(100)]).optional(),
  /**
   * 'market' (the default): a bounded market order 1 % past the mark. 'limit': a post-only order
   * resting at the touch of the closing side (the best ask for a long, the best bid for a short).
   */
  style: z.enum(['market', 'limit']).optional(),
  /** A close by limit: the touch the confirmation stated (raw quote); main refuses, sending nothing, when its own read differs. */
  price: z.bigint().min(1n, 'must be positive').max(0xffff_ffff_ffff_ffffn, 'must fit in u64').optional(),
});

export const positionRequests = {
  getPositions: request<PositionsView>()(noInput),
  /**
   * Close the named positions (a share of each) with bounded market orders, or by limit at the touch
   * (`style: 'limit'`), packed into as few signed batches as the 5-action cap allows.
   */
  flattenPositions: request<FlattenReport>()(z.strictObject({ positions: z.array(positionRef).min(1, 'name at least one position').max(32) })),
  /**
   * Reverse one position: the flatten's closing order and an opening order of the same size on the
   * same side, in one signed batch (the trading account's books; a Turbo Account's is refused).
   */
  reversePosition: request<FlattenReport>()(z.strictObject({ position: positionRef.omit({ percent: true, style: true, price: true }) })),
} as const;

export const positionStreams = {} as const;
