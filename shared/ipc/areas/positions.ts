// The positions area of the contract: the account's positions per book (Canonical and Turbo) and
// per signing account, computed in main from the fills, and flatten. The renderer names which
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
});

export const positionRequests = {
  getPositions: request<PositionsView>()(noInput),
  /** Close the named positions with bounded market orders, packed into as few signed batches as the 5-action cap allows. */
  flattenPositions: request<FlattenReport>()(z.strictObject({ positions: z.array(positionRef).min(1, 'name at least one position').max(32) })),
} as const;

export const positionStreams = {} as const;
