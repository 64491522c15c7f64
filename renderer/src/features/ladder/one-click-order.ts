// The order of a ladder click or a buy/sell-at-best hotkey, as a pure function: the side and the
// price of the action, the ticket's order type (a type without a price becomes Limit, said in a
// note), and the ladder's own size, the one its Size field shows. Nothing else is read from the
// ticket: not its quantity, its bounds or its timestamp (a one-click Limit is stamped now).
import { ORDER_KIND_TABLE } from '../../../../shared/market/order-kinds';
import type { OrderTypeKind, Side } from '../../../../shared/market/order-type';
import { editablePrice } from '../../format/market-format';
import { evaluateTicket, type TicketContext, type TicketEvaluation } from '../ticket/ticket-model';

export interface OneClickIntent {
  readonly side: Side;
  readonly price: bigint;
  /** The ladder's Size field, as typed. */
  readonly sizeText: string;
  /** The ticket's order type for this market. */
  readonly ticketKind: OrderTypeKind;
}

export interface OneClickOrder {
  readonly evaluation: TicketEvaluation;
  /** The type sent: the ticket's, or Limit where the ticket's takes no price. */
  readonly kind: OrderTypeKind;
  /** Said to the trader when the type sent is not the ticket's. */
  readonly note: string | null;
}

export function oneClickOrder(intent: OneClickIntent, context: TicketContext): OneClickOrder {
  const kind: OrderTypeKind = ORDER_KIND_TABLE[intent.ticketKind].takesPrice ? intent.ticketKind : 'Limit';
  const note = kind === intent.ticketKind ? null : `${ORDER_KIND_TABLE[intent.ticketKind].label} orders have no price: a Limit order is placed at the price instead`;
  if (intent.sizeText.trim() === '') {
    return { kind, note, evaluation: { ok: false, field: 'quantity', code: 'MISSING', message: "Enter a size in the ladder's Size field (it is empty): clicks and the buy/sell hotkeys trade that size." } };
  }
  const evaluation = evaluateTicket(
    { side: intent.side, kind, priceText: editablePrice(context.market, intent.price), quantityText: intent.sizeText, maxPriceText: '', minPriceText: '', timestampText: '' },
    context,
  );
  return { kind, note, evaluation };
}
