// The execution algorithms main runs (main/services/algos), as the ticket offers them beside the
// venue's order kinds: each one's name, what it does in a line, the parameters it asks for (with the
// values a new ticket starts from) and whether the ladder's context menu offers it. A table of its
// own, not rows of shared/market/order-kinds.ts: an algorithm is not an order the venue knows, it is
// a parent main signs children for, and nothing that lists order kinds (reduce-only, the ladder's
// click, the confirmations) may mistake one for the other.
// Platform-free: the renderer parses the texts (renderer/src/features/algos/algo-form.ts) into the
// bridge's AlgoSpec (shared/ipc/views/algos.ts), whose schema main checks again.
import type { AlgoKind } from '../ipc/views/algos';

/**
 * How a parameter is typed and read:
 * - price / size: a decimal in the market's quote / base units (raw bigint with its decimals);
 * - minutes / seconds: a decimal duration, to the millisecond;
 * - percent: a decimal share, to the basis point (12.5 % = 1,250 bps);
 * - bps: whole basis points;
 * - ratio: a multiplier, to the basis point (×1.2 = 12,000 bps);
 * - count / ticks: a whole number;
 * - choice: one of `choices`; flag: on or off ('true' / 'false').
 */
export type AlgoParameterKind = 'price' | 'size' | 'minutes' | 'seconds' | 'percent' | 'bps' | 'ratio' | 'count' | 'ticks' | 'choice' | 'flag';

/** Every parameter any algorithm asks for, by one name (the ticket keeps one text per name). */
export type AlgoParameterName =
  | 'duration'
  | 'interval'
  | 'sizeJitter'
  | 'timeJitter'
  | 'slice'
  | 'slippage'
  | 'limitPrice'
  | 'from'
  | 'to'
  | 'count'
  | 'distribution'
  | 'curve'
  | 'ratio'
  | 'postOnly'
  | 'price'
  | 'visible'
  | 'offset'
  | 'maxAmends';

export interface AlgoParameter {
  readonly name: AlgoParameterName;
  /** The field's label in the ticket, also the name its errors give. */
  readonly label: string;
  readonly kind: AlgoParameterKind;
  readonly help: string;
  /** The text a new ticket starts with ('' : empty, for the trader to fill). */
  readonly initial: string;
  /** May be left empty (a price limit: none). */
  readonly optional: boolean;
  readonly choices?: readonly { readonly value: string; readonly label: string }[];
  /** Asked only while another parameter has one of these values (the slippage of a market slice). */
  readonly shownWhen?: { readonly name: AlgoParameterName; readonly values: readonly string[] };
}

export interface AlgoKindSpec {
  /** The trader's word for it: the ticket, the Working algorithms panel, the tags on the ladder and the chart. */
  readonly label: string;
  /** What it does, in one line under the ticket's selector. */
  readonly help: string;
  /** In the order the ticket shows them. */
  readonly parameters: readonly AlgoParameter[];
  /** Offered from the ladder's context menu at a row's price (with the ladder's own size). */
  readonly fromLadder: boolean;
}

const limitPrice = (help: string): AlgoParameter => ({ name: 'limitPrice', label: 'Price limit', kind: 'price', help, initial: '', optional: true });

