// Every trading intent of the window goes through here: the optional confirmation, the request,
// and a notice with main's answer (including what main adjusted before signing), so the ticket,
// the ladder, the hotkeys and the kill switch all behave the same way.
import type { RequestInput, TerminalApi } from '../../../../shared/ipc/contract';
import type { CancelReport, FlattenReport, OrderView, PlacedOrder, PlacedTriggers, PositionView, TriggerView } from '../../../../shared/ipc/views';
import type { Market } from '../../../../shared/market/market';
import { isWholeQuoteValue, lowerQuantityToWholeQuote } from '../../../../shared/market/amounts';
import { ORDER_KIND_TABLE } from '../../../../shared/market/order-kinds';
import { truncateQuantity } from '../../../../shared/market/tick';
import type { Result } from '../../../../shared/result';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { formatUnits } from '../../format/units';
import type { TerminalStore } from '../../stores/terminal-store';
import { accountText, bookText, flattenLines, limitCloseLines, limitPlanOf, partialCloseLines, partialPlanOf, reverseLines } from '../positions/positions-model';
import type { ClosePercent } from '../../../../shared/positions/close-plan';
import { ORDER_KIND_LABELS } from '../ticket/ticket-model';
import { marketName } from '../markets/market-label';
import { marketContext, notifyFailure, orderContext } from '../notices/failure-notice';

export type PlaceOrderRequest = RequestInput<'placeOrder'>;
export type PlaceBracketRequest = RequestInput<'placeBracketOrder'>;

export type Confirm = (title: string, lines: readonly string[]) => Promise<boolean>;

export interface TradingActions {
  /** `notes`: what the trader was warned of where the order was made (the confirmation repeats them). */
  place(market: Market, request: PlaceOrderRequest, origin: string, notes?: readonly string[]): Promise<Result<PlacedOrder> | null>;
  /** An entry with its take-profit and/or stop-loss in one signed request; null when not confirmed. */
  placeBracket(market: Market, request: PlaceBracketRequest, origin: string): Promise<Result<PlacedTriggers> | null>;
  cancel(market: Market, orderId: string, turbo: boolean): Promise<Result<CancelReport>>;
  cancelAll(market: Market | null): Promise<Result<CancelReport>>;
  move(market: Market, orderId: string, price: bigint, turbo: boolean): Promise<Result<PlacedOrder>>;
  /**
   * Amend a resting order (new price and/or new quantity to rest) as cancel and create in one signed
   * batch; confirmed when confirmations are on, naming the book and the account that signs; null
   * when not confirmed. The notice names the new order id.
   */
  amend(market: Market, order: OrderView, change: { readonly price?: bigint; readonly quantity?: bigint }, signer: string): Promise<Result<PlacedOrder> | null>;
  /**
   * Move a pending take-profit / stop-loss leg to a new trigger price: main cancels it (with its OCO
   * partner) and creates it again in one signed batch. Confirmed when confirmations are on, naming
   * the book and the account that signs; null when not confirmed. The notice names the new leg's id.
   */
  moveLeg(market: Market, leg: TriggerView, triggerPrice: bigint, signer: string): Promise<Result<PlacedTriggers> | null>;
  /**
   * Close positions with bounded market orders, always confirmed (naming each book and the account
   * that signs); null when not confirmed. Main recomputes the sizes from the fills.
   */
  flatten(positions: readonly { readonly market: Market; readonly position: PositionView }[]): Promise<Result<FlattenReport> | null>;
  /**
   * Close a share of one position (main's plan of it, rounded to the size step), always confirmed,
   * the confirmation stating the rounding and any dust left with its cleanup; null when not sent.
   */
  closePart(market: Market, position: PositionView, percent: ClosePercent): Promise<Result<FlattenReport> | null>;
  /** Close one position and open the opposite of the same size in one signed batch, always confirmed; null when not sent. */
  reverse(market: Market, position: PositionView): Promise<Result<FlattenReport> | null>;
  /** Close a share of one position by limit: a post-only order at the closing side's touch (main's plan), after a confirmation. */
  closeByLimit(market: Market, position: PositionView, percent: ClosePercent): Promise<Result<FlattenReport> | null>;
  /**
   * Ask a trading confirmation in the window's dialog, queued behind any open one (margin actions
   * use it; their lines name the book and the signer as the order confirmations do).
   */
  ask(title: string, lines: readonly string[]): Promise<boolean>;
  /** The newest order this window placed that may still be open, for "cancel last". */
  lastOrder(): { readonly market: Market; readonly orderId: string; readonly turbo: boolean } | null;
}

