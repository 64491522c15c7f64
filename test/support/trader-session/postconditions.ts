// The trader's actions held to their contracts (docs/actions.md) on the exchange: after a step has
// acted, what rests on the exchange (open orders and pending trigger legs, GET /v1/orders/active)
// and the orders it placed (GET /v1/orders) are compared with what was there before and with what
// the step entered or the app stated. Pure: the steps read the exchange (truth.ts) and pass it in;
// each check returns the broken promises, empty when the contract held.
//
// The market keeps moving between the two reads, so each check says what may race and why:
// - an order may fill (the market maker walks and takes): a filled order is not a broken cancel,
//   and a vanished order counts as cancelled only when the exchange says it was cancelled;
// - a pending leg may fire (its trigger price reached): the order it becomes is new, and the leg
//   leaves the pending list. A new order is excused as a fired leg only when a leg of the same
//   account, book and side was pending before and is not after (the exchange lists no fired legs);
// - nothing else acts for these accounts: the market maker trades as its own account, so a new
//   order, a new leg or a cancellation of ours is the app's doing.
import type { Market } from '../../../shared/market/market';
import type { RestingState, TruthOrder, TruthTrigger } from './truth';

export type Problems = string[];

const short = (id: string) => (id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);
const book = (item: { marketId: string; turbo: boolean }) => `${short(item.marketId)} ${item.turbo ? 'Turbo' : 'canonical'} book`;
const orderText = (order: TruthOrder) => `order ${short(order.orderId)} (${order.side} ${order.kind} ${order.quantity} at ${order.price}, ${order.status}, account ${short(order.account)}, ${book(order)})`;
const legText = (leg: TruthTrigger) =>
  `leg ${short(leg.triggerId)} (${leg.side} ${leg.kind} trigger ${leg.triggerPrice}${leg.quantity === null ? '' : ` quantity ${leg.quantity}`}${leg.parentOrderId === null ? '' : ` of order ${short(leg.parentOrderId)}`}${leg.ocoId === null ? '' : ` paired with ${short(leg.ocoId)}`}, account ${short(leg.account)}, ${book(leg)})`;
const sameBook = (left: { account: string; marketId: string; turbo: boolean }, right: { account: string; marketId: string; turbo: boolean }) =>
  left.account === right.account && left.marketId === right.marketId && left.turbo === right.turbo;

/**
 * Whether a text (what the app says it could not cancel) names an id, in full or as the app
 * shortens it (first 8 and last 4 characters). Ids of one exchange share their first characters,
 * so a prefix alone names nothing.
 */
export const names = (text: string, id: string) => text.includes(id) || text.includes(short(id));

/**
 * Of `orders` new since `before`, those no fired leg explains: each fired leg (pending before, not
 * after, on the same account, book and side) explains at most one new order.
 */
export function notFromFiredLegs(orders: readonly TruthOrder[], before: RestingState, after: RestingState): TruthOrder[] {
  const stillPending = new Set(after.triggers.map((leg) => leg.triggerId));
  const gone = before.triggers.filter((leg) => !stillPending.has(leg.triggerId));
  const unexplained: TruthOrder[] = [];
  for (const order of orders) {
    const index = gone.findIndex((leg) => sameBook(leg, order) && leg.side === order.side);
    if (index >= 0) gone.splice(index, 1);
    else unexplained.push(order);
  }
  return unexplained;
}

/**
 * Kill switch (and, with a market, cancel all in that market): afterwards no open order and no
 * pending leg of any of the accounts remains on any book (of that market), unless `report` (what
 * the app says it could not cancel, not what it says it cancelled) names it. An order opened after `before` by a leg firing is the race above, not a leftover.
 */
