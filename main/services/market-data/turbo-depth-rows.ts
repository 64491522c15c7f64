// The Turbo depth overlay's rows: the executable and demand views of a Turbo book (GET /v1/depth
// with turbo=true and view) merged into the ladder's rows by the ladder's own grouping rule
// (renderer/src/features/ladder/ladder-layout.ts): a bid at p joins the row floor(p / step) * step,
// an ask the row ceil(p / step) * step. Computed once per read in main, so the ladder only looks a
// row's price up (never regroups per frame).
import type { BookLevel } from '../../../shared/book/order-book';
import type { TurboDepthRow } from '../../../shared/ipc/views/margin-insights';

type Column = 'executableBid' | 'executableAsk' | 'demandBid' | 'demandAsk';

export interface TurboDepthSides {
  readonly buys: readonly BookLevel[];
  readonly sells: readonly BookLevel[];
}

function floorToStep(value: bigint, step: bigint): bigint {
  return value - (value % step);
}

function ceilToStep(value: bigint, step: bigint): bigint {
  const floored = floorToStep(value, step);
  return floored === value ? value : floored + step;
}

/** Rows with some depth, highest price first. `step` must be positive. */
export function turboDepthRows(executable: TurboDepthSides, demand: TurboDepthSides, step: bigint): TurboDepthRow[] {
  const rows = new Map<bigint, { -readonly [K in keyof TurboDepthRow]: TurboDepthRow[K] }>();
  const add = (levels: readonly BookLevel[], column: Column, rowOf: (price: bigint) => bigint) => {
    for (const level of levels) {
      if (level.quantity <= 0n || level.price <= 0n) continue;
      const price = rowOf(level.price);
      let row = rows.get(price);
      if (row === undefined) {
        row = { price, executableBid: 0n, executableAsk: 0n, demandBid: 0n, demandAsk: 0n };
        rows.set(price, row);
      }
      row[column] += level.quantity;
    }
  };
  const bidRow = (price: bigint) => floorToStep(price, step);
  const askRow = (price: bigint) => ceilToStep(price, step);
  add(executable.buys, 'executableBid', bidRow);
  add(executable.sells, 'executableAsk', askRow);
  add(demand.buys, 'demandBid', bidRow);
  add(demand.sells, 'demandAsk', askRow);
  return [...rows.values()].sort((a, b) => (a.price === b.price ? 0 : a.price > b.price ? -1 : 1));
}