export function describeOrder(market: Market, request: PlaceOrderRequest): string {
  const kind = ORDER_KIND_LABELS[request.orderType.kind];
  const type = request.orderType;
  const quote = market.quote.symbol;
  // A bounded order: the side's worst price is the trader's limit, the other bound the floor or
  // ceiling the exchange requires; both are signed, so both are stated.
  const priced =
    type.kind === 'Market'
      ? 'at market'
      : type.kind === 'BoundedMarket'
        ? request.side === 'Buy'
          ? `at market, paying at most ${formatPrice(market, type.maxPrice)} ${quote} (takes no offer below ${formatPrice(market, type.minPrice)})`
          : `at market, receiving at least ${formatPrice(market, type.minPrice)} ${quote} (takes no bid above ${formatPrice(market, type.maxPrice)})`
        : `at ${formatPrice(market, request.price)} ${quote}`;
  return `${request.side} ${formatQuantity(market, request.quantity)} ${market.base.symbol} ${priced} (${kind})`;
}

/**
 * The quantity main signs for a requested one (prepareOrder): floored to the quantity tick, then
 * lowered to a whole quote value at the price. Equal to the request for every order the ticket, the
 * ladder and the hotkeys build (they refuse other sizes before asking).
 */
export function signedQuantity(market: Market, price: bigint, quantity: bigint): bigint {
  const floored = truncateQuantity(market, quantity).value;
  return floored > 0n && !isWholeQuoteValue(market, price, floored) ? lowerQuantityToWholeQuote(market, price, floored) : floored;
}

/**
 * What an order that executes at once did: "filled 0.0079 of 0.1 ETH at an
 * average 3,000.50 USDC; the remaining 0.0921 ETH was cancelled: nothing more was offered at
 * 3,000.50 USDC or better". Null for an order that rests (its fills follow as they come).
 */
export function describeOutcome(market: Market, request: PlaceOrderRequest, order: OrderView): string | null {
  const kind = request.orderType.kind;
  if (!ORDER_KIND_TABLE[kind].executesAtOnce && order.status !== 'cancelled') return null;
  const base = market.base.symbol;
  const average = order.averagePrice > 0n ? ` at an average ${formatPrice(market, order.averagePrice)} ${market.quote.symbol}` : '';
  if (order.filled >= order.quantity) return `filled all ${formatQuantity(market, order.quantity)} ${base}${average}`;
  // The price the exchange held the order to: the bounds asked for, else the order's own price
  // (main may have changed the order before signing: on a Turbo book a Market order goes out
  // bounded at a worst price, which is the order's price, not the estimate the ticket sent).
  const worst =
    kind === 'BoundedMarket' && request.orderType.kind === 'BoundedMarket'
      ? request.side === 'Buy'
        ? request.orderType.maxPrice
        : request.orderType.minPrice
      : order.price > 0n
        ? order.price
        : request.price;
  const limit = `${formatPrice(market, worst)} ${market.quote.symbol} or ${request.side === 'Buy' ? 'lower' : 'higher'}`;
  const rest = formatQuantity(market, order.quantity - order.filled);
  if (order.filled === 0n) return `nothing filled: no ${request.side === 'Buy' ? 'offer' : 'bid'} at ${limit}; the order (${rest} ${base}) was cancelled`;
  if (order.status === 'open' || order.status === 'partially-filled') return `filled ${formatQuantity(market, order.filled)} of ${formatQuantity(market, order.quantity)} ${base}${average}; ${rest} ${base} rests on the book`;
  return `filled ${formatQuantity(market, order.filled)} of ${formatQuantity(market, order.quantity)} ${base}${average}; the remaining ${rest} ${base} was cancelled: nothing more was offered at ${limit}`;
}