export function checkNothingLeft(before: RestingState, after: RestingState, report: string, marketId?: string): Problems {
  const inScope = (item: { marketId: string }) => marketId === undefined || item.marketId === marketId;
  const problems: Problems = [];
  const what = marketId === undefined ? 'the kill switch' : 'cancel all in the market';
  const openBefore = new Set(before.open.map((order) => order.orderId));
  const leftOrders = after.open.filter((order) => inScope(order) && !names(report, order.orderId));
  const fresh = leftOrders.filter((order) => !openBefore.has(order.orderId));
  const unexplained = new Set(notFromFiredLegs(fresh, before, after).map((order) => order.orderId));
  for (const order of leftOrders) if (openBefore.has(order.orderId) || unexplained.has(order.orderId)) problems.push(`${orderText(order)} is still open after ${what}, and the report does not name it`);
  for (const leg of after.triggers) if (inScope(leg) && !names(report, leg.triggerId)) problems.push(`${legText(leg)} is still pending after ${what}, and the report does not name it`);
  return problems;
}

/**
 * Cancel one: the order is not open afterwards (cancelled, or it filled first); when it was
 * cancelled the legs bound to it went with it; no other order was cancelled (one that left the
 * open list filled, as the exchange says).
 */
export function checkCancelOne(orderId: string, before: RestingState, after: RestingState, statuses: ReadonlyMap<string, TruthOrder | null>): Problems {
  const problems: Problems = [];
  const still = after.open.find((order) => order.orderId === orderId);
  if (still) problems.push(`${orderText(still)} is still open after its Cancel was clicked`);
  const target = statuses.get(orderId);
  if (!still && target?.status === 'cancelled') {
    const pending = new Set(after.triggers.map((leg) => leg.triggerId));
    for (const leg of before.triggers) if (leg.parentOrderId === orderId && pending.has(leg.triggerId)) problems.push(`${legText(leg)} is still pending though the order it belongs to was cancelled`);
  }
  problems.push(...othersNotCancelled(before, after, statuses, new Set([orderId]), 'cancel one'));
  return problems;
}

/** Orders open before that left the open list for another reason than a fill (an action that cancels nothing else). */
export function othersNotCancelled(before: RestingState, after: RestingState, statuses: ReadonlyMap<string, TruthOrder | null>, except: ReadonlySet<string>, action: string): Problems {
  const openAfter = new Set(after.open.map((order) => order.orderId));
  const problems: Problems = [];
  for (const order of before.open) {
    if (except.has(order.orderId) || openAfter.has(order.orderId)) continue;
    const now = statuses.get(order.orderId);
    if (now?.status === 'cancelled') problems.push(`${orderText(order)} was cancelled by ${action}, which cancels no other order`);
  }
  return problems;
}

/** The orders open before that are not open after: their statuses are read to tell a fill from a cancel. */
export const vanished = (before: RestingState, after: RestingState): TruthOrder[] => {
  const openAfter = new Set(after.open.map((order) => order.orderId));
  return before.open.filter((order) => !openAfter.has(order.orderId));
};

/** Network or account switch: the exchange's orders and legs are as they were, bar fills and fired legs. */
export function checkUnchanged(before: RestingState, after: RestingState, statuses: ReadonlyMap<string, TruthOrder | null>, action: string): Problems {
  const problems = othersNotCancelled(before, after, statuses, new Set(), action);
  const openBefore = new Set(before.open.map((order) => order.orderId));
  for (const order of notFromFiredLegs(after.open.filter((order) => !openBefore.has(order.orderId)), before, after)) problems.push(`${orderText(order)} was placed by ${action}, which places nothing`);
  const legsBefore = new Set(before.triggers.map((leg) => leg.triggerId));
  for (const leg of after.triggers) if (!legsBefore.has(leg.triggerId)) problems.push(`${legText(leg)} was created by ${action}, which places nothing`);
  return problems;
}

