// The undo journal that makes a batch atomic. Every mutation of ledger or book state made
// while a transaction is open records how to undo itself; a revert replays the records in
// reverse, so a batch that fails at its fifth action leaves no trace of the first four.
// Outside a transaction nothing is recorded (and callers skip building the closures).
//
// A record is a closure, or (on the matching hot path, where a closure per fill was a large part
// of the garbage, docs/sandbox.md "Performance") a static undo function and its arguments stored
// in the log itself: `recordCall(undo, a, …)` (up to eight arguments), no allocation beyond the
// log's own growth.
import { BugError } from '../../shared/result';

/** Marks the end of a `recordCall` record of at most four arguments: [a, b, c, d, undo, CALL4]. */
const CALL4 = Symbol('journal call of four');
/** Marks the end of a `recordCall` record of more: [a, b, c, d, e, f, g, h, undo, CALL8]. */
const CALL8 = Symbol('journal call of eight');

/** A static undo function of up to eight arguments (unused trailing ones are `undefined`). */
export type UndoCall<A, B = undefined, C = undefined, D = undefined, E = undefined, F = undefined, G = undefined, H = undefined> = (
  a: A,
  b: B,
  c: C,
  d: D,
  e: E,
  f: F,
  g: G,
  h: H,
) => void;

export class Journal {
  /**
   * The log. Its first `top` slots are this transaction's records; slots past `top` are stale and
   * are overwritten, so a transaction does not regrow the array from nothing (a large log is
   * released at the end of its transaction instead).
   */
  private undo: unknown[] = [];
  private top = 0;
  private open = false;
  /** Changes every transaction; lets a record be taken once per object per transaction. */
  private generation = 0;

  get active(): boolean {
    return this.open;
  }

  get stamp(): number {
    return this.generation;
  }

  begin(): void {
    if (this.open) throw new BugError('journal: a transaction is already open');
    this.open = true;
    this.generation++;
    this.top = 0;
  }

  record(undo: () => void): void {
    if (this.open) this.undo[this.top++] = undo;
  }

  /**
   * Record `undo(a, …, h)` without allocating a closure (`undo` should be a static function): up to
   * eight arguments, a snapshot of several fields included. A record whose arguments past the
   * fourth are all undefined takes six slots of the log, any other ten (most records on the
   * matching path are short: the four slots more cost a placement about 5 % in bench/matching).
   */
  recordCall<A, B = undefined, C = undefined, D = undefined, E = undefined, F = undefined, G = undefined, H = undefined>(
    undo: UndoCall<A, B, C, D, E, F, G, H>,
    a: A,
    b?: B,
    c?: C,
    d?: D,
    e?: E,
    f?: F,
    g?: G,
    h?: H,
  ): void {
    if (!this.open) return;
    const log = this.undo;
    let top = this.top;
    log[top++] = a;
    log[top++] = b;
    log[top++] = c;
    log[top++] = d;
    if (e === undefined && f === undefined && g === undefined && h === undefined) {
      log[top++] = undo;
      log[top++] = CALL4;
    } else {
      log[top++] = e;
      log[top++] = f;
      log[top++] = g;
      log[top++] = h;
      log[top++] = undo;
      log[top++] = CALL8;
    }
    this.top = top;
  }

  commit(): void {
    if (!this.open) throw new BugError('journal: commit without a transaction');
    this.open = false;
    this.release();
  }

  /** Forget the records; a log grown large by one transaction is released rather than kept. */
  private release(): void {
    this.top = 0;
    if (this.undo.length > 4096) this.undo = [];
  }

  rollback(): void {
    if (!this.open) throw new BugError('journal: rollback without a transaction');
    const undo = this.undo;
    for (let i = this.top - 1; i >= 0; i--) {
      const entry = undo[i];
      if (entry === CALL4) {
        (undo[i - 1] as (a: unknown, b: unknown, c: unknown, d: unknown) => void)(undo[i - 5], undo[i - 4], undo[i - 3], undo[i - 2]);
        i -= 5;
      } else if (entry === CALL8) {
        (undo[i - 1] as UndoCall<unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown>)(undo[i - 9], undo[i - 8], undo[i - 7], undo[i - 6], undo[i - 5], undo[i - 4], undo[i - 3], undo[i - 2]);
        i -= 9;
      } else (entry as () => void)();
    }
    this.open = false;
    this.release();
  }
}
