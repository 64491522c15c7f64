// Keyed row cells of the ladder: one signal per row price. Each frame, a row whose values did
// not change (sameRow) keeps its signal untouched, so nothing of it is redrawn; the list itself
// changes only when the rows shown change (recentering, scrolling, another precision), and then
// rows that stay keep their cell and their DOM node. This is the keyed reconcile of a store,
// done by hand: Solid's reconcile unwraps the whole new array first, which profiled at several
// milliseconds a frame for 500 rows, over the 4 ms budget on its own. A row the browser does not
// draw (off screen: setShown(false)) keeps its newest figures aside instead of in its signal, so
// nothing of it runs each frame; shown again, its signal gets them. With cumulative depth every
// row changes on every update, and the signals and computations of the 450 rows off screen were
// most of the ladder's script.
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
  /** The browser draws this cell's row (true) or skips it (false); shown again, it gets its newest row. */
  setShown(cell: RowCell, shown: boolean): void;
}

export function createRowCells(): RowCells {
  const cells = new Map<string, RowCell>();
  const [list, setList] = createSignal<readonly RowCell[]>([]);
  /** The newest row of each cell that is not drawn now (undefined until one arrives). */
  const hidden = new Map<RowCell, LadderRow | undefined>();
  const deliver = (cell: RowCell, row: LadderRow) => {
    if (hidden.has(cell)) hidden.set(cell, row);
    else cell.set(row);
  };

  return {
    list,
    current(price, index) {
      const listed = untrack(list)[index];
      const cell = listed && listed.price === price ? listed : cells.get(price.toString());
      if (!cell) return undefined;
      return hidden.get(cell) ?? untrack(cell.row);
    },
    setShown(cell, shown) {
      if (!shown) {
        if (!hidden.has(cell)) hidden.set(cell, undefined);
        return;
      }
      if (!hidden.has(cell)) return;
      const newest = hidden.get(cell);
      hidden.delete(cell);
      if (newest !== undefined) cell.set(newest);
    },
    apply(rows) {
      const current = list();
      let sameKeys = current.length === rows.length;
      for (let index = 0; sameKeys && index < rows.length; index++) sameKeys = current[index]!.key === rows[index]!.key;
      if (sameKeys) {
        for (let index = 0; index < rows.length; index++) deliver(current[index]!, rows[index]!);
        return;
      }
      const next: RowCell[] = new Array(rows.length);
      const kept = new Set<string>();
      for (let index = 0; index < rows.length; index++) {
        const row = rows[index]!;
        let cell = cells.get(row.key);
        if (cell) deliver(cell, row);
        else {
          const [value, set] = createSignal(row, { equals: sameRow });
          cell = { key: row.key, price: row.price, row: value, set };
          cells.set(row.key, cell);
        }
        kept.add(row.key);
        next[index] = cell;
      }
      for (const [key, cell] of cells) {
        if (kept.has(key)) continue;
        cells.delete(key);
        hidden.delete(cell);
      }
      setList(next);
    },
  };
}