/** What a placing step entered, for the order it must find on the exchange. */
export interface Entered {
  readonly account: string;
  readonly marketId: string;
  readonly turbo: boolean;
  readonly side: 'Buy' | 'Sell';
  /** Checked when given (a limit price; a market order's price is the app's bound). */
  readonly price?: bigint;
  readonly quantity: bigint;
  /** The order kinds that are what the step chose (`Spot`, `Limit`, …; a Turbo book's Market is sent as BoundedMarket). */
  readonly kinds?: readonly string[];
}

/**
 * Place: exactly one new order on the book of the account that signs, of the side, price, size
 * (and kind) entered; or none, and then the refusal is visible (`refusal` is the text the screen
 * shows, empty when it shows none). New orders are those of `after` not in `before` (each the
 * account's newest orders on that book, every status: an order that filled at once counts).
 */
export function checkPlaced(entered: Entered, newOrders: readonly TruthOrder[], refusal: string, explained: (orders: readonly TruthOrder[]) => TruthOrder[] = (orders) => [...orders]): Problems {
  const mine = explained(newOrders.filter((order) => order.account === entered.account && order.marketId === entered.marketId && order.turbo === entered.turbo));
  const wanted = `${entered.side}${entered.kinds ? ` ${entered.kinds.join(' or ')}` : ''} ${entered.quantity}${entered.price === undefined ? '' : ` at ${entered.price}`} (account ${short(entered.account)}, ${book(entered)})`;
  if (mine.length === 0) return refusal.trim() === '' ? [`no order reached the exchange and the screen shows no refusal; the step entered ${wanted}`] : [];
  if (mine.length > 1) return [`${mine.length} orders reached the exchange for one action (${mine.map(orderText).join('; ')}); the step entered ${wanted}`];
  const order = mine[0]!;
  const problems: Problems = [];
  if (order.side !== entered.side) problems.push(`${orderText(order)} has side ${order.side}; the step entered ${wanted}`);
  if (order.quantity !== entered.quantity) problems.push(`${orderText(order)} has quantity ${order.quantity}; the step entered ${wanted}`);
  if (entered.price !== undefined && order.price !== entered.price) problems.push(`${orderText(order)} has price ${order.price}; the step entered ${wanted}`);
  if (entered.kinds !== undefined && !entered.kinds.includes(order.kind)) problems.push(`${orderText(order)} is a ${order.kind}; the step entered ${wanted}`);
  return problems;
}

/** The legs a step entered with an entry (bracket) or on their own (stop, OCO pair). */
export interface EnteredLeg {
  readonly side: 'Buy' | 'Sell';
  readonly triggerPrice: bigint;
  /** Null when sized from the parent. */
  readonly quantity: bigint | null;
}

/**
 * A stop, an OCO pair, or a bracket's legs: exactly the legs entered are new and pending, on the
 * signing account's book (with the side and trigger price entered, the quantity when one was
 * entered, bound to `parentOrderId` when given, an OCO pair naming each other), or none and the
 * refusal is visible. A leg that fired at once is not pending: `firedOrders` (new orders of the
 * same side) excuse that many missing legs.
 */
