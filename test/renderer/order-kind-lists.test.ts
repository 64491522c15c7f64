// The renderer's lists of order kinds are records over the kinds of shared/market/order-kinds.ts,
// or derived from its table: a kind added there fails the typecheck (tsconfig.web.json includes
// test/renderer) until the ticket has its help text, and here until every list has it.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ORDER_KINDS, type OrderKind } from '../../shared/market/order-kinds';
import { ORDER_KIND_HELP, ORDER_KIND_LABELS, ORDER_KINDS as TICKET_KINDS, REDUCE_ONLY_KINDS } from '../../renderer/src/features/ticket/ticket-model';

describe('the renderer lists of order kinds', () => {
  it('are records over every kind', () => {
    expectTypeOf(ORDER_KIND_LABELS).toEqualTypeOf<Record<OrderKind, string>>();
    expectTypeOf(ORDER_KIND_HELP).toEqualTypeOf<Record<OrderKind, string>>();
    expectTypeOf(TICKET_KINDS).toEqualTypeOf<[OrderKind, ...OrderKind[]]>();
    expectTypeOf(REDUCE_ONLY_KINDS).toEqualTypeOf<readonly OrderKind[]>();
    for (const record of [ORDER_KIND_LABELS, ORDER_KIND_HELP]) expect(Object.keys(record).sort()).toEqual([...ORDER_KINDS].sort());
    for (const kind of ORDER_KINDS) {
      expect(ORDER_KIND_LABELS[kind]).not.toBe('');
      expect(ORDER_KIND_HELP[kind]).not.toBe('');
    }
  });

  it('offer every kind in the ticket, and reduce-only only for the kinds that never rest', () => {
    expect(TICKET_KINDS).toEqual(['Limit', 'Spot', 'PostOnly', 'FillOrKill', 'Market', 'BoundedMarket']);
    expect([...REDUCE_ONLY_KINDS].sort()).toEqual(['BoundedMarket', 'FillOrKill', 'Market']);
  });
});
