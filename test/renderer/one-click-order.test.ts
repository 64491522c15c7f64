import { describe, expect, it } from 'vitest';
import { oneClickOrder } from '../../renderer/src/features/ladder/one-click-order';
import type { TicketContext } from '../../renderer/src/features/ticket/ticket-model';
import { ethUsdc } from '../support/renderer/fixtures';

const context: TicketContext = {
  market: ethUsdc,
  turbo: false,
  maxOrderQuantity: null,
  bestBid: 2_999_000_000n,
  bestAsk: 3_001_000_000n,
  availableQuote: 100_000_000_000n,
  availableBase: 10_000_000_000n,
};

describe('the order of a ladder click or a buy/sell hotkey', () => {
  it("trades the ladder's size at the action's price, with the ticket's order type", () => {
    const order = oneClickOrder({ side: 'Buy', price: 3_001_000_000n, sizeText: '0.001', ticketKind: 'PostOnly' }, { ...context, bestAsk: 3_002_000_000n });
    expect(order.evaluation.ok && order.evaluation.request).toEqual({ marketId: ethUsdc.market_id, side: 'Buy', orderType: { kind: 'PostOnly' }, price: 3_001_000_000n, quantity: 1_000_000n });
    expect(order.note).toBeNull();
  });
  it("an empty ladder Size is refused, naming the field, never filled from a default or the ticket", () => {
    const order = oneClickOrder({ side: 'Sell', price: 2_999_000_000n, sizeText: ' ', ticketKind: 'Limit' }, context);
    expect(order.evaluation).toMatchObject({ ok: false, field: 'quantity', code: 'MISSING' });
    expect(!order.evaluation.ok && order.evaluation.message).toMatch(/ladder's Size field/);
  });
  it('a ticket type without a price becomes Limit, and says so; no ticket timestamp is carried', () => {
    const order = oneClickOrder({ side: 'Buy', price: 3_000_000_000n, sizeText: '0.002', ticketKind: 'Market' }, context);
    expect(order.kind).toBe('Limit');
    expect(order.note).toMatch(/Market orders have no price: a Limit order/);
    expect(order.evaluation.ok && order.evaluation.request.orderType).toEqual({ kind: 'Limit' });
  });
  it('refuses a size below the dust threshold before anything is signed', () => {
    const order = oneClickOrder({ side: 'Buy', price: 3_000_000_000n, sizeText: '0.0005', ticketKind: 'Limit' }, context);
    expect(order.evaluation).toMatchObject({ ok: false, code: 'DUST' });
  });
});