export function checkLegsPlaced(
  where: { account: string; marketId: string; turbo: boolean },
  entered: readonly EnteredLeg[],
  before: RestingState,
  after: RestingState,
  refusal: string,
  options: { parentOrderId?: string; oco?: boolean; firedOrders?: readonly TruthOrder[] } = {},
): Problems {
  const known = new Set(before.triggers.map((leg) => leg.triggerId));
  const fresh = after.triggers.filter((leg) => !known.has(leg.triggerId) && sameBook(leg, where));
  const fired = [...(options.firedOrders ?? [])];
  const wanted = entered.map((leg) => `${leg.side} trigger ${leg.triggerPrice}${leg.quantity === null ? '' : ` quantity ${leg.quantity}`}`).join(' and ');
  if (fresh.length === 0 && fired.length === 0) return refusal.trim() === '' ? [`no leg reached the exchange and the screen shows no refusal; the step entered ${wanted} (${book(where)})`] : [];
  const problems: Problems = [];
  const left = [...fresh];
  for (const leg of entered) {
    const index = left.findIndex((candidate) => candidate.side === leg.side && candidate.triggerPrice === leg.triggerPrice && (leg.quantity === null || candidate.quantity === leg.quantity));
    if (index >= 0) {
      const found = left.splice(index, 1)[0]!;
      if (options.parentOrderId !== undefined && found.parentOrderId !== options.parentOrderId) problems.push(`${legText(found)} is not bound to its entry ${short(options.parentOrderId)}`);
      continue;
    }
    const firedIndex = fired.findIndex((order) => order.side === leg.side);
    if (firedIndex >= 0) fired.splice(firedIndex, 1);
    else problems.push(`the leg entered (${leg.side} trigger ${leg.triggerPrice}${leg.quantity === null ? '' : ` quantity ${leg.quantity}`}) is not pending on the exchange; new legs there: ${fresh.map(legText).join('; ') || 'none'}`);
  }
  for (const extra of left) problems.push(`${legText(extra)} was created though the step entered only ${wanted}`);
  if (options.oco === true) {
    const pair = fresh.filter((leg) => !left.includes(leg));
    if (pair.length === 2 && (pair[0]!.ocoId !== pair[1]!.triggerId || pair[1]!.ocoId !== pair[0]!.triggerId)) problems.push(`the OCO legs do not name each other: ${pair.map(legText).join('; ')}`);
  }
  return problems;
}

/** An amend or a move: the order as it was, and what the step asked for. */
export interface Amended {
  readonly old: TruthOrder;
  /** The new price when the step knows it (a table amend); a drag checks that the price changed. */
  readonly price?: bigint;
  /** The quantity that must rest afterwards (the old remaining one unless the step changed it). */
  readonly quantity: bigint;
}

/**
 * Amend (table, ladder drag, chart drag): the old order is gone and one order of the same side
 * with the new price and size rests in its place (never both, never neither); the legs bound to the
 * old order are pending afterwards bound to the new one, with the same sides, trigger prices and
 * kinds. Or the amend was refused (`refusal` shown) and the old order is open with its legs. When
 * the old order filled before the amend reached it (its status says so), nothing is owed.
 */
export function checkAmended(amended: Amended, oldNow: TruthOrder | null, newOrders: readonly TruthOrder[], before: RestingState, after: RestingState, refusal: string): Problems {
  const { old } = amended;
  const problems: Problems = [];
  const stillOpen = after.open.some((order) => order.orderId === old.orderId);
  const mine = newOrders.filter((order) => sameBook(order, old));
  const legsBefore = before.triggers.filter((leg) => leg.parentOrderId === old.orderId);
  if (stillOpen) {
    if (mine.length > 0) return [`both the old ${orderText(old)} and the new ${mine.map(orderText).join('; ')} are on the exchange after the amend`];
    if (refusal.trim() === '' && (amended.price === undefined || amended.price !== old.price)) problems.push(`${orderText(old)} is unchanged after the amend and the screen shows no refusal`);
    const pending = new Set(after.triggers.map((leg) => leg.triggerId));
    for (const leg of legsBefore) if (!pending.has(leg.triggerId)) problems.push(`${legText(leg)} went though the amend was refused`);
    return problems;
  }
  if (oldNow?.status === 'filled' && mine.length === 0) return []; // it filled before the amend reached it
  if (mine.length === 0) return [`${orderText(old)} is gone after the amend and no order replaced it (now ${oldNow ? oldNow.status : 'unknown to the exchange'})`];
  if (mine.length > 1) return [`${mine.length} orders replaced ${orderText(old)}: ${mine.map(orderText).join('; ')}`];
  const replacement = mine[0]!;
  if (replacement.side !== old.side) problems.push(`${orderText(replacement)} replaced a ${old.side} order`);
  if (amended.price !== undefined && replacement.price !== amended.price) problems.push(`${orderText(replacement)} has price ${replacement.price}; the amend asked for ${amended.price}`);
  if (amended.price === undefined && replacement.price === old.price) problems.push(`${orderText(replacement)} has the old price ${old.price} after a move`);
  if (replacement.quantity !== amended.quantity) problems.push(`${orderText(replacement)} has quantity ${replacement.quantity}; ${amended.quantity} was to rest`);
  // The legs carried: each of the old order's legs has a pending twin bound to the new order (or
  // the new order filled and a twin fired: its leg is no longer pending, which the exchange does
  // not list, so a filled replacement excuses a missing twin).
  const twins = after.triggers.filter((leg) => leg.parentOrderId === replacement.orderId);
  for (const leg of legsBefore) {
    const twin = twins.find((candidate) => candidate.side === leg.side && candidate.triggerPrice === leg.triggerPrice && candidate.kind === leg.kind);
    if (twin) continue;
    if (replacement.status === 'filled' || replacement.filled > 0n) continue;
    problems.push(`${legText(leg)} was not carried to the new ${orderText(replacement)}: its legs now are ${twins.map(legText).join('; ') || 'none'}`);
  }
  return problems;
}

