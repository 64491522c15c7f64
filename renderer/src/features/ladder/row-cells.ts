// Row cells of the ladder: one cell per row shown, each with its DOM row. Each frame, a row whose
// values did not change (sameRow) is left alone. When the rows shown change (recentering,
// scrolling, another precision, a split ladder's gap moving with the spread), a cell whose price is
// still shown keeps it, and the cells of prices no longer shown take the new prices: their DOM row
// is rewritten (only the figures that differ), never re-created. On a thin book the split view's
// rows change with every move of the best bid or ask; re-creating a row per new price cost the
// four-window desk's ladder windows about 140 rows made and removed a second (a profile: DOM
// removal, cloning, inserting and Solid's cleanup were a third of their script). This is the
// keyed reconcile of a store, done by hand: Solid's reconcile unwraps the whole new array first,
// which profiled at several milliseconds a frame for 500 rows, over the 4 ms budget on its own.
//
// A changed row is handed straight to its row's writer (onRow), not through a signal: with
// cumulative depth every row on screen changes on every update, and a signal per row cost a
// reactive update, its marking and its effect per row per frame (a third of the ladder's script in
// a profile of the bench page). What other computations read of a row is a signal of its own, set
// only when it changes: its price (and key) and its marks (the entry mark and its own order ids).
// A row the browser does not draw (off screen: setShown(false)) keeps its newest figures in the
// cell and is not written; shown again, its writer gets them.
import { createSignal, untrack, type Accessor } from 'solid-js';
import { sameIds, sameRow, type LadderRow } from './ladder-model';

/** What of a row other computations than its writer read. */
export interface RowMarks {
  readonly entry: boolean;
  readonly ownBuyIds: readonly string[];
  readonly ownSellIds: readonly string[];
}

export type RowWriter = (row: LadderRow) => void;

export interface RowCell {
  /** The row price as decimal text, and as raw quote: they change when the cell takes another price. */
  readonly key: Accessor<string>;
  readonly price: Accessor<bigint>;
  /** The newest row of this price (not tracked: read it in handlers and writers). */
  latest(): LadderRow;
  /** The row's entry mark and own order ids, tracked; changes only when they do. */
  readonly marks: Accessor<RowMarks>;
  /** The row's writer: told each changed row while the row is drawn, and the newest when it is drawn again. */
  onRow(writer: RowWriter): void;
}

export interface RowCells {
  readonly list: Accessor<readonly RowCell[]>;
  /** The row a price shows now (without tracking), for buildLadderFrame's `previous`. */
  current(price: bigint, index: number): LadderRow | undefined;
  apply(rows: readonly LadderRow[]): void;
  /** The browser draws this cell's row (true) or skips it (false); drawn again, its writer gets its newest row. */
  setShown(cell: RowCell, shown: boolean): void;
}

const sameMarks = (marks: RowMarks, row: LadderRow) => marks.entry === row.entry && sameIds(marks.ownBuyIds, row.ownBuyIds) && sameIds(marks.ownSellIds, row.ownSellIds);

interface Cell extends RowCell {
  newest: LadderRow;
  /** Take another price (its row is then written as the difference from what it shows). */
  rekey(row: LadderRow): void;
  /** The row its writer was last told (undefined: none yet). */
  told: LadderRow | undefined;
  writer: RowWriter | undefined;
  hidden: boolean;
  setMarks(row: LadderRow): void;
}

function createCell(row: LadderRow): Cell {
  const [marks, setMarks] = createSignal<RowMarks>({ entry: row.entry, ownBuyIds: row.ownBuyIds, ownSellIds: row.ownSellIds });
  const [key, setKey] = createSignal(row.key);
  const [price, setPrice] = createSignal(row.price);
  const cell: Cell = {
    key,
    price,
    rekey(next) {
      setKey(next.key);
      setPrice(next.price);
    },
    newest: row,
    told: undefined,
    writer: undefined,
    hidden: false,
    latest: () => cell.newest,
    marks,
    setMarks(next) {
      if (!sameMarks(untrack(marks), next)) setMarks({ entry: next.entry, ownBuyIds: next.ownBuyIds, ownSellIds: next.ownSellIds });
    },
    onRow(writer) {
      cell.writer = writer;
      cell.told = undefined;
      tell(cell);
    },
  };
  return cell;
}

/** Hand the cell's newest row to its writer when drawn and not told it (or an equal row) yet. */
function tell(cell: Cell): void {
  if (cell.hidden || cell.writer === undefined) return;
  const row = cell.newest;
  if (cell.told !== undefined && (cell.told === row || sameRow(cell.told, row))) return;
  cell.told = row;
  cell.writer(row);
}

function deliver(cell: Cell, row: LadderRow): void {
  if (cell.newest === row) return;
  cell.newest = row;
  cell.setMarks(row);
  tell(cell);
}

export function createRowCells(): RowCells {
  const cells = new Map<string, Cell>();
  const [list, setList] = createSignal<readonly Cell[]>([]);

  return {
    list,
    current(price, index) {
      const listed = untrack(list)[index];
      const cell = listed && listed.newest.price === price ? listed : cells.get(price.toString());
      return cell?.newest;
    },
    setShown(cell, shown) {
      const own = cells.get(cell.latest().key);
      if (own === undefined || own !== cell) return;
      own.hidden = !shown;
      tell(own);
    },
    apply(rows) {
      const current = untrack(list);
      let sameKeys = current.length === rows.length;
      for (let index = 0; sameKeys && index < rows.length; index++) sameKeys = current[index]!.newest.key === rows[index]!.key;
      if (sameKeys) {
        for (let index = 0; index < rows.length; index++) deliver(current[index]!, rows[index]!);
        return;
      }
      const shown = new Set<string>();
      for (const row of rows) shown.add(row.key);
      // The cells of prices no longer shown, in the order they were listed: they take the new prices.
      const free: Cell[] = [];
      for (const cell of current) {
        const key = cell.newest.key;
        if (!shown.has(key) && cells.get(key) === cell) {
          cells.delete(key);
          free.push(cell);
        }
      }
      let reused = 0;
      const next: Cell[] = new Array(rows.length);
      for (let index = 0; index < rows.length; index++) {
        const row = rows[index]!;
        let cell = cells.get(row.key);
        if (cell) deliver(cell, row);
        else {
          cell = free[reused++];
          if (cell) {
            cell.rekey(row);
            deliver(cell, row);
          } else cell = createCell(row);
          cells.set(row.key, cell);
        }
        next[index] = cell;
      }
      setList(next);
    },
  };
}