/** What main adjusted before signing, as one sentence list (each adjustment's own full stop dropped). */
export function adjustmentsText(adjustments: readonly string[]): string {
  return adjustments.map((line) => line.replace(/\.+$/, '')).join('; ');
}

/** "take-profit 3,100.00 and stop-loss 2,900.00 USDC": the legs of a bracket, in words. */
export function describeLegs(market: Market, request: Pick<PlaceBracketRequest, 'takeProfit' | 'stopLoss'>): string {
  const legs: string[] = [];
  if (request.takeProfit) legs.push(`take-profit ${formatPrice(market, request.takeProfit.triggerPrice)}`);
  if (request.stopLoss) legs.push(`stop-loss ${formatPrice(market, request.stopLoss.triggerPrice)}`);
  return `${legs.join(' and ')} ${market.quote.symbol}`;
}

/** "Cancelled 3 of 3 orders and 2 of 2 trigger legs in 1 signed batch", then each that was not and why. */
export function describeCancelReport(report: CancelReport): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const counts: string[] = [];
  if (report.requested > 0 || report.triggersRequested === 0) counts.push(`${report.cancelled.length} of ${plural(report.requested, 'order')}`);
  if (report.triggersRequested > 0) counts.push(`${report.triggersCancelled.length} of ${plural(report.triggersRequested, 'trigger leg')}`);
  const parts = [`Cancelled ${counts.join(' and ')}`];
  if (report.batches > 0) parts.push(`in ${report.batches} signed batch${report.batches === 1 ? '' : 'es'}`);
  const failures = [...report.failed, ...report.triggersFailed];
  if (failures.length > 0) parts.push(`; ${failures.length} not cancelled: ${failures.map((failure) => `${failure.description ?? failure.orderId} (${failure.reason})`).join('; ')}`);
  if (report.unread.length > 0) parts.push(`; ${plural(report.unread.length, 'book')} could not be read: ${report.unread.map((book) => book.reason).join('; ')}`);
  return parts.join(' ');
}

/** "take-profit 3,100.00 and stop-loss 2,900.00 USDC": legs by role and trigger price, take-profit first. */
function legsInWords(market: Market, legs: readonly { readonly role: 'take-profit' | 'stop-loss'; readonly triggerPrice: bigint }[]): string {
  const ordered = [...legs].sort((left, right) => (left.role === right.role ? 0 : left.role === 'take-profit' ? -1 : 1));
  return `${ordered.map((leg) => `${leg.role} ${formatPrice(market, leg.triggerPrice)}`).join(' and ')} ${market.quote.symbol}`;
}

/**
 * What an amend does with the order's take-profit / stop-loss legs (main carries them to the new
 * order in the same signed batch, and keeps what the order filled protected): a line for the
 * confirmation. `legs`: the pending legs bound to the order, null when they could not be read.
 */
export function amendLegsLines(market: Market, order: OrderView, legs: readonly TriggerView[] | null): string[] {
  if (legs === null) return ['Any take-profit / stop-loss attached to it is carried to the new order in the same signed batch, or the amend is refused before signing.'];
  if (legs.length === 0) return [];
  const words = legsInWords(market, legs);
  const filled = order.filled > 0n ? `, and the ${formatQuantity(market, order.filled)} ${market.base.symbol} already filled keeps ${legs.length === 1 ? 'it' : 'them'} (sized to what filled)` : '';
  return [`${words.charAt(0).toUpperCase()}${words.slice(1)} ${legs.length === 1 ? 'stays' : 'stay'} attached: carried to the new order in the same signed batch${filled}.`];
}