/** The first "Sell|Buy <quantity> <symbol>" of a flatten dialog line, as raw units. */
export function statedClose(lines: readonly string[], market: Market): { side: 'Buy' | 'Sell'; quantity: bigint } | null {
  for (const line of lines) {
    const match = new RegExp(`\\b(Sell|Buy) ([0-9][0-9,]*(?:\\.[0-9]+)?) ${market.base.symbol}\\b`).exec(line);
    if (!match) continue;
    const [whole, fraction = ''] = match[2]!.replaceAll(',', '').split('.') as [string, string?];
    if (fraction.length > market.base.decimals) return null;
    return { side: match[1] as 'Buy' | 'Sell', quantity: BigInt(whole) * 10n ** BigInt(market.base.decimals) + BigInt(fraction.padEnd(market.base.decimals, '0') || '0') };
  }
  return null;
}

/** A raw base quantity as plain digits (no grouping, no trailing zeros): how a remainder can be named. */
export const plainUnits = (raw: bigint, decimals: number): string => {
  const scale = 10n ** BigInt(decimals);
  const fraction = (raw % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${raw / scale}${fraction === '' ? '' : `.${fraction}`}`;
};

/**
 * The bound a flatten dialog gives as why a size is left: "not worth a whole number of USDT units
 * at 2964.467 USDT", as raw quote units; null when it names none.
 */
export function wholeQuoteBound(dialog: readonly string[], market: Market): bigint | null {
  const symbol = market.quote.symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`not worth a whole number of ${symbol} units at ([0-9][0-9,]*(?:\\.[0-9]+)?) ${symbol}`).exec(dialog.join(' '));
  if (!match) return null;
  const [whole, fraction = ''] = match[1]!.replaceAll(',', '').split('.') as [string, string?];
  if (fraction.length > market.quote.decimals) return null;
  return BigInt(whole) * 10n ** BigInt(market.quote.decimals) + BigInt(fraction.padEnd(market.quote.decimals, '0') || '0');
}

/** The largest multiple of `step` up to `size` worth a whole number of quote units at `price` (spec: quantity × price divides by 10^base decimals). */
export function largestWhole(size: bigint, step: bigint, price: bigint, baseDecimals: number): bigint {
  const scale = 10n ** BigInt(baseDecimals);
  for (let quantity = size; quantity > 0n; quantity -= step) if ((quantity * price) % scale === 0n) return quantity;
  return 0n;
}

/**
 * Flatten one position: the dialog states a close of the position floored to the size step (never
 * more than is held, never less than an order can close), and a remainder below the step is stated
 * in the dialog; exactly one closing order of that side and size reaches the exchange on the
 * position's account and book, or none and the refusal is visible.
 */
export function checkFlatten(market: Market, position: { account: string; turbo: boolean; size: bigint }, dialog: readonly string[], newOrders: readonly TruthOrder[], refusal: string): Problems {
  const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
  const held = position.size < 0n ? -position.size : position.size;
  const closable = (held / step) * step;
  const remainder = held - closable;
  const side = position.size > 0n ? 'Sell' : 'Buy';
  const stated = statedClose(dialog, market);
  const problems: Problems = [];
  if (stated === null) problems.push(`the flatten dialog states no "${side} <size> ${market.base.symbol}": ${JSON.stringify(dialog)}`);
  else {
    if (stated.side !== side) problems.push(`the flatten dialog says ${stated.side} for a position of ${position.size}`);
    const bound = wholeQuoteBound(dialog, market);
    // The close plan (docs/actions.md, Flatten): the step floor, lowered to a size worth a whole
    // number of quote units at the close's bound when the dialog names that bound as the reason.
    const planned = bound === null ? closable : largestWhole(closable, step, bound, market.base.decimals);
    if (stated.quantity !== closable && stated.quantity !== planned) problems.push(`the flatten dialog says ${stated.side} ${plainUnits(stated.quantity, market.base.decimals)} ${market.base.symbol}; the position on the exchange is ${plainUnits(held, market.base.decimals)}, which an order closes ${plainUnits(closable, market.base.decimals)} of (the size step is ${plainUnits(step, market.base.decimals)}); the dialog: ${JSON.stringify(dialog.join(' '))}`);
  }
  const statedRemainder = stated === null ? remainder : held - stated.quantity;
  if (statedRemainder > 0n && statedRemainder !== remainder) {
    if (!dialog.some((line) => line.includes(plainUnits(statedRemainder, market.base.decimals)))) problems.push(`the flatten dialog does not state the remainder ${plainUnits(statedRemainder, market.base.decimals)} ${market.base.symbol} it leaves: ${JSON.stringify(dialog)}`);
  } else if (remainder > 0n && !dialog.some((line) => line.includes(plainUnits(remainder, market.base.decimals)) || /remain|dust|cannot be closed|stays open|left open/i.test(line))) {
    problems.push(`the flatten dialog does not state the remainder ${plainUnits(remainder, market.base.decimals)} ${market.base.symbol} that no order can close: ${JSON.stringify(dialog)}`);
  }
  problems.push(...checkPlaced({ account: position.account, marketId: market.market_id, turbo: position.turbo, side, quantity: stated?.quantity ?? closable }, newOrders, refusal));
  return problems;
}

/**
 * Close a share of one position: the dialog states a close of at most that share of the position
 * on the exchange floored to the size step (lowered only when it names the whole quote value as the
 * reason), states the unrounded share when it rounds, and exactly one closing order of that side and
 * size reaches the exchange on the position's account and book, or none and the refusal is visible.
 */
export function checkPartialClose(market: Market, position: { account: string; turbo: boolean; size: bigint }, percent: number, dialog: readonly string[], newOrders: readonly TruthOrder[], refusal: string): Problems {
  const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
  const held = position.size < 0n ? -position.size : position.size;
  const requested = (held * BigInt(percent)) / 100n;
  const floored = (requested / step) * step;
  const side = position.size > 0n ? 'Sell' : 'Buy';
  const stated = statedClose(dialog, market);
  const problems: Problems = [];
  if (stated === null) return refusal.trim() === '' ? [`the close ${percent} % dialog states no "${side} <size> ${market.base.symbol}" and the screen shows no refusal: ${JSON.stringify(dialog)}`] : [];
  const wholeQuote = dialog.some((line) => /whole number of/.test(line));
  if (stated.side !== side) problems.push(`the close ${percent} % dialog says ${stated.side} for a position of ${position.size}`);
  else if (stated.quantity !== floored && !(wholeQuote && stated.quantity < floored && stated.quantity % step === 0n)) {
    problems.push(`the close ${percent} % dialog says ${stated.side} ${plainUnits(stated.quantity, market.base.decimals)} ${market.base.symbol}; ${percent} % of the position on the exchange (${plainUnits(held, market.base.decimals)}) is ${plainUnits(requested, market.base.decimals)}, which an order closes ${plainUnits(floored, market.base.decimals)} of (the size step is ${plainUnits(step, market.base.decimals)})`);
    return problems;
  }
  if (stated.quantity !== requested && !dialog.some((line) => line.includes(plainUnits(requested, market.base.decimals)))) {
    problems.push(`the close ${percent} % dialog does not state that ${percent} % is ${plainUnits(requested, market.base.decimals)} ${market.base.symbol}, which it rounded to ${plainUnits(stated.quantity, market.base.decimals)}: ${JSON.stringify(dialog)}`);
  }
  problems.push(...checkPlaced({ account: position.account, marketId: market.market_id, turbo: position.turbo, side, quantity: stated.quantity }, newOrders, refusal));
  return problems;
}

/**
 * Reverse one position: the dialog states the flatten's close (the position floored to the step,
 * or lowered to a whole quote value it names), and two orders of that side and size reach the
 * exchange on the position's account and book (one batch: both or neither), or none and the
 * refusal is visible.
 */
export function checkReverse(market: Market, position: { account: string; turbo: boolean; size: bigint }, dialog: readonly string[], newOrders: readonly TruthOrder[], refusal: string): Problems {
  const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
  const held = position.size < 0n ? -position.size : position.size;
  const closable = (held / step) * step;
  const side = position.size > 0n ? 'Sell' : 'Buy';
  const mine = newOrders.filter((order) => order.account === position.account && order.marketId === market.market_id && order.turbo === position.turbo);
  if (mine.length === 0) return refusal.trim() === '' ? [`no order reached the exchange for a reverse of ${position.size} and the screen shows no refusal`] : [];
  const stated = statedClose(dialog, market);
  if (stated === null) return [`the reverse dialog states no "${side} <size> ${market.base.symbol}": ${JSON.stringify(dialog)}`];
  const problems: Problems = [];
  const bound = wholeQuoteBound(dialog, market);
  const planned = bound === null ? closable : largestWhole(closable, step, bound, market.base.decimals);
  if (stated.side !== side) problems.push(`the reverse dialog says ${stated.side} for a position of ${position.size}`);
  // A Turbo Account's reverse is one order of both sizes (docs/actions.md, Reverse): the dialog states that order.
  if (dialog.some((line) => /^One order in one signed request/.test(line.trim()))) {
    if (stated.quantity !== 2n * closable && stated.quantity !== 2n * planned) problems.push(`the Turbo reverse dialog says ${stated.side} ${plainUnits(stated.quantity, market.base.decimals)} ${market.base.symbol}; twice what an order closes of the position on the exchange (${plainUnits(held, market.base.decimals)}) is ${plainUnits(2n * closable, market.base.decimals)}`);
    if (mine.length !== 1) return [...problems, `${mine.length} orders reached the exchange for a Turbo Account's reverse (${mine.map(orderText).join('; ')}); it is one order of both sizes`];
    if (mine[0]!.side !== side || mine[0]!.quantity !== stated.quantity) problems.push(`${orderText(mine[0]!)} is not the stated ${side} ${stated.quantity} of the reverse`);
    return problems;
  }
  if (stated.quantity !== closable && stated.quantity !== planned) problems.push(`the reverse dialog says ${stated.side} ${plainUnits(stated.quantity, market.base.decimals)} ${market.base.symbol}; the position on the exchange is ${plainUnits(held, market.base.decimals)}, which an order closes ${plainUnits(closable, market.base.decimals)} of`);
  if (mine.length !== 2) return [...problems, `${mine.length} order${mine.length === 1 ? '' : 's'} reached the exchange for a reverse (${mine.map(orderText).join('; ')}); it is the close and the opening order, in one batch`];
  for (const order of mine) {
    if (order.side !== side || order.quantity !== stated.quantity) problems.push(`${orderText(order)} is not the stated ${side} ${stated.quantity} of the reverse`);
  }
  return problems;
}

