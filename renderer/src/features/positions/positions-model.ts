// What the positions panel shows, as text: every figure in its market's own decimals, thousands
// separated, and each column padded with figure spaces to one number of fraction digits so the
// decimal points line up in the tabular font. P&L and percentages are cut (never rounded up) to
// the quote's meaningful decimals; the exact value is in the cell's title.
import type { PositionView } from '../../../../shared/ipc/views';
import type { ClosePercent, PartialClosePlan } from '../../../../shared/positions/close-plan';
import type { MarkSource, PnlUnit } from '../../../../shared/positions/pnl-display';
import type { PositionFigures } from './live-figures';
import type { Market } from '../../../../shared/market/market';
import { formatUnits } from '../../format/units';

const FIGURE_SPACE = '\u2007';

/** Pad numbers so their decimal points line up: "1.5", "12.25" -> "1.5\u2007", "12.25". */
export function alignDecimals(values: readonly string[]): string[] {
  const fractionOf = (value: string) => {
    const dot = value.indexOf('.');
    return dot < 0 ? 0 : value.length - dot - 1;
  };
  const widest = values.reduce((width, value) => Math.max(width, fractionOf(value)), 0);
  return values.map((value) => {
    const fraction = fractionOf(value);
    if (fraction === widest) return value;
    // A whole number gets the room of its missing point too.
    return value + FIGURE_SPACE.repeat(widest - fraction + (fraction === 0 && widest > 0 ? 1 : 0));
  });
}

const shown = (market: Market, side: 'base' | 'quote') => Math.max(0, Math.min(market[side].decimals, market[side].max_precision));

/** A size in base: at least the market's meaningful decimals, more when the raw value has them (fees in base). */
export function sizeText(market: Market, raw: bigint): string {
  return formatUnits(raw, market.base.decimals, shown(market, 'base'));
}

/** A price in quote with the market's meaningful decimals (more only if the raw value has them). */
export function priceText(market: Market, raw: bigint): string {
  return formatUnits(raw, market.quote.decimals, shown(market, 'quote'));
}

/** An amount of quote cut toward zero to the quote's meaningful decimals, signed: "+1,234.50", "-0.07". */
export function pnlText(market: Market, raw: bigint): string {
  const digits = shown(market, 'quote');
  const cut = 10n ** BigInt(market.quote.decimals - digits);
  const text = formatUnits(raw, market.quote.decimals, digits, digits);
  return raw - (raw % cut) > 0n ? `+${text}` : text;
}

/** Basis points (10,000 = 100 %) as a signed percentage with two decimals: 491n -> "+4.91 %". */
export function percentText(bps: bigint | null): string {
  if (bps === null) return '';
  const text = formatUnits(bps, 2, 2, 2);
  return `${bps > 0n ? '+' : ''}${text} %`;
}

/** Basis points of the cost basis as a signed whole number: 491n -> "+491 bp". */
export function bpsText(bps: bigint | null): string {
  if (bps === null) return '';
  return `${bps > 0n ? '+' : ''}${formatUnits(bps, 0)} bp`;
}

/** Tenths of a price tick as signed ticks with one decimal: 43n -> "+4.3 ticks". */
export function tickText(tenths: bigint | null): string {
  if (tenths === null) return '';
  return `${tenths > 0n ? '+' : ''}${formatUnits(tenths, 1, 1, 1)} ticks`;
}

/** The unrealized P&L in the unit the trader chose for its market, as every panel shows it beside the quote figure. */
export function pnlUnitText(figures: Pick<PositionFigures, 'display' | 'unrealizedBps' | 'unrealizedTickTenths'>): string {
  if (figures.display.unit === 'bps') return bpsText(figures.unrealizedBps);
  if (figures.display.unit === 'ticks') return tickText(figures.unrealizedTickTenths);
  return percentText(figures.unrealizedBps);
}

/** The mark sources as the choosers name them. */
export const MARK_SOURCE_LABELS: Readonly<Record<MarkSource, string>> = { exit: 'exit side (bid/ask)', last: 'last trade', mid: 'mid' };
/** The units beside the quote figure as the choosers name them. */
export const PNL_UNIT_LABELS: Readonly<Record<PnlUnit, string>> = { percent: '%', bps: 'bp', ticks: 'ticks' };

/** Where a figure's mark comes from, in words, for a title: "the best bid of the live book". */
export function markSourceTitle(figures: Pick<PositionFigures, 'markSide' | 'source' | 'display'>): string {
  if (figures.markSide === null) return 'no price to mark at';
  const what = figures.markSide === 'bid' || figures.markSide === 'ask' ? `the best ${figures.markSide}` : figures.markSide === 'last' ? 'the last trade' : 'the mid of the best bid and ask';
  const where = figures.source === 'book' ? ' of the live book' : ' when the positions were read';
  const fallback = figures.source === 'read' && figures.display.mark !== 'exit' ? ` (your choice, ${MARK_SOURCE_LABELS[figures.display.mark]}, needs the book's live frames in this window)` : '';
  return `marked at ${what}${where}${fallback}`;
}

