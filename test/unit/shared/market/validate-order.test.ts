import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forwardedAmount, isWholeQuoteValue, quoteValue } from '../../../../shared/market/amounts';
import { checkOrder, validateOrder } from '../../../../shared/market/validate-order';
import type { OrderIntent } from '../../../../shared/market/order-type';
import { ethUsdc } from '../../../support/shared/market/fixtures';
import { checkProperty } from '../../../support/property';

const order = (overrides: Partial<OrderIntent> = {}): OrderIntent => ({
  side: 'Buy',
  price: 2_000_000_000_000n, // 2000 USDC
  quantity: 500_000_000n, // 0.5 ETH
  order_type: { kind: 'Spot' },
  ...overrides,
});

describe('validateOrder', () => {
  it('accepts a valid order and reports what it forwards', () => {
    expect(validateOrder(ethUsdc, order())).toEqual({
      ok: true,
      value: { forwarded: { asset: ethUsdc.quote.asset, amount: 1_000_000_000_000n }, quote_value: 1_000_000_000_000n },
    });
  });

  it.each([
    ['ZERO_QUANTITY', order({ quantity: 0n }), 'Quantity must be above zero.'],
    ['ZERO_PRICE', order({ price: 0n }), 'Price must be above zero.'],
    ['PRICE_PRECISION', order({ price: 2_000_001_000_000n }), 'Price 2000.001 USDC is finer than the market allows: prices move in steps of 0.01 USDC (2 decimals).'],
    ['QUANTITY_PRECISION', order({ quantity: 500_000_001n }), 'Quantity 0.500000001 ETH is finer than the market allows: quantities move in steps of 0.001 ETH (3 decimals).'],
    ['MIN_ORDER', order({ price: 1_000_000_000n, quantity: 999_000_000n }), 'Order value 0.999 USDC is below the market minimum of 1 USDC.'],
  ])('refuses with %s', (code, input, message) => {
    const result = validateOrder(ethUsdc, input);
    expect(result).toMatchObject({ ok: false, code });
    if (!result.ok) expect(result.message).toBe(message);
  });

  it('refuses dust', () => {
    const result = validateOrder({ ...ethUsdc, dust: 10_000_000n }, order({ price: 1_000_000_000_000n, quantity: 2_000_000n }));
    expect(result).toMatchObject({ ok: false, code: 'DUST' });
  });

  it('refuses a fractional price and suggests the nearest valid quantity', () => {
    const market = { ...ethUsdc, base: { ...ethUsdc.base, max_precision: 9 }, min_order: 0n, dust: 0n };
    const result = validateOrder(market, order({ price: 1_230_000_000n, quantity: 250n }));
    expect(result).toMatchObject({ ok: false, code: 'FRACTIONAL_PRICE', details: { suggested_quantity: '200' } });
  });

  it('checks BoundedMarket bounds', () => {
    const inverted = validateOrder(ethUsdc, order({ order_type: { kind: 'BoundedMarket', max_price: 1_000_000_000_000n, min_price: 2_000_000_000_000n } }));
    expect(inverted).toMatchObject({ ok: false, code: 'BOUNDS' });
    const offTick = validateOrder(ethUsdc, order({ order_type: { kind: 'BoundedMarket', max_price: 2_000_000_000_001n, min_price: 1n } }));
    expect(offTick).toMatchObject({ ok: false, code: 'PRICE_PRECISION' });
    const equal = validateOrder(ethUsdc, order({ order_type: { kind: 'BoundedMarket', max_price: 2_000_000_000_000n, min_price: 2_000_000_000_000n } }));
    expect(equal.ok).toBe(true);
  });

  it('checks the limit price is on the tick', () => {
    expect(validateOrder(ethUsdc, order({ order_type: { kind: 'Limit', price: 5n, timestamp: 1n } }))).toMatchObject({ ok: false, code: 'PRICE_PRECISION' });
  });

  it('refuses an unbounded market order from a margin account', () => {
    expect(validateOrder(ethUsdc, order({ order_type: { kind: 'Market' } }), { marginAccount: true })).toMatchObject({ ok: false, code: 'UNBOUNDED_MARKET_ORDER' });
    expect(validateOrder(ethUsdc, order({ order_type: { kind: 'Market' } })).ok).toBe(true);
  });

  it('refuses on a paused or disconnected Turbo market', () => {
    expect(validateOrder({ ...ethUsdc, turbo: true, paused: true, connected: true }, order())).toMatchObject({ ok: false, code: 'MARKET_PAUSED' });
    expect(validateOrder({ ...ethUsdc, turbo: true, paused: false, connected: false }, order())).toMatchObject({ ok: false, code: 'MARKET_DISCONNECTED' });
  });

  it('a sell forwards its quantity of base', () => {
    expect(validateOrder(ethUsdc, order({ side: 'Sell' }))).toMatchObject({ ok: true, value: { forwarded: { asset: ethUsdc.base.asset, amount: 500_000_000n } } });
  });

  it('takes the fractional-price rule, the order value and the amount forwarded from one product, as the amount helpers compute them', () => {
    const intent = fc.record({
      side: fc.constantFrom('Buy' as const, 'Sell' as const),
      price: fc.bigInt({ min: 1n, max: 10n ** 15n }).map((ticks) => ticks * 10_000n),
      quantity: fc.bigInt({ min: 1n, max: 10n ** 9n }).map((lots) => lots * 1_000_000n),
    });
    checkProperty(
      fc.property(intent, ({ side, price, quantity }) => {
        const result = validateOrder(ethUsdc, order({ side, price, quantity }));
        // Price and quantity are on their ticks: the fractional-price rule is the first that can refuse.
        expect(!result.ok && result.code === 'FRACTIONAL_PRICE').toBe(!isWholeQuoteValue(ethUsdc, price, quantity));
        const value = quoteValue(ethUsdc, price, quantity);
        if (!result.ok && result.code === 'MIN_ORDER') expect(value < ethUsdc.min_order).toBe(true);
        if (result.ok) expect(result.value).toEqual({ forwarded: forwardedAmount(ethUsdc, side, price, quantity), quote_value: value });
      }),
      { numRuns: 500 },
    );
  });

  it('checkOrder (the form the sandbox ledger runs) refuses exactly as validateOrder does, and passes with its quote value', () => {
    const orderType = fc.oneof(
      fc.constant({ kind: 'Spot' as const }),
      fc.constant({ kind: 'Market' as const }),
      fc.record({ kind: fc.constant('Limit' as const), price: fc.bigInt({ min: 0n, max: 10n ** 13n }), timestamp: fc.constant(0n) }),
      fc.record({ kind: fc.constant('BoundedMarket' as const), max_price: fc.bigInt({ min: 0n, max: 10n ** 13n }), min_price: fc.bigInt({ min: 0n, max: 10n ** 13n }) }),
    );
    const intent = fc.record({
      side: fc.constantFrom('Buy' as const, 'Sell' as const),
      // On and off the ticks, zero, and past u64.
      price: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 13n }), fc.bigInt({ min: 0n, max: 10n ** 9n }).map((ticks) => ticks * 10_000n), fc.constant(2n ** 64n)),
      quantity: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 6n }).map((lots) => lots * 1_000_000n)),
      order_type: orderType,
    });
    checkProperty(
      fc.property(intent, fc.boolean(), (input, marginAccount) => {
        const validated = validateOrder(ethUsdc, input, { marginAccount });
        const checked = checkOrder(ethUsdc, input.side, input.price, input.quantity, input.order_type, { marginAccount });
        if (validated.ok) expect(checked).toBe(validated.value.quote_value);
        else expect(checked).toEqual(validated);
      }),
      { numRuns: 1000 },
    );
  });
});