/**
 * Cancel a leg: it is no longer pending (cancelled, or it fired first); it alone goes: the other leg
 * of its OCO pair (a bracket's take-profit when its stop-loss is cancelled, and the reverse) stays
 * pending on its own, as the exchange's CancelTriggerOrder leaves it, and no order is cancelled with
 * it (its parent stays).
 */
export function checkLegCancelled(triggerId: string, before: RestingState, after: RestingState, statuses: ReadonlyMap<string, TruthOrder | null>): Problems {
  const problems: Problems = [];
  const leg = before.triggers.find((candidate) => candidate.triggerId === triggerId);
  const pending = new Map(after.triggers.map((candidate) => [candidate.triggerId, candidate]));
  const still = pending.get(triggerId);
  if (still) problems.push(`${legText(still)} is still pending after its Cancel was clicked`);
  const sibling = leg?.ocoId ? before.triggers.find((candidate) => candidate.triggerId === leg.ocoId) : undefined;
  if (!still && sibling && !pending.has(sibling.triggerId)) problems.push(`${legText(sibling)} went with the other leg of its pair, though only that one was cancelled`);
  problems.push(...othersNotCancelled(before, after, statuses, new Set(), 'cancelling a leg'));
  return problems;
}

/**
 * Move a leg: the old leg is gone and one leg of the same account, book, side, kind and size (or
 * parent) is pending at the new trigger price, in one batch (an OCO sibling re-created with it at
 * its own price); or the move was refused on screen and the leg is as it was; or the leg fired
 * first (gone, and an order of its side is new).
 */
