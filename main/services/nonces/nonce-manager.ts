// Nonce allocation for one trading account. Sequential by default: one signed request in flight
// at a time, in order, because request n+1 is invalid while n is undecided. With parallel lanes
// (a setting, 1-5) several requests can be in flight; each lane's cursor is persisted before the
// request leaves, so a position is never reused, even across a crash and restart.
import { enqueueAhead } from '../../../shared/ahead-queue';
import { isConsumed, windowFromSnapshot, type WindowSnapshot } from '../../../shared/nonce/lane-window';
import { ParallelNonceAllocator, type IssuedParallelNonce } from '../../../shared/nonce/allocator';
import {
  applySequentialOutcome,
  observeSequentialNonce,
  resyncSequential,
  takeSequentialNonce,
  UNSYNCED_SEQUENTIAL,
  type SequentialNonceState,
  type SubmissionOutcome,
} from '../../../shared/nonce/sequential';
import { unpackParallelNonce } from '../../../shared/nonce/parallel-packing';
import { parallelNonce, sequentialNonce, type NonceChoice } from '../../../shared/protocol/nonce-choice';
import { fail, ok, type Result } from '../../../shared/result';

export interface NoncePort {
  /** GET /v1/accounts: the account's sequential nonce. */
  accountNonce(): Promise<Result<bigint>>;
  /** GET /v1/accounts/window for a lane. */
  window(lane: number): Promise<Result<WindowSnapshot>>;
}

export interface CursorStore {
  load(lane: number): bigint | null;
  /** Durable before returning: the request may leave right after. */
  save(lane: number, nextIndex: bigint): Result<void>;
}

/** `final-unknown`: it can no longer land, and the window cannot say whether it did. */
export type ConsumedAnswer = 'landed' | 'not-landed' | 'pending' | 'final-unknown';

export interface Lease {
  readonly nonce: NonceChoice;
  readonly lane: number | null;
  readonly parallel: IssuedParallelNonce | null;
  /** Report what happened to the request signed with this nonce, exactly once. */
  settle(outcome: SubmissionOutcome): void;
}

/** The exchange answered a sequential nonce below one it had already reached: not believed. */
export const NONCE_WENT_BACKWARDS = 'NONCE_WENT_BACKWARDS';

/** Lanes 0-3 serve orders; lane 4 is kept for owner-signed requests (main/services/custody). */
export const ORDER_LANES = 4;

export class NonceManager {
  private sequential: SequentialNonceState = UNSYNCED_SEQUENTIAL;
  /** Whether a sequential lease is held; the requests waiting for the next one, in the order they get it. */
  private sequentialHeld = false;
  private readonly sequentialWaiting: { readonly ahead: boolean; readonly start: () => void }[] = [];
  /**
   * The lowest the account's sequential nonce can be now: one past the highest nonce the exchange
   * accepted (or reverted) for us. A nonce only goes up, so a read below it is a lie or a broken
   * exchange; deciding on it would call a request that landed "not landed".
   */
  private floor = 0n;
  private readonly allocators = new Map<number, ParallelNonceAllocator>();
  private readonly seeding = new Map<number, Promise<Result<ParallelNonceAllocator>>>();
  private nextLane = 0;

  constructor(
    private readonly port: NoncePort,
    private readonly cursors: CursorStore,
    private lanes: number,
    private readonly nowSeconds: () => bigint,
  ) {
    this.lanes = Math.min(lanes, ORDER_LANES);
  }

  setLanes(lanes: number): void {
    this.lanes = Math.min(lanes, ORDER_LANES);
  }

  get laneCount(): number {
    return this.lanes;
  }

  /** A value from the nonce stream or a fresh account read. */
  observeSequential(value: bigint): void {
    this.sequential = observeSequentialNonce(this.sequential, value);
  }

  observeWindow(snapshot: WindowSnapshot): void {
    this.allocators.get(snapshot.lane)?.observeWindow(windowFromSnapshot(snapshot));
  }

  markSequentialStale(): void {
    this.sequential = { next: this.sequential.next, needsResync: true };
  }

  /**
   * Take a nonce. In sequential mode the returned lease holds the account until settled, and a
   * request asking to go `ahead` (the trader's own, not an algorithm's child) is served before the
   * requests waiting without it, never before the one holding the lease.
   */
  async acquire(options: { readonly ahead?: boolean } = {}): Promise<Result<Lease>> {
    return this.lanes > 0 ? this.acquireParallel() : this.acquireSequential(options);
  }

  /** Wait for the sequential lease: first come, first served, those `ahead` before the others. */
  private sequentialTurn(ahead: boolean): Promise<void> {
    if (!this.sequentialHeld) {
      this.sequentialHeld = true;
      return Promise.resolve();
    }
    return new Promise((start) => {
      enqueueAhead(this.sequentialWaiting, { ahead, start });
    });
  }

  /** Hand the sequential lease to the next request waiting, or free it. */
  private passSequentialTurn(): void {
    const next = this.sequentialWaiting.shift();
    if (next === undefined) this.sequentialHeld = false;
    else next.start();
  }