/** The notice's words for the legs an amend carried. */
function carriedText(market: Market, placed: PlacedOrder): string {
  const carried = placed.carriedLegs ?? [];
  if (carried.length === 0) return '';
  const filled = placed.protectedFilled !== undefined && placed.protectedFilled > 0n ? `; the ${formatQuantity(market, placed.protectedFilled)} ${market.base.symbol} already filled stays protected by the same ${carried.length === 1 ? 'leg' : 'legs'}` : '';
  return ` Its ${legsInWords(market, carried)} carried to the new order in the same signed batch${filled}.`;
}

export interface TradingHooks {
  /** The kill switch (cancel all in every market) was used: one-action trading is disarmed. */
  readonly onKillSwitch?: () => void;
  /**
   * The account that signs an order on this book, in words ("Trading account 0x12ab…cdef",
   * "Turbo Account 0x…"): the trading account, or on a Turbo book the selected Turbo Account.
   */
  readonly signer?: (turbo: boolean) => string;
}

/** "Canonical book · signed by Trading account 0x12ab…cdef": the line every trading confirmation carries. */
export function bookAndSignerLine(turbo: boolean, signer: string): string {
  return `${bookText(turbo)} book · signed by ${signer}`;
}

/** The signer of a book, from the trading account's id and the Turbo Account selected for Turbo books. */
export function signerText(turbo: boolean, tradeAccountId: string | null | undefined, tradingAs: string | null | undefined): string {
  if (turbo && tradingAs) return accountText({ account: tradingAs, accountKind: 'turbo-account' });
  if (!tradeAccountId) return 'the trading account (not created yet)';
  return accountText({ account: tradeAccountId, accountKind: 'trading' });
}

