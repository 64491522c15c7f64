// How many orders one signed request carries: the exchange takes at most five actions per session
// batch, so a scale order of twelve is three signatures (5, 5, 2), in order.
import { BugError } from '../result';
import { MAX_ACTIONS_PER_BATCH } from '../protocol/session-actions';

/** `items` in order, in consecutive batches of at most `maxPerBatch` (none empty; no batch for no items). */
export function packBatches<T>(items: readonly T[], maxPerBatch: number = MAX_ACTIONS_PER_BATCH): T[][] {
  if (!Number.isSafeInteger(maxPerBatch) || maxPerBatch < 1) throw new BugError(`a batch holds at least one item, got ${maxPerBatch}`);
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += maxPerBatch) batches.push(items.slice(start, start + maxPerBatch));
  return batches;
}