export function checkLegMoved(triggerId: string, triggerPrice: bigint, before: RestingState, after: RestingState, refusal: string, newOrders: readonly TruthOrder[]): Problems {
  const leg = before.triggers.find((candidate) => candidate.triggerId === triggerId);
  if (leg === undefined) return [];
  const known = new Set(before.triggers.map((candidate) => candidate.triggerId));
  const fresh = after.triggers.filter((candidate) => !known.has(candidate.triggerId) && sameBook(candidate, leg));
  const stillPending = after.triggers.some((candidate) => candidate.triggerId === triggerId);
  if (stillPending) {
    if (fresh.length > 0) return [`both the old ${legText(leg)} and new legs (${fresh.map(legText).join('; ')}) are pending after the move`];
    return refusal.trim() === '' ? [`${legText(leg)} is unchanged after the move and the screen shows no refusal`] : [];
  }
  const moved = fresh.filter((candidate) => candidate.side === leg.side && candidate.kind === leg.kind && candidate.quantity === leg.quantity && candidate.parentOrderId === leg.parentOrderId && candidate.triggerPrice === triggerPrice);
  if (moved.length === 1) {
    const sibling = leg.ocoId === null ? undefined : before.triggers.find((candidate) => candidate.triggerId === leg.ocoId);
    if (sibling && !after.triggers.some((candidate) => candidate.triggerId === sibling.triggerId || (candidate.side === sibling.side && candidate.triggerPrice === sibling.triggerPrice && candidate.ocoId === moved[0]!.triggerId))) {
      return [`the other leg of the pair, ${legText(sibling)}, was not re-created with the moved leg ${legText(moved[0]!)}`];
    }
    return [];
  }
  if (moved.length === 0 && fresh.length === 0 && newOrders.some((order) => order.side === leg.side && sameBook(order, leg))) return []; // it fired first
  return [`${legText(leg)} is gone after the move; new legs: ${fresh.map(legText).join('; ') || 'none'} (one at trigger ${triggerPrice} was wanted)`];
}
