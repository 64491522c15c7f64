// Click-to-place on the chart, as a pure function: the pointer's price snapped onto the price step,
// the side from where that price lies against the market (under the mid a Buy, over it a Sell, so a
// click never crosses the book it was priced against), and then the ladder's one-click order
// (one-click-order.ts: its Size field, its checks) as a Limit at that price. Refused with the reason
// when the window is not armed for the book, the book is not live, or there is no size; what a
// hover shows is the same plan, so the trader reads the order before the click.
// Pure: test/renderer/chart-click-order.test.ts.
import type { Side } from '../../../../shared/market/order-type';
import { priceTick } from '../../../../shared/market/tick';
import { formatPrice } from '../../format/market-format';
import type { TicketContext, TicketReady } from '../ticket/ticket-model';
import { oneClickOrder } from '../ladder/one-click-order';
import { sizeText } from '../positions/positions-model';
import { snapToTick } from './chart-geometry';

export interface ChartClickState {
  /** This window is armed for the chart's market and book (stores/arming-store). */
  readonly armed: boolean;
  /** The book is live; otherwise how it is ("resyncing", "stale", …). */
  readonly bookLive: boolean;
  readonly bookLabel: string;
  /** The market and book as a trader reads them: "ETH/USDC (Canonical book)". */
  readonly bookName: string;
  /** The ladder's Size field of this market and book, as typed. */
  readonly sizeText: string;
  /** The ticket's checks (the book's rules, best bid and ask, funds); null while the book's rules are not loaded. */
  readonly ticket: TicketContext | null;
}

export type ChartClickPlan =
  | {
      readonly ok: true;
      readonly side: Side;
      readonly price: bigint;
      readonly quantity: bigint;
      /** "Buy 0.0100 @ 3,001.50": what the hover line says and the click places. */
      readonly label: string;
      /** The ticket's evaluation of the order: the request main is sent, and its warnings. */
      readonly evaluation: TicketReady;
    }
  | {
      readonly ok: false;
      readonly code: ChartClickRefusal;
      /** The price under the pointer (on the step when the book's rules are known). */
      readonly price: bigint;
      /** Short, for the hover line: "No size: type one in Size". */
      readonly hint: string;
      /** The whole sentence, shown when a click is refused. */
      readonly reason: string;
    };

export type ChartClickRefusal = 'NOT_ARMED' | 'BOOK_NOT_LIVE' | 'NO_SIZE' | 'NO_MARKET' | 'AT_THE_MARKET' | 'RULES_NOT_LOADED' | 'ORDER_INVALID';

/** The side of a limit at `price`: under the mid of the best bid and ask a Buy, over it a Sell, at it none. */
export function sideAgainstMarket(price: bigint, bestBid: bigint | null, bestAsk: bigint | null): Side | null {
  if (bestBid === null && bestAsk === null) return null;
  // Twice the mid, so a mid between two raw units needs no rounding.
  const twiceMid = bestBid !== null && bestAsk !== null ? bestBid + bestAsk : 2n * (bestBid ?? bestAsk!);
  if (2n * price < twiceMid) return 'Buy';
  if (2n * price > twiceMid) return 'Sell';
  return null;
}

export function chartClickPlan(pointerPrice: bigint, state: ChartClickState): ChartClickPlan {
  const ticket = state.ticket;
  // Every answer names the price under the pointer (on the step once the book's rules are known), so
  // a refusal is drawn where the pointer is.
  const price = ticket === null ? pointerPrice : snapToTick(pointerPrice, priceTick(ticket.market));
  const refuse = (code: ChartClickRefusal, hint: string, reason: string): ChartClickPlan => ({ ok: false, code, price, hint, reason });
  if (!state.armed) return refuse('NOT_ARMED', 'Not armed', `Not placed: click-to-place is off until ${state.bookName} is armed (ARM on the chart or the ladder).`);
  if (!state.bookLive) return refuse('BOOK_NOT_LIVE', `Book ${state.bookLabel}: no click placed`, `Not placed: the ${state.bookName} book is ${state.bookLabel}; click again when it is live.`);
  if (state.sizeText.trim() === '') return refuse('NO_SIZE', 'No size: type one in Size', 'Not placed: no size. Type one in the Size field (the ladder’s size of this book): the click places that size.');
  if (ticket === null) return refuse('RULES_NOT_LOADED', 'Book rules loading', `Not placed: the rules of the ${state.bookName} book are not loaded yet.`);
  if (ticket.bestBid === null && ticket.bestAsk === null) return refuse('NO_MARKET', 'No bid or offer', `Not placed: the ${state.bookName} book has no bid or offer to tell a buy from a sell.`);
  const side = sideAgainstMarket(price, ticket.bestBid, ticket.bestAsk);
  if (side === null) return refuse('AT_THE_MARKET', `${formatPrice(ticket.market, price)} is the mid: no side`, `Not placed: ${formatPrice(ticket.market, price)} is the mid of the market; click under it to buy or over it to sell.`);
  const order = oneClickOrder({ side, price, sizeText: state.sizeText, ticketKind: 'Limit' }, ticket);
  if (!order.evaluation.ok) return refuse('ORDER_INVALID', order.evaluation.message, `Not placed: ${order.evaluation.message}`);
  const quantity = order.evaluation.request.quantity;
  return { ok: true, side, price, quantity, label: `${side} ${sizeText(ticket.market, quantity)} @ ${formatPrice(ticket.market, price)}`, evaluation: order.evaluation };
}