  /**
   * The account's sequential nonce, whatever the lane setting: owner-signed requests (a new
   * session, a withdrawal) always use it, in turn with sequential order requests.
   */
  async acquireSequential(options: { readonly ahead?: boolean } = {}): Promise<Result<Lease>> {
    await this.sequentialTurn(options.ahead === true);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.passSequentialTurn();
    };
    if (this.sequential.needsResync || this.sequential.next === null) {
      const fetched = this.believable(await this.port.accountNonce(), this.floor);
      if (!fetched.ok) {
        release();
        return fetched;
      }
      this.sequential = resyncSequential(fetched.value);
    }
    const taken = takeSequentialNonce(this.sequential);
    if (!taken.ok) {
      release();
      return taken;
    }
    let settled = false;
    return ok({
      nonce: sequentialNonce(taken.value),
      lane: null,
      parallel: null,
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        this.sequential = applySequentialOutcome(this.sequential, taken.value, outcome);
        if ((outcome.kind === 'accepted' || outcome.kind === 'reverted') && taken.value + 1n > this.floor) this.floor = taken.value + 1n;
        release();
      },
    });
  }

  /**
   * The lane's allocator, created once: concurrent requests on a fresh lane must share one
   * allocator (two would each start from the same window and hand out the same position).
   */
  private allocator(lane: number): Promise<Result<ParallelNonceAllocator>> {
    const existing = this.allocators.get(lane);
    if (existing) return Promise.resolve(ok(existing));
    let pending = this.seeding.get(lane);
    if (!pending) {
      pending = this.seed(lane).finally(() => this.seeding.delete(lane));
      this.seeding.set(lane, pending);
    }
    return pending;
  }

  private async seed(lane: number): Promise<Result<ParallelNonceAllocator>> {
    const allocator = new ParallelNonceAllocator(lane);
    const saved = this.cursors.load(lane);
    if (saved !== null) allocator.seedFromCursor({ lane, next_index: saved });
    // Always read the window too: another device may have used positions beyond our cursor.
    const window = await this.port.window(lane);
    if (!window.ok) return window;
    allocator.observeWindow(windowFromSnapshot(window.value));
    this.allocators.set(lane, allocator);
    return ok(allocator);
  }

  private async acquireParallel(): Promise<Result<Lease>> {
    const lane = this.nextLane % this.lanes;
    this.nextLane = (this.nextLane + 1) % this.lanes;
    const allocator = await this.allocator(lane);
    if (!allocator.ok) return allocator;
    const issued = allocator.value.issue(this.nowSeconds());
    if (!issued.ok) return issued;
    const cursor = allocator.value.cursor();
    if (cursor) {
      const saved = this.cursors.save(lane, cursor.next_index);
      if (!saved.ok) return fail('NONCE_CURSOR_NOT_SAVED', `The nonce cursor could not be saved, so the order was not sent: ${saved.message}`);
    }
    let settled = false;
    return ok({
      nonce: parallelNonce(issued.value.packed),
      lane,
      parallel: issued.value,
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        if (outcome.kind === 'accepted' || outcome.kind === 'reverted') allocator.value.recordConsumed(issued.value.fields);
        // A window rejection means our picture of the lane is wrong: read it again next time.
        if (outcome.kind === 'stale') this.allocators.delete(lane);
      },
    });
  }

  /**
   * Decide whether a request whose answer was lost landed. Sequential: the account nonce moved past
   * it. Parallel: its position is consumed; if not, it can still land until its expiry, so the
   * answer is `pending` until then.
   */
  async wasConsumed(nonce: { mode: 'sequential'; value: bigint } | { mode: 'parallel'; lane: number; value: bigint }): Promise<Result<ConsumedAnswer>> {
    if (nonce.mode === 'sequential') {
      // The request was signed with this nonce because the account had reached it.
      const fetched = this.believable(await this.port.accountNonce(), nonce.value > this.floor ? nonce.value : this.floor);
      if (!fetched.ok) return fetched;
      this.sequential = resyncSequential(fetched.value);
      // Not consumed yet means it never will be under this nonce's request alone: the next
      // request reuses the same nonce, so at most one of the two can land.
      return ok(fetched.value > nonce.value ? 'landed' : 'not-landed');
    }
    const fields = unpackParallelNonce(nonce.value);
    if (!fields.ok) return fields;
    const window = await this.port.window(fields.value.lane);
    if (!window.ok) return window;
    const view = windowFromSnapshot(window.value);
    this.allocators.get(fields.value.lane)?.observeWindow(view);
    if (isConsumed(view, fields.value.word_position, fields.value.bit_position)) return ok('landed');
    // The window slid past the position: it can no longer land, but the window no longer says
    // whether it did. The caller looks the orders up to tell.
    if (fields.value.word_position < view.base) return ok('final-unknown');
    return ok(fields.value.expiry < this.nowSeconds() ? 'not-landed' : 'pending');
  }

  /** A sequential nonce read, unless it is below `atLeast`, which the exchange had already reached. */
  private believable(read: Result<bigint>, atLeast: bigint): Result<bigint> {
    if (!read.ok || read.value >= atLeast) return read;
    return fail(
      NONCE_WENT_BACKWARDS,
      `The exchange answered the account nonce ${read.value}, below ${atLeast}, which it had already reached. A nonce only goes up, so the answer is not believed: nothing is decided or signed on it until the exchange answers a possible nonce.`,
      { answered: read.value.toString(), atLeast: atLeast.toString() },
    );
  }
}
