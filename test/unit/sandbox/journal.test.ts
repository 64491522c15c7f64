import { describe, expect, it } from 'vitest';
import { Journal } from '../../../sandbox/engine/journal';

describe('the sandbox undo journal', () => {
  it('rolls back closures and static calls of one to eight arguments (short and long records) in reverse order, each with its own arguments', () => {
    const journal = new Journal();
    const undone: unknown[][] = [];
    const one = (a: string) => undone.push([a]);
    const four = (a: number, b: string, c: bigint, d: boolean) => undone.push([a, b, c, d]);
    const eight = (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => undone.push([a, b, c, d, e, f, g, h]);
    journal.begin();
    journal.recordCall(one, 'first');
    journal.record(() => undone.push(['closure']));
    journal.recordCall(four, 4, 'four', 4n, true);
    journal.recordCall(eight, 1, 2, 3, 4, 5, 6, 7, 8);
    const sparse = (a: number, b: number, c: number, d: number, e: undefined, f: undefined, g: undefined, h: number | undefined) => undone.push([a, b, c, d, e, f, g, h]);
    journal.recordCall(sparse, 1, 2, 3, 4, undefined, undefined, undefined, 8);
    journal.recordCall(sparse, 5, 6, 7, 8, undefined, undefined, undefined, undefined);
    journal.recordCall(one, 'last');
    journal.rollback();
    expect(undone).toEqual([
      ['last'],
      [5, 6, 7, 8, undefined, undefined, undefined, undefined],
      [1, 2, 3, 4, undefined, undefined, undefined, 8],
      [1, 2, 3, 4, 5, 6, 7, 8],
      [4, 'four', 4n, true],
      ['closure'],
      ['first'],
    ]);
    expect(journal.active).toBe(false);
  });

  it('records nothing outside a transaction, and a committed transaction leaves nothing to the next one', () => {
    const journal = new Journal();
    const undone: string[] = [];
    const undo = (what: string) => undone.push(what);
    journal.recordCall(undo, 'outside');
    journal.begin();
    journal.recordCall(undo, 'committed');
    journal.commit();
    journal.begin();
    journal.recordCall(undo, 'reverted');
    journal.rollback();
    expect(undone).toEqual(['reverted']);
  });
});