export const ALGO_KIND_TABLE: { readonly [K in AlgoKind]: AlgoKindSpec } = {
  twap: {
    label: 'TWAP',
    help: 'Works the total over a duration in slices at a set interval, each a limit at the touch or a bounded market; pauses beyond the price limit.',
    fromLadder: false,
    parameters: [
      { name: 'duration', label: 'Duration', kind: 'minutes', help: 'Minutes from the first slice to the last (10 s to 24 h).', initial: '10', optional: false },
      { name: 'interval', label: 'Interval', kind: 'seconds', help: 'Seconds between slices (1 s to 1 h).', initial: '30', optional: false },
      { name: 'sizeJitter', label: 'Size randomisation', kind: 'percent', help: 'Each slice’s size moves by up to this share of the even slice, at random (0: none; at most 50 %).', initial: '0', optional: false },
      { name: 'timeJitter', label: 'Time randomisation', kind: 'percent', help: 'Each slice’s time moves by up to this share of the interval, at random (0: none; at most 50 %).', initial: '0', optional: false },
      {
        name: 'slice',
        label: 'Each slice',
        kind: 'choice',
        help: 'A limit at the touch (the best price on its side; may rest) or a bounded market that takes at most the slippage past the touch.',
        initial: 'touch',
        optional: false,
        choices: [
          { value: 'touch', label: 'Limit at the touch' },
          { value: 'market', label: 'Market within slippage' },
        ],
      },
      { name: 'slippage', label: 'Slippage', kind: 'bps', help: 'How far past the touch a market slice may trade, in basis points (1 to 1,000).', initial: '20', optional: false, shownWhen: { name: 'slice', values: ['market'] } },
      limitPrice('No slice at a worse price: a buy above it or a sell below it pauses the TWAP (empty: none).'),
    ],
  },
  scale: {
    label: 'Scale',
    help: 'Places N limit orders across a price range, sizes flat or growing, in as few signed batches as the five-action cap allows.',
    fromLadder: false,
    parameters: [
      { name: 'from', label: 'From price', kind: 'price', help: 'The first order’s price.', initial: '', optional: false },
      { name: 'to', label: 'To price', kind: 'price', help: 'The last order’s price (every price lands on the tick).', initial: '', optional: false },
      { name: 'count', label: 'Orders', kind: 'count', help: 'How many orders (2 to 100).', initial: '5', optional: false },
      {
        name: 'distribution',
        label: 'Sizes',
        kind: 'choice',
        help: 'Flat: the same size each; increasing or decreasing from the first price to the last.',
        initial: 'flat',
        optional: false,
        choices: [
          { value: 'flat', label: 'Flat' },
          { value: 'increasing', label: 'Increasing' },
          { value: 'decreasing', label: 'Decreasing' },
        ],
      },
      {
        name: 'curve',
        label: 'Curve',
        kind: 'choice',
        help: 'Linear: sizes grow by the same amount; geometric: by the same ratio.',
        initial: 'linear',
        optional: false,
        choices: [
          { value: 'linear', label: 'Linear' },
          { value: 'geometric', label: 'Geometric' },
        ],
        shownWhen: { name: 'distribution', values: ['increasing', 'decreasing'] },
      },
      { name: 'ratio', label: 'Ratio', kind: 'ratio', help: 'Each order’s size over the one before (above 1, at most 3).', initial: '1.2', optional: false, shownWhen: { name: 'curve', values: ['geometric'] } },
      { name: 'postOnly', label: 'Post only', kind: 'flag', help: 'Every order rests as a maker: one that would trade at once is refused, not filled.', initial: 'true', optional: false },
    ],
  },
  iceberg: {
    label: 'Iceberg',
    help: 'Rests a visible part of the total at one price and shows the next part as each fills, until the total is filled.',
    fromLadder: false,
    parameters: [
      { name: 'price', label: 'Price', kind: 'price', help: 'The price every visible part rests at.', initial: '', optional: false },
      { name: 'visible', label: 'Visible size', kind: 'size', help: 'The size shown at a time (the last part may be larger when what would remain is below the minimum).', initial: '', optional: false },
    ],
  },
  chase: {
    label: 'Chase',
    help: 'A limit that follows the best bid (buy) or ask (sell) as the touch moves, amended in one batch, up to the price limit.',
    fromLadder: true,
    parameters: [
      { name: 'offset', label: 'Offset', kind: 'ticks', help: 'Ticks behind the touch (0: join the best bid for a buy, the best ask for a sell).', initial: '0', optional: false },
      { name: 'maxAmends', label: 'Amends per minute', kind: 'count', help: 'At most this many amends in any minute (1 to 120); they count against the rate limit and the orders-per-minute guard.', initial: '10', optional: false },
      limitPrice('It never follows the touch past this price: a buy stops above it, a sell below it, and waits (empty: none).'),
    ],
  },
};

/** In the order the ticket lists them. */
export const ALGO_KINDS: readonly AlgoKind[] = ['twap', 'scale', 'iceberg', 'chase'];

/** The algorithms the ladder's context menu offers. */
export const LADDER_ALGO_KINDS: readonly AlgoKind[] = ALGO_KINDS.filter((kind) => ALGO_KIND_TABLE[kind].fromLadder);

export function algoLabel(kind: AlgoKind): string {
  return ALGO_KIND_TABLE[kind].label;
}

/** Whether a parameter of `kind` is asked for, given the texts of the others (and whether those are asked for). */
export function parameterShown(kind: AlgoKind, parameter: AlgoParameter, texts: Readonly<Partial<Record<AlgoParameterName, string>>>): boolean {
  const condition = parameter.shownWhen;
  if (condition === undefined) return true;
  const other = texts[condition.name];
  const controlling = ALGO_KIND_TABLE[kind].parameters.find((candidate) => candidate.name === condition.name);
  return other !== undefined && condition.values.includes(other) && (controlling === undefined || parameterShown(kind, controlling, texts));
}

/** The texts a new ticket starts with for `kind`. */
export function initialTexts(kind: AlgoKind): Partial<Record<AlgoParameterName, string>> {
  return Object.fromEntries(ALGO_KIND_TABLE[kind].parameters.map((parameter) => [parameter.name, parameter.initial]));
}
