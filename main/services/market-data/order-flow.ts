// Order flow of one trade channel: base traded at each exact price, split by the taker's side, for
// the session (since the channel opened) and per minute for the last hour, so the ladder can show
// the session or a 5-minute or 1-hour window. Memory is bounded: at most MAX_FLOW_ROWS prices per
// table (the farthest from the last trade dropped: only rows near the price are ever shown) and
// KEPT_MINUTES minute tables. A minute that is over is sealed into one flat array of its prices and
// sums (about a third of a map's memory: the soak's maker trades at ~500 prices a minute, and an
// hour of them as maps was 3.8 MiB per market); a late trade for it opens it again.
import type { FlowWindow, TradeView } from '../../../shared/ipc/views';

export interface FlowCell {
  readonly bought: bigint;
  readonly sold: bigint;
}

export const MAX_FLOW_ROWS = 4_000;
const MINUTE_MS = 60_000;
const KEPT_MINUTES = 60;
const WINDOW_MINUTES: Record<Exclude<FlowWindow, 'session'>, number> = { '5m': 5, '1h': 60 };

type FlowTable = Map<bigint, FlowCell>;
/** A minute that is over: price, bought, sold, price, bought, sold, … */
type SealedTable = readonly bigint[];

function seal(table: FlowTable): SealedTable {
  const flat: bigint[] = [];
  for (const [price, cell] of table) flat.push(price, cell.bought, cell.sold);
  return flat;
}

function unseal(table: SealedTable): FlowTable {
  const open: FlowTable = new Map();
  for (let index = 0; index < table.length; index += 3) open.set(table[index]!, { bought: table[index + 1]!, sold: table[index + 2]! });
  return open;
}

function addTo(table: FlowTable, trade: Pick<TradeView, 'price' | 'quantity' | 'side'>): void {
  const cell = table.get(trade.price) ?? { bought: 0n, sold: 0n };
  table.set(trade.price, trade.side === 'Buy' ? { bought: cell.bought + trade.quantity, sold: cell.sold } : { bought: cell.bought, sold: cell.sold + trade.quantity });
}

/** Keep the `keep` prices nearest `around` (ties: the lower price), dropping the rest. */
export function keepNearest<V>(table: Map<bigint, V>, around: bigint, keep: number): void {
  const distance = (price: bigint) => (price > around ? price - around : around - price);
  const byDistance = [...table.keys()].sort((a, b) => {
    const difference = distance(a) - distance(b);
    return difference < 0n ? -1 : difference > 0n ? 1 : a < b ? -1 : 1;
  });
  for (const price of byDistance.slice(keep)) table.delete(price);
}

export class OrderFlow {
  private readonly session: FlowTable = new Map();
  /** Per minute (trade time / 60 s), oldest first by insertion; all but the minute last traded sealed. */
  private readonly minutes = new Map<number, FlowTable | SealedTable>();
  /** The newest trade time seen: a window ends at it when the exchange's clock runs ahead of ours. */
  private newest = 0;
  /**
   * Each window's sum as last computed, and the minute it ends at: every book frame of every window
   * on this market asks for it, and it changes only with a trade or a new minute.
   */
  private readonly summed = new Map<FlowWindow, { readonly end: number; readonly table: ReadonlyMap<bigint, FlowCell> }>();

  constructor(private readonly maxRows = MAX_FLOW_ROWS) {}

  /** Count one trade (each trade once: the hub drops repeats before). */
  add(trade: Pick<TradeView, 'price' | 'quantity' | 'side' | 'time'>): void {
    this.summed.clear();
    addTo(this.session, trade);
    const minute = Math.floor(trade.time / MINUTE_MS);
    const held = this.minutes.get(minute);
    let table: FlowTable;
    if (held instanceof Map) table = held;
    else {
      // A new minute, or a late trade for one that was sealed.
      table = held === undefined ? new Map() : unseal(held);
      this.minutes.set(minute, table);
      if (held === undefined && this.minutes.size > KEPT_MINUTES + 1) {
        const oldest = Math.min(...this.minutes.keys());
        this.minutes.delete(oldest);
      }
      // Only the minute being traded stays a map.
      for (const [other, kept] of this.minutes) if (other !== minute && kept instanceof Map) this.minutes.set(other, seal(kept));
    }
    addTo(table, trade);
    this.newest = Math.max(this.newest, trade.time);
    for (const bounded of [this.session, table]) if (bounded.size > this.maxRows) keepNearest(bounded, trade.price, Math.floor((this.maxRows * 3) / 4));
  }

  /** Base traded per exact price over `window`, ending now (or at the newest trade, if later). */
  rows(window: FlowWindow, now: number): ReadonlyMap<bigint, FlowCell> {
    if (window === 'session') return this.session;
    const end = Math.floor(Math.max(now, this.newest) / MINUTE_MS);
    const cached = this.summed.get(window);
    if (cached?.end === end) return cached.table;
    const from = end - WINDOW_MINUTES[window] + 1;
    const summed: FlowTable = new Map();
    const count = (price: bigint, bought: bigint, sold: bigint) => {
      const sum = summed.get(price);
      summed.set(price, sum ? { bought: sum.bought + bought, sold: sum.sold + sold } : { bought, sold });
    };
    for (const [minute, table] of this.minutes) {
      if (minute < from) continue;
      if (table instanceof Map) for (const [price, cell] of table) count(price, cell.bought, cell.sold);
      else for (let index = 0; index < table.length; index += 3) count(table[index]!, table[index + 1]!, table[index + 2]!);
    }
    this.summed.set(window, { end, table: summed });
    return summed;
  }
}
