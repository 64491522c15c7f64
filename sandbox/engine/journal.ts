// The undo journal that makes a batch atomic. Every mutation of ledger or book state made
// while a transaction is open records how to undo itself; a revert replays the records in
// reverse, so a batch that fails at its fifth action leaves no trace of the first four.
// Outside a transaction nothing is recorded (and callers skip building the closures).
import { BugError } from '../../shared/result';

export class Journal {
  private undo: (() => void)[] = [];
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

  commit(): void {
    if (!this.open) throw new BugError('journal: commit without a transaction');
    this.open = false;
    this.undo.length = 0;
  }

  rollback(): void {
    if (!this.open) throw new BugError('journal: rollback without a transaction');
    for (let i = this.undo.length - 1; i >= 0; i--) (this.undo[i] as () => void)();
    this.open = false;
    this.undo.length = 0;
  }
}
