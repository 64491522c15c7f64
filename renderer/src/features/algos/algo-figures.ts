// What the Working algorithms panel shows of one parent, as plain text: progress, the figures with
// the market's precision (the cells Open orders and Positions use, so a price reads the same in
// every panel), the state in words, the next slice's time; and the tags that mark a child order
// on the ladder and the chart as its parent's ("TWAP 3fa2"). Pure: the time is passed in.
import { algoLabel } from '../../../../shared/algos/algo-kinds';
import type { AlgoChildView, AlgoState, AlgoView } from '../../../../shared/ipc/views/algos';
import type { MarketRules } from '../../../../shared/market/market';
import { averagePriceCell, priceCell, quantityCell } from '../../format/columns';
import { formatRemaining } from '../../format/time';

/**
 * What of an algorithm's id a tag shows: the id without its leading kind ("twap-mihx3k9f-2" shows
 * "mihx3k9f-2"), as main names it in its notices ("TWAP mihx3k9f-2 started"), so a tag and a
 * notice name the same algorithm the same way; an id without one shows its last four characters.
 */
export function shortAlgoId(id: string): string {
  const dash = id.indexOf('-');
  if (dash > 0 && dash < id.length - 1) return id.slice(dash + 1);
  return id.slice(-4);
}

/** "TWAP mihx3k9f-2": the parent's kind and short id, on its children and in the panel. */
export function algoTag(algo: Pick<AlgoView, 'id' | 'spec'>): string {
  return `${algoLabel(algo.spec.params.kind)} ${shortAlgoId(algo.id)}`;
}

/**
 * The tag where room is short (a ladder row): the kind and the end of the name ("Scale …-2"), the
 * full name in its title. The end is the id's counter, what tells two algorithms of one start apart.
 */
export function compactAlgoTag(algo: Pick<AlgoView, 'id' | 'spec'>): string {
  const short = shortAlgoId(algo.id);
  const dash = short.lastIndexOf('-');
  const end = dash >= 0 ? short.slice(dash) : short.slice(-4);
  return end === short ? algoTag(algo) : `${algoLabel(algo.spec.params.kind)} …${end}`;
}

/** Filled share in tenths of a percent (0 to 1000), never above the whole. */
export function progressPermille(filled: bigint, total: bigint): number {
  if (total <= 0n || filled <= 0n) return 0;
  if (filled >= total) return 1000;
  return Number((filled * 1000n) / total);
}

export const STATE_TEXT: Readonly<Record<AlgoState, string>> = {
  running: 'Running',
  paused: 'Paused',
  finished: 'Finished',
  cancelled: 'Cancelled',
};

/** "+3 bps (worse)", "-2 bps (better)", "0 bps". */
export function slippageText(bps: bigint): string {
  if (bps === 0n) return '0 bps';
  return bps > 0n ? `+${bps} bps (worse)` : `${bps} bps (better)`;
}

export interface AlgoFigures {
  readonly tag: string;
  readonly side: string;
  readonly permille: number;
  /** "0.3000 / 1.0000 ETH". */
  readonly filled: string;
  readonly remaining: string;
  /** The average fill price, "—" before a fill. */
  readonly average: string;
  readonly arrival: string;
  readonly slippage: string;
  readonly children: string;
  readonly state: string;
  readonly reason: string | null;
  /** "in 0m 12s", or null when nothing is due by schedule. */
  readonly next: string | null;
  /** What it works at: "at 3,000.00", "3,010.00 → 2,990.00 in 5", "limit 3,050.00". */
  readonly terms: string;
}

function terms(market: MarketRules, algo: AlgoView): string {
  const params = algo.spec.params;
  const limit = algo.spec.limitPrice === null ? 'no price limit' : `limit ${priceCell(market, algo.spec.limitPrice)}`;
  switch (params.kind) {
    case 'twap':
      return `${Math.round(params.durationMs / 60_000)} min in ${Math.round(params.intervalMs / 1000)} s slices, ${params.slice.kind === 'touch' ? 'limit at the touch' : `market within ${params.slice.slippageBps} bps`}, ${limit}`;
    case 'scale':
      return `${params.count} orders ${priceCell(market, params.from)} → ${priceCell(market, params.to)}, ${params.shape.distribution}${params.postOnly ? ', post only' : ''}`;
    case 'iceberg':
      return `at ${priceCell(market, params.price)}, showing ${quantityCell(market, params.visible)}`;
    case 'chase':
      return `${params.offsetTicks === 0n ? 'at the touch' : `${params.offsetTicks} ticks behind the touch`}, at most ${params.maxAmendsPerMinute} amends/min, ${limit}`;
  }
}

export function algoFigures(market: MarketRules, algo: AlgoView, now: number): AlgoFigures {
  const total = algo.spec.quantity;
  return {
    tag: algoTag(algo),
    side: algo.spec.side,
    permille: progressPermille(algo.filled, total),
    filled: `${quantityCell(market, algo.filled)} / ${quantityCell(market, total)} ${market.base.symbol}`,
    remaining: `${quantityCell(market, algo.remaining)} ${market.base.symbol}`,
    average: algo.averagePrice === null ? '—' : averagePriceCell(market, algo.averagePrice),
    arrival: algo.arrivalPrice === null ? '—' : priceCell(market, algo.arrivalPrice),
    slippage: algo.slippageBps === null ? '—' : slippageText(algo.slippageBps),
    children: `${algo.counts.open} open · ${algo.counts.filled} filled · ${algo.counts.cancelled} cancelled`,
    state: STATE_TEXT[algo.state],
    reason: algo.reason === null ? null : `${algo.reason.text} (${algo.reason.code})`,
    next: algo.state === 'running' && algo.nextAt !== null ? (algo.nextAt <= now ? 'due now' : `in ${formatRemaining(algo.nextAt - now)}`) : null,
    terms: terms(market, algo),
  };
}

/** Still able to act (pause, resume, amend, cancel): not finished or cancelled. */
export function algoActive(state: AlgoState): boolean {
  return state === 'running' || state === 'paused';
}

export interface ChildTag {
  readonly algoId: string;
  readonly tag: string;
  /** compactAlgoTag: for a ladder row. */
  readonly compact: string;
}

/**
 * Working orders that belong to an algorithm, by order id: the open children of every algorithm
 * (a child still signing or already ended is not on the book to be marked).
 */
export function childTags(algos: readonly AlgoView[]): ReadonlyMap<string, ChildTag> {
  const tags = new Map<string, ChildTag>();
  for (const algo of algos) {
    const tag = algoTag(algo);
    const compact = compactAlgoTag(algo);
    for (const child of algo.children) if (child.status === 'open' && child.orderId !== null) tags.set(child.orderId, { algoId: algo.id, tag, compact });
  }
  return tags;
}

/** Tags of the given order ids, each parent once ("TWAP mihx3k9f-2", "Scale mihx3k9f-3"). */
export function tagsOf(orderIds: readonly string[], tags: ReadonlyMap<string, ChildTag>): ChildTag[] {
  const found = new Map<string, ChildTag>();
  for (const orderId of orderIds) {
    const tag = tags.get(orderId);
    if (tag !== undefined && !found.has(tag.algoId)) found.set(tag.algoId, tag);
  }
  return [...found.values()];
}

export const CHILD_STATUS_TEXT: Readonly<Record<AlgoChildView['status'], string>> = {
  signing: 'signing',
  open: 'open',
  filled: 'filled',
  cancelled: 'cancelled',
  refused: 'refused',
  unknown: 'being reconciled',
};
