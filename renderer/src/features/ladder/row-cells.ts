// Keyed row cells of the ladder: one signal per row price. Each frame, a row whose values did
// not change (sameRow) keeps its signal untouched, so nothing of it is redrawn; the list itself
// changes only when the rows shown change (recentering, scrolling, another precision), and then
// rows that stay keep their cell and their DOM node. This is the keyed reconcile of a store,
// done by hand: Solid's reconcile unwraps the whole new array first, which profiled at several
// milliseconds a frame for 500 rows, over the 4 ms budget on its own.
import { createSignal, untrack, type Accessor, type Setter } from 'solid-js';
import { sameRow, type LadderRow } from './ladder-model';

export interface RowCell {
  readonly key: string;
  readonly price: bigint;
  readonly row: Accessor<LadderRow>;
  readonly set: Setter<LadderRow>;
}

export interface RowCells {
  readonly list: Accessor<readonly RowCell[]>;
  /** The row a price shows now (without tracking), for buildLadderFrame's `previous`. */
  current(price: bigint, index: number): LadderRow | undefined;
  apply(rows: readonly LadderRow[]): void;
}

export function createRowCells(): RowCells {
  const cells = new Map<string, RowCell>();
  const [list, setList] = createSignal<readonly RowCell[]>([]);

  return {
    list,
    current(price, index) {
      const cell = untrack(list)[index];
      if (cell && cell.price === price) return untrack(cell.row);
      return cells.get(price.toString()) ? untrack(cells.get(price.toString())!.row) : undefined;
    },
    apply(rows) {
      const current = list();
      let sameKeys = current.length === rows.length;
      for (let index = 0; sameKeys && index < rows.length; index++) sameKeys = current[index]!.key === rows[index]!.key;
      if (sameKeys) {
        for (let index = 0; index < rows.length; index++) current[index]!.set(rows[index]!);
        return;
      }
      const next: RowCell[] = new Array(rows.length);
      const kept = new Set<string>();
      for (let index = 0; index < rows.length; index++) {
        const row = rows[index]!;
        let cell = cells.get(row.key);
        if (cell) cell.set(row);
        else {
          const [value, set] = createSignal(row, { equals: sameRow });
          cell = { key: row.key, price: row.price, row: value, set };
          cells.set(row.key, cell);
        }
        kept.add(row.key);
        next[index] = cell;
      }
      for (const key of cells.keys()) if (!kept.has(key)) cells.delete(key);
      setList(next);
    },
  };
}
