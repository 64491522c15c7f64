// Per-lane parallel nonce allocator (spec 5.9 client flow, wire notes "Parallel nonces").
// The cursor only moves forward: it starts just after the highest consumed position (not in the
// first hole, which another device may be about to use), skips positions seen consumed, and never
// hands out a position twice, across restarts too, as long as main persists the cursor after each
// issue and before the signed request leaves. Expiry is stamped at issue time from `now`.
import { U32_MAX } from '../encoding/decimal';
import { fail, ok, type Result } from '../result';
import { highestConsumedIndex, isConsumed, markConsumed, mergeWindows, windowEndIndex, type LaneWindow } from './lane-window';
import { packParallelNonce, positionIndex, positionOfIndex, type ParallelNonceFields } from './parallel-packing';

export const ALLOCATOR_CODES = {
  NOT_SEEDED: 'NONCE_LANE_NOT_SEEDED',
  WINDOW_FULL: 'NONCE_WINDOW_FULL',
  EXPIRY_OUT_OF_RANGE: 'NONCE_EXPIRY_OUT_OF_RANGE',
  LANE_MISMATCH: 'NONCE_LANE_MISMATCH',
} as const;

export const DEFAULT_NONCE_TTL_SECONDS = 120n;

/** What main persists per lane: the next position index to consider (decimal string on disk). */
export interface LaneCursor {
  readonly lane: number;
  readonly next_index: bigint;
}

export interface IssuedParallelNonce {
  readonly packed: bigint;
  readonly fields: ParallelNonceFields;
}

export interface AllocatorOptions {
  /** Seconds between issue and expiry; 120 by default. An offline-signed message needs longer. */
  readonly ttlSeconds?: bigint;
}

export class ParallelNonceAllocator {
  readonly lane: number;
  private readonly ttlSeconds: bigint;
  private window: LaneWindow | null = null;
  private nextIndex: bigint | null = null;

  constructor(lane: number, options: AllocatorOptions = {}) {
    this.lane = lane;
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_NONCE_TTL_SECONDS;
  }

  /** Restore the persisted cursor (after a restart). */
  seedFromCursor(cursor: LaneCursor): Result<void> {
    if (cursor.lane !== this.lane) return fail(ALLOCATOR_CODES.LANE_MISMATCH, `cursor is for lane ${cursor.lane}, this allocator serves lane ${this.lane}`);
    this.advanceTo(cursor.next_index);
    return ok(undefined);
  }

  /** Merge a window read or stream snapshot; the cursor moves past anything seen consumed. */
  observeWindow(window: LaneWindow): Result<void> {
    if (window.lane !== this.lane) return fail(ALLOCATOR_CODES.LANE_MISMATCH, `window is for lane ${window.lane}, this allocator serves lane ${this.lane}`);
    this.window = this.window === null ? window : mergeWindows(this.window, window);
    const highest = highestConsumedIndex(this.window);
    this.advanceTo(highest === null ? positionIndex(this.window.base, 0) : highest + 1n);
    return ok(undefined);
  }

  /** Our request with this nonce was accepted (or reverted on chain): its position is consumed. */
  recordConsumed(fields: ParallelNonceFields): void {
    if (fields.lane !== this.lane || this.window === null) return;
    this.window = markConsumed(this.window, fields.word_position, fields.bit_position);
  }

  /** The cursor for main to persist; null until seeded. */
  cursor(): LaneCursor | null {
    return this.nextIndex === null ? null : { lane: this.lane, next_index: this.nextIndex };
  }

  currentWindow(): LaneWindow | null {
    return this.window;
  }

  /** Issue the next unused position with expiry `nowSeconds + ttl`. */
  issue(nowSeconds: bigint): Result<IssuedParallelNonce> {
    if (this.nextIndex === null) {
      return fail(ALLOCATOR_CODES.NOT_SEEDED, `lane ${this.lane}: read the window (GET /v1/accounts/window) or restore the saved cursor before issuing nonces`);
    }
    const expiry = nowSeconds + this.ttlSeconds;
    if (expiry < 0n || expiry > U32_MAX) return fail(ALLOCATOR_CODES.EXPIRY_OUT_OF_RANGE, `expiry ${expiry} does not fit the 32-bit field`, { field: 'expiry' });
    let index = this.nextIndex;
    if (this.window !== null) {
      const start = positionIndex(this.window.base, 0);
      if (index < start) index = start;
      const end = windowEndIndex(this.window);
      while (index < end) {
        const position = positionOfIndex(index);
        if (!isConsumed(this.window, position.word_position, position.bit_position)) break;
        index += 1n;
      }
      if (index >= end) {
        return fail(ALLOCATOR_CODES.WINDOW_FULL, `lane ${this.lane}: every position of the window is issued; wait for accepted requests to slide it`);
      }
    }
    const position = positionOfIndex(index);
    const fields: ParallelNonceFields = { lane: this.lane, expiry, word_position: position.word_position, bit_position: position.bit_position };
    const packed = packParallelNonce(fields);
    if (!packed.ok) return packed;
    this.nextIndex = index + 1n;
    return ok({ packed: packed.value, fields });
  }

  private advanceTo(index: bigint): void {
    if (this.nextIndex === null || index > this.nextIndex) this.nextIndex = index;
  }
}