export function sideText(size: bigint): 'Long' | 'Short' | 'Flat' {
  return size > 0n ? 'Long' : size < 0n ? 'Short' : 'Flat';
}

export function bookText(turbo: boolean): 'Turbo' | 'Canonical' {
  return turbo ? 'Turbo' : 'Canonical';
}

export function accountText(position: Pick<PositionView, 'account' | 'accountKind'>): string {
  return `${accountKindText(position)} ${accountIdText(position)}`;
}

export function accountKindText(position: Pick<PositionView, 'accountKind'>): string {
  return position.accountKind === 'trading' ? 'Trading account' : 'Turbo Account';
}

/** An account id shortened for a table: 0x and four digits, …, the last four. */
export function accountIdText(position: Pick<PositionView, 'account'>): string {
  return `${position.account.slice(0, 6)}…${position.account.slice(-4)}`;
}

/**
 * What a flatten of one position does, in words, for its confirmation: the closing order main will
 * send (main's close plan: the position floored to the size step, within the book's rules), then
 * what it leaves that no order can close; or, when no order is sent, why.
 */
export function flattenLines(market: Market, position: PositionView, withSigner: boolean): string[] {
  const plan = position.close;
  const where = `${market.base.symbol}/${market.quote.symbol}, ${bookText(position.turbo)} book`;
  const signer = withSigner ? ` · signed by ${accountText(position)}` : '';
  if (plan.refusal !== null || plan.side === null) return [`No order on ${where}: ${plan.refusal ?? 'the position is flat'}${signer}`];
  const lines = [`${closingOrderText(market, position, plan.side, plan.quantity)}${signer}`];
  if (plan.remainderReason !== null) lines.push(`This ${plan.remainderReason}; it stays listed in Positions as a remainder.`);
  return lines;
}

/** The closing order as the confirmation states it: side, size, book and the bounded market order's bound. */
function closingOrderText(market: Market, position: PositionView, side: 'Buy' | 'Sell', quantity: bigint): string {
  const where = `${market.base.symbol}/${market.quote.symbol}, ${bookText(position.turbo)} book`;
  const at = position.mark === null ? 'at market' : `at market, no worse than 1 % ${side === 'Sell' ? 'below the bid' : 'above the ask'} of ${priceText(market, position.mark)} ${market.quote.symbol}`;
  return `${side} ${formatUnits(quantity, market.base.decimals)} ${market.base.symbol} on ${where}, ${at}`;
}

/** A signed position in words: "a long of 0.05 ETH", "flat". */
function positionText(market: Market, size: bigint): string {
  if (size === 0n) return 'flat';
  return `a ${size > 0n ? 'long' : 'short'} of ${formatUnits(size < 0n ? -size : size, market.base.decimals)} ${market.base.symbol}`;
}

/** The plan of closing `percent` of a position (main's; 100 % is the flatten's). */
export function partialPlanOf(position: PositionView, percent: ClosePercent): PartialClosePlan | null {
  if (percent === 100) return { ...position.close, percent, requested: position.size < 0n ? -position.size : position.size, rounding: null, dust: position.close.refusal === null ? position.close.remainderReason : null };
  return position.partials.find((plan) => plan.percent === percent) ?? null;
}

/**
 * What a close of a share of one position does, for its confirmation: the closing order (main's
 * plan), how the share was rounded to the size step, and the position it leaves, said as dust with
 * its cleanup when no order could close it; or, when no order is sent, why.
 */
export function partialCloseLines(market: Market, position: PositionView, plan: PartialClosePlan): string[] {
  if (plan.percent === 100) return flattenLines(market, position, false);
  if (plan.refusal !== null || plan.side === null) return [`No order on ${market.base.symbol}/${market.quote.symbol}, ${bookText(position.turbo)} book: ${plan.refusal ?? 'the position is flat'}`];
  const lines = [closingOrderText(market, position, plan.side, plan.quantity)];
  if (plan.rounding !== null) lines.push(`${plan.rounding}.`);
  lines.push(plan.dust !== null ? `${plan.dust.charAt(0).toUpperCase()}${plan.dust.slice(1)}.` : `Leaves ${positionText(market, plan.remainder)}.`);
  return lines;
}

/** The plan of closing `percent` of a position by limit at the closing side's touch (main's). */
export function limitPlanOf(position: PositionView, percent: ClosePercent): PartialClosePlan | null {
  return position.limitCloses.find((plan) => plan.percent === percent) ?? null;
}

/**
 * What a close by limit of a share of one position does, for its confirmation: a post-only order at
 * the touch of the closing side, that it rests until filled (the position stays until then), that
 * main capped it to the position now (a resting order cannot be held reduce-only afterwards), how
 * the share was rounded, and the dust it would leave; or, when no order is sent, why.
 */