export function createTradingActions(api: TerminalApi, store: TerminalStore, ask: Confirm, hooks: TradingHooks = {}): TradingActions {
  // One question at a time: a second confirmation (a drag of a row holding two orders) waits for the
  // first instead of replacing it (the dialog answers a replaced question "no").
  let asking: Promise<unknown> = Promise.resolve();
  const confirm: Confirm = (title, lines) => {
    const answer = asking.then(() => ask(title, lines));
    asking = answer.catch(() => undefined);
    return answer;
  };
  const nameOf = (market: Market) => marketName(market, store.state.markets?.markets ?? []);
  const placed: { market: Market; orderId: string; turbo: boolean }[] = [];
  const signer = (turbo: boolean) => hooks.signer?.(turbo) ?? signerText(turbo, store.state.account?.tradeAccount?.tradeAccountId, null);
  const where = (market: Market, turbo: boolean, origin: string) => `Market ${nameOf(market)} · ${bookAndSignerLine(turbo, signer(turbo))} · from ${origin}`;
  // What a partial close or a reverse placed, or why not: the order ids and the position it leaves.
  const reportClose = (what: string, market: Market, result: Result<FlattenReport>) => {
    if (!result.ok) {
      notifyFailure(store, `${what} refused`, result);
      return;
    }
    const placedNow = result.value.placed[0];
    if (!placedNow) {
      store.notify('warning', `${what} not sent: ${result.value.failed.map((failure) => failure.reason).join('; ')}`);
      return;
    }
    const ids = placedNow.orderIds.map((id) => `${id.slice(0, 8)}…${id.slice(-4)}`).join(', ');
    const left = placedNow.remainder === 0n ? 'flat' : `${formatUnits(placedNow.remainder < 0n ? -placedNow.remainder : placedNow.remainder, market.base.decimals)} ${market.base.symbol} ${placedNow.remainder > 0n ? 'long' : 'short'}`;
    store.notify('info', `${what} of ${nameOf(market)} ${bookText(placedNow.turbo)}: placed in one signed batch (${ids}); leaves ${left} once filled.`);
  };

  return {
    async place(market, request, origin, notes = []) {
      const text = describeOrder(market, request);
      if (store.state.settings?.confirmOrders) {
        const signed = signedQuantity(market, request.price, request.quantity);
        const resized = signed === request.quantity ? [] : [`Main signs ${formatQuantity(market, signed)} ${market.base.symbol}, not ${formatQuantity(market, request.quantity)}: the size is lowered to the market's step and to a whole number of ${market.quote.symbol} units at the price.`];
        const accepted = await confirm('Confirm order', [text, ...resized, where(market, request.turbo === true, origin), ...notes]);
        if (!accepted) return null;
      }
      const result = await api.placeOrder(request);
      if (result.ok) {
        for (const order of result.value.orders) placed.push({ market, orderId: order.orderId, turbo: request.turbo === true });
        if (placed.length > 50) placed.splice(0, placed.length - 50);
        const adjusted = result.value.adjustments.length > 0 ? ` Adjusted: ${adjustmentsText(result.value.adjustments)}.` : '';
        const order = result.value.orders[0];
        const outcome = order === undefined ? null : describeOutcome(market, request, order);
        store.notify(outcome !== null && order !== undefined && order.filled < order.quantity ? 'warning' : 'info', `Placed: ${text}.${outcome === null ? '' : ` Result: ${outcome}.`}${adjusted}`);
      } else {
        notifyFailure(store, 'Order refused', result, orderContext(market, nameOf(market), request, store.state.balances));
      }
      return result;
    },
    async placeBracket(market, request, origin) {
      const text = `${describeOrder(market, request)} with ${describeLegs(market, request)}`;
      if (store.state.settings?.confirmOrders) {
        const accepted = await confirm('Confirm order with bracket', [text, where(market, request.turbo === true, origin)]);
        if (!accepted) return null;
      }
      const result = await api.placeBracketOrder(request);
      if (result.ok) {
        const order = result.value.order;
        if (order) placed.push({ market, orderId: order.orderId, turbo: request.turbo === true });
        const adjusted = result.value.adjustments.length > 0 ? ` Adjusted: ${adjustmentsText(result.value.adjustments)}.` : '';
        store.notify('info', `Placed: ${text}.${adjusted}`);
      } else {
        notifyFailure(store, 'Order with bracket refused', result, orderContext(market, nameOf(market), request, store.state.balances));
      }
      return result;
    },
    async cancel(market, orderId, turbo) {
      const result = await api.cancelOrder({ marketId: market.market_id, orderId, ...(turbo ? { turbo } : {}) });
      if (result.ok) store.notify('info', `${describeCancelReport(result.value)}${result.value.triggersCancelled.length > 0 ? ': the take-profit / stop-loss bound to the order went with it' : ''}`);
      else notifyFailure(store, 'Cancel refused', result, marketContext(market, nameOf(market)));
      return result;
    },
    async cancelAll(market) {
      // Disarmed first: nothing sent by a click or a hotkey may follow the kill switch unarmed.
      if (market === null) hooks.onKillSwitch?.();
      const result = await api.cancelAllOrders(market ? { marketId: market.market_id } : {});
      const scope = market ? nameOf(market) : 'every market';
      // Main reports a cancel-all as a notice of its own; this window adds only what went wrong.
      if (!result.ok) notifyFailure(store, `Cancel all in ${scope} refused`, result, market ? marketContext(market, nameOf(market)) : {});
      else if (result.value.failed.length + result.value.triggersFailed.length + result.value.unread.length > 0) store.notify('warning', `${scope}: ${describeCancelReport(result.value)}`);
      return result;
    },
    async move(market, orderId, price, turbo) {
      // A move is a cancel and a new order in one signed batch: confirmed as orders are.
      if (store.state.settings?.confirmOrders) {
        const order = store.state.openOrders.find((open) => open.orderId === orderId);
        const what = order ? `${order.side} ${formatQuantity(market, order.quantity - order.filled)} ${market.base.symbol}: ${formatPrice(market, order.price)} → ${formatPrice(market, price)} ${market.quote.symbol}` : `Order ${orderId.slice(0, 8)}…${orderId.slice(-4)} → ${formatPrice(market, price)} ${market.quote.symbol}`;
        const legs = order ? await api.getTriggers({}) : null;
        const attached = legs?.ok ? legs.value.pending.filter((leg) => leg.parentOrderId === orderId) : null;
        const accepted = await confirm('Move order', [what, where(market, turbo, 'a ladder drag'), 'Cancel and replacement go in one signed batch: if the order fills first, nothing changes.', ...(order ? amendLegsLines(market, order, attached) : [])]);
        if (!accepted) return { ok: false, code: 'NOT_CONFIRMED', message: 'The move was not confirmed.' };
      }
      const result = await api.moveOrder({ marketId: market.market_id, orderId, price, ...(turbo ? { turbo } : {}) });
      if (result.ok) {
        for (const order of result.value.orders) placed.push({ market, orderId: order.orderId, turbo });
        const adjusted = result.value.adjustments.length > 0 ? ` Adjusted: ${adjustmentsText(result.value.adjustments)}.` : '';
        store.notify('info', `Moved order to ${formatPrice(market, price)} ${market.quote.symbol}.${carriedText(market, result.value)}${adjusted}`);
      } else {
        notifyFailure(store, 'Move refused', result, marketContext(market, nameOf(market)));
      }
      return result;
    },
    async flatten(positions) {
      if (positions.length === 0) return null;
      // Only what main's plan can close is asked for; the rest is said, and nothing is sent for it.
      const closing = positions.filter(({ position }) => position.close.refusal === null && position.close.quantity > 0n);
      const refused = positions.filter((entry) => !closing.includes(entry));
      if (closing.length === 0) {
        store.notify('warning', `Flatten not sent: ${refused.map(({ market, position }) => flattenLines(market, position, false).join(' ')).join('; ')}`);
        return null;
      }
      const accounts = [...new Set(closing.map(({ position }) => accountText(position)))];
      const lines = positions.flatMap(({ market, position }) => flattenLines(market, position, accounts.length > 1));
      const books = [...new Set(closing.map(({ position }) => bookText(position.turbo)))];
      const title = closing.length === 1 ? `Flatten ${nameOf(closing[0]!.market)} (${books[0]} book)` : `Flatten ${closing.length} positions`;
      const footer = `Signed by ${accounts.join(' and ')}; ${closing.length === 1 ? 'one signed batch' : 'as few signed batches as the 5-action cap allows'}.`;
      if (!(await confirm(title, [...lines, footer]))) return null;
      const result = await api.flattenPositions({
        positions: closing.map(({ position }) => ({ marketId: position.marketId, turbo: position.turbo, account: position.account, quantity: position.close.quantity })),
      });
      if (!result.ok) {
        notifyFailure(store, 'Flatten refused', result);
        return result;
      }
      const report = result.value;
      const ids = report.placed.flatMap((placed) => placed.orderIds.map((id) => `${id.slice(0, 8)}…${id.slice(-4)}`));
      const placedText = `Flatten: ${report.placed.length} of ${report.requested} closing order${report.requested === 1 ? '' : 's'} placed in ${report.batches} signed batch${report.batches === 1 ? '' : 'es'}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}`;
      const left = report.placed.flatMap((placed) => {
        const entry = closing.find(({ position }) => position.marketId === placed.marketId && position.turbo === placed.turbo && position.account === placed.account);
        if (!entry || placed.remainder === 0n) return [];
        const magnitude = placed.remainder < 0n ? -placed.remainder : placed.remainder;
        return [`${formatUnits(magnitude, entry.market.base.decimals)} ${entry.market.base.symbol} ${placed.remainder > 0n ? 'long' : 'short'} remains on ${nameOf(entry.market)} ${bookText(placed.turbo)} (listed as a remainder in Positions)`];
      });
      const remainderText = left.length > 0 ? `. ${left.join('; ')}` : '';
      store.notify(report.failed.length === 0 ? 'info' : 'warning', report.failed.length === 0 ? `${placedText}${remainderText}` : `${placedText}${remainderText}; ${report.failed.map((failure) => failure.reason).join('; ')}`);
      return result;
    },
    async closePart(market, position, percent) {
      const plan = partialPlanOf(position, percent);
      if (plan === null || plan.refusal !== null || plan.quantity === 0n) {
        store.notify('warning', `Close ${percent} % not sent: ${plan?.refusal ?? 'the position has no plan for this share'}`);
        return null;
      }
      const title = `Close ${percent} % of ${nameOf(market)} (${bookText(position.turbo)} book)`;
      if (!(await confirm(title, [...partialCloseLines(market, position, plan), `Signed by ${accountText(position)}; one signed batch.`]))) return null;
      const result = await api.flattenPositions({ positions: [{ marketId: position.marketId, turbo: position.turbo, account: position.account, quantity: plan.quantity, percent }] });
      reportClose(`Close ${percent} %`, market, result);
      return result;
    },
    async closeByLimit(market, shown, percent) {
      // The touch the order joins is read now, not taken from the view on screen (read at the last
      // fill): a dialog naming a best price the book has left would be refused once confirmed.
      const read = await api.getPositions({});
      const position = (read.ok ? read.value.positions.find((one) => one.account === shown.account && one.marketId === shown.marketId && one.turbo === shown.turbo) : undefined) ?? shown;
      const plan = limitPlanOf(position, percent);
      if (plan === null || plan.refusal !== null || plan.quantity === 0n || position.limitTouch === null) {
        store.notify('warning', `Close ${percent} % by limit not sent: ${plan?.refusal ?? 'the position has no plan for this share'}`);
        return null;
      }
      const title = `Close ${percent} % by limit of ${nameOf(market)} (${bookText(position.turbo)} book)`;
      if (!(await confirm(title, [...limitCloseLines(market, position, plan), `Signed by ${accountText(position)}; one signed batch.`]))) return null;
      const result = await api.flattenPositions({ positions: [{ marketId: position.marketId, turbo: position.turbo, account: position.account, quantity: plan.quantity, percent, style: 'limit', price: position.limitTouch }] });
      reportClose(`Close ${percent} % by limit`, market, result);
      return result;
    },
    async reverse(market, position) {
      const plan = position.reverse;
      if (plan.refusal !== null || plan.open === 0n) {
        store.notify('warning', `Reverse not sent: ${plan.refusal ?? 'the position is flat'}`);
        return null;
      }
      const title = `Reverse ${nameOf(market)} (${bookText(position.turbo)} book)`;
      const batch = position.accountKind === 'turbo-account' ? 'one signed request, all or nothing.' : 'one signed batch, both orders or neither.';
      if (!(await confirm(title, [...reverseLines(market, position), `Signed by ${accountText(position)}; ${batch}`]))) return null;
      const result = await api.reversePosition({ position: { marketId: position.marketId, turbo: position.turbo, account: position.account, quantity: plan.close.quantity } });
      reportClose('Reverse', market, result);
      return result;
    },
    async amend(market, order, change, signer) {
      const remaining = order.quantity - order.filled;
      const price = change.price ?? order.price;
      const quantity = change.quantity ?? remaining;
      const kind = ORDER_KIND_LABELS[order.orderType];
      const from = `${order.side} ${formatQuantity(market, remaining)} ${market.base.symbol} at ${formatPrice(market, order.price)}`;
      const to = `${formatQuantity(market, quantity)} ${market.base.symbol} at ${formatPrice(market, price)} ${market.quote.symbol}`;
      if (store.state.settings?.confirmOrders) {
        const legs = await api.getTriggers({});
        const attached = legs.ok ? legs.value.pending.filter((leg) => leg.parentOrderId === order.orderId) : null;
        const accepted = await confirm('Amend order', [
          `${from} → ${to} (${kind})`,
          `Market ${nameOf(market)} · ${bookText(order.turbo)} book · signed by ${signer}`,
          'Cancel and replacement go in one signed batch: if the order fills first, nothing changes.',
          ...amendLegsLines(market, order, attached),
        ]);
        if (!accepted) return null;
      }
      const result = await api.amendOrder({ marketId: market.market_id, orderId: order.orderId, ...(order.turbo ? { turbo: true } : {}), ...(change.price === undefined ? {} : { price: change.price }), ...(change.quantity === undefined ? {} : { quantity: change.quantity }) });
      if (result.ok) {
        for (const placedOrder of result.value.orders) placed.push({ market, orderId: placedOrder.orderId, turbo: order.turbo });
        const newId = result.value.orders[0]?.orderId;
        const adjusted = result.value.adjustments.length > 0 ? ` Adjusted: ${adjustmentsText(result.value.adjustments)}.` : '';
        store.notify('info', `Amended: ${from} → ${to}; new order ${newId ? `${newId.slice(0, 8)}…${newId.slice(-4)}` : '(filled at once)'} replaces ${order.orderId.slice(0, 8)}…${order.orderId.slice(-4)}.${carriedText(market, result.value)}${adjusted}`);
      } else {
        notifyFailure(store, 'Amend refused', result, orderContext(market, nameOf(market), { side: order.side, price, quantity, turbo: order.turbo }, store.state.balances));
      }
      return result;
    },
    async moveLeg(market, leg, triggerPrice, signer) {
      const role = leg.parentOrderId === null && leg.ocoId === null ? 'stop' : leg.role;
      const size = leg.quantity === null ? '' : ` ${formatQuantity(market, leg.quantity)} ${market.base.symbol}`;
      const text = `${role} (${leg.side}${size}) from ${formatPrice(market, leg.triggerPrice)} to ${formatPrice(market, triggerPrice)} ${market.quote.symbol}`;
      if (store.state.settings?.confirmOrders) {
        const accepted = await confirm(`Move ${role}`, [
          `Move the ${text}`,
          `Market ${nameOf(market)} · ${bookText(leg.turbo)} book · signed by ${signer}`,
          `Cancel and re-create go in one signed batch${leg.ocoId === null ? '' : ' (with the other leg of its pair)'}: if it fires first, nothing changes.`,
        ]);
        if (!accepted) return null;
      }
      const result = await api.moveTrigger({ marketId: market.market_id, ...(leg.turbo ? { turbo: true } : {}), triggerId: leg.triggerId, triggerPrice });
      if (result.ok) {
        const moved = result.value.triggers.find((candidate) => candidate.role === leg.role && candidate.triggerPrice === triggerPrice) ?? result.value.triggers[0];
        store.notify('info', `Moved the ${text}; new leg ${moved ? `${moved.triggerId.slice(0, 8)}…${moved.triggerId.slice(-4)}` : '(none reported)'} replaces ${leg.triggerId.slice(0, 8)}…${leg.triggerId.slice(-4)}.`);
      } else {
        notifyFailure(store, `Move of the ${role} refused`, result, marketContext(market, nameOf(market)));
      }
      return result;
    },
    ask: (title, lines) => confirm(title, lines),
    lastOrder() {
      const open = new Set(store.state.openOrders.map((order) => order.orderId));
      for (let index = placed.length - 1; index >= 0; index--) {
        const entry = placed[index]!;
        if (open.has(entry.orderId)) return entry;
      }
      return null;
    },
  };
}
