// The undo journal that makes a batch atomic. Every mutation of ledger or book state made
// while a transaction is open records how to undo itself; a revert replays the records in
// reverse, so a batch that fails at its fifth action leaves no trace of the first four.
// Outside a transaction nothing is recorded (and callers skip building the closures).
//
// A record is a closure, or (on the matching hot path, where a closure per fill was a large part
// of the garbage, docs/sandbox.md "Performance") a static undo function and its arguments stored
// in the log itself: `recordCall(undo, a, b, c, d)`, no allocation beyond the log's own growth.
import { BugError } from '../../shared/result';

/** Marks the end of a `recordCall` record: [a, b, c, d, undo, CALL]. */
const CALL = Symbol('journal call');

export type UndoCall<A, B, C, D> = (a: A, b: B, c: C, d: D) => void;

export class Journal {
  private undo: unknown[] = [];
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
    this.undo.length = 0;
  }

  record(undo: () => void): void {
    if (this.open) this.undo.push(undo);
  }

  /** Record `undo(a, b, c, d)` without allocating a closure (`undo` should be a static function). */
  recordCall<A, B = undefined, C = undefined, D = undefined>(undo: UndoCall<A, B, C, D>, a: A, b?: B, c?: C, d?: D): void {
    if (this.open) this.undo.push(a, b, c, d, undo, CALL);
  }

  commit(): void {
    if (!this.open) throw new BugError('journal: commit without a transaction');
    this.open = false;
    this.undo.length = 0;
  }

  rollback(): void {
    if (!this.open) throw new BugError('journal: rollback without a transaction');
    const undo = this.undo;
    for (let i = undo.length - 1; i >= 0; i--) {
      const entry = undo[i];
      if (entry === CALL) {
        (undo[i - 1] as UndoCall<unknown, unknown, unknown, unknown>)(undo[i - 5], undo[i - 4], undo[i - 3], undo[i - 2]);
        i -= 5;
      } else (entry as () => void)();
    }
    this.open = false;
    this.undo.length = 0;
  }
}