export function limitCloseLines(market: Market, position: PositionView, plan: PartialClosePlan): string[] {
  const where = `${market.base.symbol}/${market.quote.symbol}, ${bookText(position.turbo)} book`;
  if (plan.refusal !== null || plan.side === null || position.limitTouch === null) return [`No order on ${where}: ${plan.refusal ?? 'the position is flat'}`];
  const touch = plan.side === 'Sell' ? 'best ask' : 'best bid';
  const lines = [
    `${plan.side} ${formatUnits(plan.quantity, market.base.decimals)} ${market.base.symbol} on ${where}, post-only at ${priceText(market, position.limitTouch)} ${market.quote.symbol} (the ${touch}, joining it)`,
    'It rests until it fills: the position stays until then, and the order is refused if it would trade at once (the book moved).',
    'Main sizes it to your position now, less the orders already closing it; the venue has no reduce-only flag, so once resting it is not held to the position: cancel it if the position changes.',
  ];
  if (plan.rounding !== null) lines.push(`${plan.rounding}.`);
  if (plan.dust !== null) lines.push(`${plan.dust.charAt(0).toUpperCase()}${plan.dust.slice(1)}.`);
  else if (plan.percent !== 100) lines.push(`Leaves ${positionText(market, plan.remainder)} once filled.`);
  else if (plan.remainderReason !== null) lines.push(`This ${plan.remainderReason}; it stays listed in Positions as a remainder.`);
  return lines;
}

/** What a reverse sends, for its confirmation: the close, the opening order of the same size, and the position it ends with. */
export function reverseLines(market: Market, position: PositionView): string[] {
  const plan = position.reverse;
  if (plan.refusal !== null || plan.side === null) return [`No order on ${market.base.symbol}/${market.quote.symbol}, ${bookText(position.turbo)} book: ${plan.refusal ?? 'the position is flat'}`];
  const held = position.size > 0n ? 'long' : 'short';
  const opened = position.size > 0n ? 'short' : 'long';
  if (position.accountKind === 'turbo-account') {
    // A Turbo Account signs one order per request: its reverse is one order of both sizes together.
    const both = plan.close.quantity + plan.open;
    const turboLines = [
      `${closingOrderText(market, position, plan.side, both)}: ${formatUnits(plan.close.quantity, market.base.decimals)} ${market.base.symbol} closes the ${held}, ${formatUnits(plan.open, market.base.decimals)} ${market.base.symbol} opens a ${opened} of the same size`,
      `One order in one signed request, with the funding the Turbo Account needs for the ${opened} (${opened === 'short' ? `borrowing ${market.base.symbol}` : `drawing ${market.quote.symbol}`}): all of it or nothing; refused whole if the account is frozen or lacks the capacity (then Flatten alone still goes through).`,
      `Ends with ${positionText(market, plan.after)} once it fills in full.`,
    ];
    if (plan.close.remainderReason !== null) turboLines.push(`The close ${plan.close.remainderReason}.`);
    return turboLines;
  }
  const lines = [
    `${closingOrderText(market, position, plan.side, plan.close.quantity)}, to close the ${held}`,
    `then ${plan.side} ${formatUnits(plan.open, market.base.decimals)} ${market.base.symbol} more at the same bound, to open a ${opened} of the same size`,
    `Ends with ${positionText(market, plan.after)} once both fill in full.`,
  ];
  if (plan.close.remainderReason !== null) lines.push(`The close ${plan.close.remainderReason}.`);
  return lines;
}

/** What the trader can do about a remainder no order can close, for its row in Positions. */
export function remainderAdvice(market: Market, position: PositionView): string {
  const base = market.base.symbol;
  if (position.accountKind === 'turbo-account') {
    return `It counts in the Turbo Account's ${base} holdings: Close the session (Margin) says what it needs, and a later trade on this book can take it along.`;
  }
  return `It stays in your ${base} balance: Settle moves it with the book's unlocked funds to the account (Balances), where it can be withdrawn, and a later trade on this book can take it along.`;
}

/** An average price rounded half away from zero to the quote's meaningful decimals (the exact value goes in the title). */
export function entryText(market: Market, raw: bigint): string {
  const digits = shown(market, 'quote');
  const cut = 10n ** BigInt(market.quote.decimals - digits);
  const half = cut / 2n;
  const rounded = cut === 1n ? raw : ((raw + (raw < 0n ? -half : half)) / cut) * cut;
  return formatUnits(rounded, market.quote.decimals, digits, digits);
}

/** A signed size: "+0.0310 ETH" for a long, "-1.5 ETH" for a short. */
export function signedSizeText(market: Market, size: bigint): string {
  const magnitude = sizeText(market, size < 0n ? -size : size);
  return size > 0n ? `+${magnitude}` : size < 0n ? `-${magnitude}` : magnitude;
}
