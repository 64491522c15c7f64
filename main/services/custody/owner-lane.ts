// Parallel nonces for owner-signed requests come from one lane kept for them: lane 4. The order
// lanes (NonceManager, the `parallelLanes` setting) count up from lane 0, so as long as they stay
// below five this lane's positions are handed out here only. That matters most for an offline
// request: its nonce is issued when the request is prepared and used hours later, and a position
// shared with another allocator could be issued twice in between.
//
// Each issue reads the lane's window and the persisted cursor afresh, under a lock, and persists
// the new cursor before the nonce is returned, so no position is ever issued twice, across
// restarts too; the expiry is stamped from `ttlSeconds` (120 s online, the request's lifetime
// plus an hour offline: offlineNonceTtlSeconds).
import type { WindowSnapshot } from '../../../shared/nonce/lane-window';
import { windowFromSnapshot } from '../../../shared/nonce/lane-window';
import { ParallelNonceAllocator, type IssuedParallelNonce } from '../../../shared/nonce/allocator';
import { LANE_COUNT } from '../../../shared/nonce/parallel-packing';
import { fail, ok, type Result } from '../../../shared/result';
import { CUSTODY_CODES } from './codes';

export const OWNER_NONCE_LANE = LANE_COUNT - 1;

export interface OwnerLanePort {
  /** GET /v1/accounts/window for the lane. */
  window(lane: number): Promise<Result<WindowSnapshot>>;
  /** The persisted cursor (next position index) of the lane, or null. */
  loadCursor(lane: number): bigint | null;
  /** Durable before returning: the nonce may be signed and carried away right after. */
  saveCursor(lane: number, nextIndex: bigint): Result<void>;
}

/** Refuse when the order lanes reach into the owner lane (the `parallelLanes` setting at 5). */
export function checkOwnerLaneFree(orderLanes: number): Result<void> {
  if (orderLanes > OWNER_NONCE_LANE) {
    return fail(
      CUSTODY_CODES.OWNER_LANE_IN_USE,
      `nonce: the parallel-lanes setting is ${orderLanes}, so orders use every lane including lane ${OWNER_NONCE_LANE}, which owner-signed ` +
        `requests need for themselves (an offline request holds its position for hours). Set parallel lanes to ${OWNER_NONCE_LANE} or fewer, or use the sequential nonce.`,
      { field: 'nonce', parallelLanes: orderLanes },
    );
  }
  return ok(undefined);
}

export class OwnerNonceLane {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly port: OwnerLanePort,
    private readonly nowSeconds: () => bigint,
  ) {}

  /** A fresh position of the owner lane, expiring `ttlSeconds` from now, its cursor already saved. */
  issue(ttlSeconds: bigint): Promise<Result<IssuedParallelNonce>> {
    // One at a time: two issues reading the same cursor would hand out the same position.
    const work = this.tail.then(() => this.issueNow(ttlSeconds));
    this.tail = work.catch(() => undefined);
    return work;
  }

  private async issueNow(ttlSeconds: bigint): Promise<Result<IssuedParallelNonce>> {
    const allocator = new ParallelNonceAllocator(OWNER_NONCE_LANE, { ttlSeconds });
    const saved = this.port.loadCursor(OWNER_NONCE_LANE);
    if (saved !== null) allocator.seedFromCursor({ lane: OWNER_NONCE_LANE, next_index: saved });
    // The window too: another device of the same owner may have used positions past our cursor.
    const window = await this.port.window(OWNER_NONCE_LANE);
    if (!window.ok) return window;
    const observed = allocator.observeWindow(windowFromSnapshot(window.value));
    if (!observed.ok) return observed;
    const issued = allocator.issue(this.nowSeconds());
    if (!issued.ok) return issued;
    const cursor = allocator.cursor();
    if (cursor !== null) {
      const persisted = this.port.saveCursor(OWNER_NONCE_LANE, cursor.next_index);
      if (!persisted.ok) return fail('NONCE_CURSOR_NOT_SAVED', `The owner lane's nonce cursor could not be saved, so nothing was signed: ${persisted.message}`);
    }
    return ok(issued.value);
  }
}
