// The triggers area of the contract: take-profit and stop-loss legs attached to an entry, stops on
// their own (entry stops, and protection sized explicitly or from a resting order), OCO pairs,
// cancel and move a leg, and the account's legs (pushed on the `triggers` stream; a fired leg's
// fills carry a `trigger` marker on the `fill` stream). Merged in ../contract.ts.
//
// Prices are raw quote units per whole base unit, quantities raw base units (bigint). Main checks
// every leg against the market before signing (docs/protocol.md "Trigger orders") and refuses with
// the reason; nothing is moved onto the tick silently.
import { z } from 'zod';
import { b256Input, marketRef, noInput, orderTypeInput } from '../inputs';
import { request, stream } from '../spec';
import type { CancelReport } from '../views/trading';
import type { PlacedTriggers, TriggersSnapshot } from '../views/triggers';

const amount = z.bigint().min(1n, 'must be positive').max(0xffff_ffff_ffff_ffffn, 'must fit in u64');
const side = z.enum(['Buy', 'Sell']);

/**
 * How a leg executes when it fires: `market` (a market order no worse than the trigger price;
 * refused on margin accounts), `limit` at `price`, or `slippage`: a bounded market order whose max
 * and min lie `bps` basis points around the trigger price (moved inward onto the price step).
 */
export const legExecutionInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('market') }),
  z.strictObject({ kind: z.literal('limit'), price: amount }),
  z.strictObject({ kind: z.literal('slippage'), bps: z.number().int().min(1, 'at least 1 bp').max(5_000, 'at most 5,000 bps (50 %)') }),
]);

export const legInput = z.strictObject({ triggerPrice: amount, execution: legExecutionInput });

/** A standalone leg's size: explicit, or sized from a resting (or filled) order it then belongs to. */
export const legSizeInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('quantity'), quantity: amount }),
  z.strictObject({ kind: z.literal('parent'), orderId: b256Input }),
]);

export const triggerInputs = {
  /** An entry order with a take-profit and/or a stop-loss attached (an OCO pair when both), sized from the entry. */
  placeBracketOrder: z
    .strictObject({
      ...marketRef,
      side,
      orderType: orderTypeInput,
      price: amount,
      quantity: amount,
      takeProfit: legInput.optional(),
      stopLoss: legInput.optional(),
    })
    .refine((input) => input.takeProfit !== undefined || input.stopLoss !== undefined, { message: 'give a take-profit, a stop-loss or both', path: ['takeProfit'] }),
  /** One leg on its own: an entry stop, or protection sized explicitly or from an order. `side` is the leg's. */
  placeStopOrder: z.strictObject({ ...marketRef, side, leg: legInput, size: legSizeInput }),
  /** Two legs on one side, one firing cancels the other. Main puts the leg that locks more first. */
  placeOcoOrder: z.strictObject({ ...marketRef, side, first: legInput, second: legInput, size: legSizeInput }),
  cancelTrigger: z.strictObject({ ...marketRef, triggerId: b256Input }),
  /**
   * Move a leg to a new trigger price: cancel and replace in one signed batch (an OCO leg is
   * replaced with its pair). A limit leg keeps its distance to the trigger unless `limitPrice` is
   * given; a bounded leg keeps its bounds' distances.
   */
  moveTrigger: z.strictObject({ ...marketRef, triggerId: b256Input, triggerPrice: amount, limitPrice: amount.optional() }),
  getTriggers: noInput,
} as const;

export const triggerRequests = {
  placeBracketOrder: request<PlacedTriggers>()(triggerInputs.placeBracketOrder),
  placeStopOrder: request<PlacedTriggers>()(triggerInputs.placeStopOrder),
  placeOcoOrder: request<PlacedTriggers>()(triggerInputs.placeOcoOrder),
  cancelTrigger: request<CancelReport>()(triggerInputs.cancelTrigger),
  moveTrigger: request<PlacedTriggers>()(triggerInputs.moveTrigger),
  getTriggers: request<TriggersSnapshot>()(triggerInputs.getTriggers),
} as const;

export const triggerStreams = {
  /** The account's legs, after every change (a snapshot, not a delta). */
  triggers: stream<TriggersSnapshot>(),
} as const;
