import { describe, expect, it } from 'vitest';
import { boundedMarketHelp, boundedMarketPrefill, evaluateTicket, quantityForPercent, sendState, ticketSigner, type TicketContext, type TicketFields } from '../../renderer/src/features/ticket/ticket-model';
import { ethUsdc, ethUsdt } from '../support/renderer/fixtures';

const fields = (overrides: Partial<TicketFields> = {}): TicketFields => ({
  side: 'Buy',
  kind: 'Limit',
  priceText: '3000.25',
  quantityText: '0.5',
  maxPriceText: '',
  minPriceText: '',
  timestampText: '',
  ...overrides,
});

const context = (overrides: Partial<TicketContext> = {}): TicketContext => ({
  market: ethUsdc,
  turbo: false,
  maxOrderQuantity: null,
  bestBid: 2_999_000_000n,
  bestAsk: 3_001_000_000n,
  availableQuote: 10_000_000_000n,
  availableBase: 2_000_000_000n,
  ...overrides,
});

describe('order ticket', () => {
  it('builds the exact request with the worst-case taker fee and the amount locked', () => {
    const result = evaluateTicket(fields(), context());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.request).toEqual({ marketId: ethUsdc.market_id, side: 'Buy', orderType: { kind: 'Limit' }, price: 3_000_250_000n, quantity: 500_000_000n });
    // 3000.25 * 0.5 = 1500.125 USDC; taker 250 ppm -> 0.37503125, rounded up to 0.375032.
    expect(result.quoteValue).toBe(1_500_125_000n);
    expect(result.takerFee).toBe(375_032n);
    expect(result.locked).toEqual({ asset: ethUsdc.quote.asset, amount: 1_500_125_000n });
  });
  it('a sell locks base quantity', () => {
    const result = evaluateTicket(fields({ side: 'Sell', kind: 'PostOnly' }), context());
    expect(result.ok && result.locked).toEqual({ asset: ethUsdc.base.asset, amount: 500_000_000n });
    expect(result.ok && result.request.orderType).toEqual({ kind: 'PostOnly' });
  });
  it('says why a price is finer than the tick, naming the step', () => {
    const result = evaluateTicket(fields({ priceText: '3000.255' }), context());
    expect(result).toMatchObject({ ok: false, field: 'price', code: 'PRICE_PRECISION' });
    expect(!result.ok && result.message).toContain('steps of 0.01 USDC');
  });
  it('refuses text that is not a plain decimal, or has more decimals than the asset', () => {
    expect(evaluateTicket(fields({ quantityText: '1e3' }), context())).toMatchObject({ ok: false, field: 'quantity', code: 'INVALID_AMOUNT' });
    expect(evaluateTicket(fields({ priceText: '1.0000001' }), context())).toMatchObject({ ok: false, field: 'price', code: 'TOO_MANY_DECIMALS' });
    expect(evaluateTicket(fields({ quantityText: '' }), context())).toMatchObject({ ok: false, field: 'quantity', code: 'MISSING' });
  });
  it('an empty Quantity is empty: "Enter a quantity", naming the field, never a default size', () => {
    for (const quantityText of ['', '   ']) {
      const result = evaluateTicket(fields({ quantityText }), context());
      expect(result).toMatchObject({ ok: false, field: 'quantity', code: 'MISSING' });
      expect(!result.ok && result.message).toBe('Enter a quantity: the Quantity field is empty.');
    }
  });
  it('refuses a quantity finer than the quantity tick, below dust or below the minimum order', () => {
    expect(evaluateTicket(fields({ quantityText: '0.00005' }), context())).toMatchObject({ ok: false, code: 'QUANTITY_PRECISION' });
    expect(evaluateTicket(fields({ priceText: '1', quantityText: '0.0001' }), context())).toMatchObject({ ok: false, code: 'DUST' });
    expect(evaluateTicket(fields({ priceText: '1', quantityText: '0.5' }), context())).toMatchObject({ ok: false, code: 'MIN_ORDER' });
  });
  it('refuses a fractional quote value and names the nearest valid quantity', () => {
    // ETH/USDT: price tick 0.001, quantity tick 0.0001 -> 0.001 * 0.0001 is not a whole raw USDT unit.
    const result = evaluateTicket(fields({ priceText: '3000.001', quantityText: '0.0101' }), context({ market: ethUsdt }));
    expect(result).toMatchObject({ ok: false, code: 'FRACTIONAL_PRICE', field: 'quantity' });
  });
  it('refuses above the maximum order size from settings before sending', () => {
    const result = evaluateTicket(fields({ quantityText: '2' }), context({ maxOrderQuantity: 1_000_000_000n }));
    expect(result).toMatchObject({ ok: false, code: 'MAX_ORDER_SIZE' });
    expect(!result.ok && result.message).toContain('maximum order size of 1 ETH');
  });
  it('a Limit order carries its timestamp when one is given', () => {
    const result = evaluateTicket(fields({ timestampText: '1700000000' }), context());
    expect(result.ok && result.request.orderType).toEqual({ kind: 'Limit', timestamp: 1_700_000_000n });
    expect(evaluateTicket(fields({ timestampText: 'soon' }), context())).toMatchObject({ ok: false, field: 'timestamp' });
  });
  it('a market order prices its estimate at the best opposite price, and refuses an empty side', () => {
    const result = evaluateTicket(fields({ kind: 'Market', priceText: '' }), context());
    expect(result).toMatchObject({ ok: true, price: 3_001_000_000n, priceIsEstimate: true });
    // Said exactly before signing: it takes only what is offered at that price.
    expect(result.ok && result.warnings.join(' ')).toMatch(/fills only what is offered at 3,001(\.00)? USDC or better .*not filled at once is cancelled/);
    expect(result.ok && result.warnings.join(' ')).not.toMatch(/whatever the book offers/);
    expect(evaluateTicket(fields({ kind: 'Market' }), context({ bestAsk: null }))).toMatchObject({ ok: false, code: 'NO_LIQUIDITY' });
  });
  it('a bounded market buy locks at its maximum and checks the bounds', () => {
    const result = evaluateTicket(fields({ kind: 'BoundedMarket', maxPriceText: '3010', minPriceText: '2990' }), context());
    expect(result.ok && result.request.orderType).toEqual({ kind: 'BoundedMarket', maxPrice: 3_010_000_000n, minPrice: 2_990_000_000n });
    expect(result.ok && result.locked.amount).toBe(1_505_000_000n);
    expect(evaluateTicket(fields({ kind: 'BoundedMarket', maxPriceText: '2980', minPriceText: '2990' }), context())).toMatchObject({ ok: false, code: 'BOUNDS' });
    expect(evaluateTicket(fields({ kind: 'BoundedMarket', maxPriceText: '' }), context())).toMatchObject({ ok: false, field: 'maxPrice' });
  });
  it('an empty bound of a bounded market order is named, never taken as zero', () => {
    const result = evaluateTicket(fields({ kind: 'BoundedMarket', maxPriceText: '3010', minPriceText: '' }), context());
    expect(result).toMatchObject({ ok: false, field: 'minPrice', code: 'MISSING' });
    expect(!result.ok && result.message).toMatch(/^Min price is empty: the exchange requires a floor/);
    const sell = evaluateTicket(fields({ side: 'Sell', kind: 'BoundedMarket', maxPriceText: '', minPriceText: '2990' }), context());
    expect(!sell.ok && sell.message).toMatch(/^Max price is empty: the exchange requires a ceiling/);
  });
  it('says what each bound means for the side, and prefills them from the live inside', () => {
    expect(boundedMarketHelp('Buy').max).toMatch(/most this buy pays/);
    expect(boundedMarketHelp('Buy').min).toMatch(/exchange requires/);
    expect(boundedMarketHelp('Sell').min).toMatch(/least this sell accepts/);
    expect(boundedMarketHelp('Sell').max).toMatch(/exchange requires/);
    // A buy pays at most the best offer and leaves every offer above the best bid; a sell mirrors it.
    expect(boundedMarketPrefill(2_999_000_000n, 3_001_000_000n)).toEqual({ maxPrice: 3_001_000_000n, minPrice: 2_999_000_000n });
    expect(boundedMarketPrefill(null, 3_001_000_000n)).toBeNull();
    // The prefilled bounds make an order the ticket sends as it is.
    const buy = evaluateTicket(fields({ kind: 'BoundedMarket', maxPriceText: '3001', minPriceText: '2999' }), context());
    expect(buy.ok && buy.request.orderType).toEqual({ kind: 'BoundedMarket', maxPrice: 3_001_000_000n, minPrice: 2_999_000_000n });
  });
  it('refuses before signing an order that needs more than is unlocked, naming both amounts', () => {
    const result = evaluateTicket(fields({ quantityText: '5' }), context({ availableQuote: 1_000_000n }));
    expect(result).toMatchObject({ ok: false, field: 'quantity', code: 'INSUFFICIENT_BALANCE' });
    expect(!result.ok && result.message).toMatch(/^Not enough USDC: this order locks 15,001\.25 USDC but only 1 USDC is unlocked/);
    const sell = evaluateTicket(fields({ side: 'Sell', quantityText: '3' }), context({ availableBase: 2_000_000_000n }));
    expect(sell).toMatchObject({ ok: false, code: 'INSUFFICIENT_BALANCE' });
    expect(evaluateTicket(fields({ quantityText: '0.5' }), context()).ok).toBe(true);
  });
  it('refuses before signing a post-only order that would cross the book it has', () => {
    const buy = evaluateTicket(fields({ kind: 'PostOnly', priceText: '3001' }), context());
    expect(buy).toMatchObject({ ok: false, field: 'price', code: 'POST_ONLY_WOULD_CROSS' });
    expect(!buy.ok && buy.message).toMatch(/best offer 3,001(\.00)? USDC/);
    const sell = evaluateTicket(fields({ kind: 'PostOnly', side: 'Sell', priceText: '2998', quantityText: '0.5' }), context());
    expect(sell).toMatchObject({ ok: false, code: 'POST_ONLY_WOULD_CROSS' });
    expect(evaluateTicket(fields({ kind: 'PostOnly', priceText: '3000.5' }), context()).ok).toBe(true);
    // Without a book, it is left to the exchange.
    expect(evaluateTicket(fields({ kind: 'PostOnly', priceText: '3001' }), context({ bestAsk: null })).ok).toBe(true);
  });
  it('adds the turbo flag only for a Turbo book', () => {
    const result = evaluateTicket(fields(), context({ turbo: true }));
    expect(result.ok && result.request.turbo).toBe(true);
  });
});

describe('percent of available, in bigint', () => {
  it('buys spend that share of quote at the price, floored to the tick', () => {
    // 25% of 10,000 USDC = 2,500 USDC at 3,000.25 -> 0.83326... ETH -> 0.8332 ETH.
    expect(quantityForPercent(ethUsdc, 'Buy', 25, 3_000_250_000n, 10_000_000_000n)).toBe(833_200_000n);
  });
  it('sells sell that share of base', () => {
    expect(quantityForPercent(ethUsdc, 'Sell', 50, null, 1_234_567_891n)).toBe(617_200_000n);
    expect(quantityForPercent(ethUsdc, 'Sell', 100, null, 1_234_567_891n)).toBe(1_234_500_000n);
  });
  it('never exceeds what is available and stays valid at odd prices', () => {
    for (const percent of [1, 10, 33, 50, 99, 100]) {
      const quantity = quantityForPercent(ethUsdt, 'Buy', percent, 3_000_001_000n, 7_777_777_777n);
      expect((quantity * 3_000_001_000n) / 10n ** 9n).toBeLessThanOrEqual((7_777_777_777n * BigInt(percent)) / 100n);
      expect((quantity * 3_000_001_000n) % 10n ** 9n).toBe(0n);
    }
  });
  it('is zero without a price, a balance or a percent', () => {
    expect(quantityForPercent(ethUsdc, 'Buy', 50, null, 10n)).toBe(0n);
    expect(quantityForPercent(ethUsdc, 'Buy', 0, 1n, 10n)).toBe(0n);
    expect(quantityForPercent(ethUsdc, 'Sell', 50, null, 0n)).toBe(0n);
  });
});

describe('whose funds the ticket shows as Available', () => {
  const child = `0x${'c1'.repeat(32)}`;
  it('the trading account on a canonical book, even while Turbo books are traded as a Turbo Account', () => {
    expect(ticketSigner(false, child)).toEqual({ kind: 'trading-account' });
    expect(ticketSigner(false, null)).toEqual({ kind: 'trading-account' });
  });
  it('on a Turbo book the selected Turbo Account, else the trading account', () => {
    expect(ticketSigner(true, child)).toEqual({ kind: 'turbo-account', account: child });
    expect(ticketSigner(true, null)).toEqual({ kind: 'trading-account' });
  });
});

describe('bracket legs before signing', () => {
  it('an enabled take-profit with an empty trigger says which field is empty, not a raw parse error', async () => {
    const { bracketInput, emptyLeg } = await import('../../renderer/src/features/triggers/trigger-model');
    const entry = { side: 'Buy' as const, orderType: { kind: 'Limit' as const }, price: 3_000_000_000n, quantity: 500_000_000n };
    const result = bracketInput(ethUsdc, false, entry, emptyLeg(true), emptyLeg(false));
    expect(result).toMatchObject({ ok: false, code: 'MISSING', details: { field: 'Take-profit trigger price' } });
    expect(!result.ok && result.message).toBe('Take-profit trigger price is empty: enter it, or turn this leg off.');
    expect(!result.ok && result.message).not.toMatch(/plain decimal|INVALID_AMOUNT/);
  });
});

describe('what an immediate order did', () => {
  it('says how much of a market order filled and why the rest was cancelled', async () => {
    const { describeOutcome } = await import('../../renderer/src/features/trading/trading-actions');
    const request = { marketId: ethUsdc.market_id, side: 'Buy' as const, orderType: { kind: 'Market' as const }, price: 3_001_000_000n, quantity: 100_000_000n };
    const order = { orderId: '0x01', marketId: ethUsdc.market_id, side: 'Buy' as const, orderType: 'Market' as const, price: 3_001_000_000n, quantity: 100_000_000n, filled: 7_900_000n, averagePrice: 3_000_500_000n, status: 'cancelled' as const, turbo: false, account: '', time: 1 };
    expect(describeOutcome(ethUsdc, request, order)).toMatch(/^filled 0\.0079 of 0\.1 ETH at an average 3,000\.5(0)? USDC; the remaining 0\.0921 ETH was cancelled: nothing more was offered at 3,001(\.00)? USDC or lower$/);
    expect(describeOutcome(ethUsdc, request, { ...order, filled: 100_000_000n, status: 'filled' })).toMatch(/^filled all 0\.1 ETH/);
    expect(describeOutcome(ethUsdc, request, { ...order, filled: 0n, averagePrice: 0n })).toMatch(/^nothing filled: no offer at 3,001(\.00)? USDC or lower/);
    // A resting limit order has no outcome to tell yet.
    expect(describeOutcome(ethUsdc, { ...request, orderType: { kind: 'Limit' as const } }, { ...order, orderType: 'Limit', filled: 0n, status: 'open' })).toBeNull();
  });

  it('names the price the exchange held the order to when main bounded it (a Turbo Account market order)', async () => {
    // Seen in the margin e2e's screenshot: filled up to 3,003.33 and "nothing more was offered at
    // 2,997.34 USDC or lower" (the ticket's estimate, not the worst price main sent).
    const { describeOutcome } = await import('../../renderer/src/features/trading/trading-actions');
    const request = { marketId: ethUsdc.market_id, side: 'Buy' as const, orderType: { kind: 'Market' as const }, price: 2_997_340_000n, quantity: 300_000_000n };
    const order = { orderId: '0x02', marketId: ethUsdc.market_id, side: 'Buy' as const, orderType: 'BoundedMarket' as const, price: 3_012_320_000n, quantity: 300_000_000n, filled: 228_800_000n, averagePrice: 3_001_016_267n, status: 'cancelled' as const, turbo: true, account: '', time: 1 };
    expect(describeOutcome(ethUsdc, request, order)).toMatch(/nothing more was offered at 3,012\.32 USDC or lower$/);
  });
});

describe('why the ticket cannot send, before the form is touched', () => {
  const known = { kind: 'known' } as const;
  const loading = { kind: 'loading', symbol: 'USDC', problem: null } as const;

  it('says the balances are loading, not nothing, while the trading account\'s balance is not known', () => {
    // Just after setup: the balance row reads 0 until the faucet's funds arrive, and the order
    // would be refused for want of funds; the ticket says the balances are loading instead.
    const zero = evaluateTicket(fields({ quantityText: '0.5' }), context({ availableQuote: 0n }));
    expect(zero.ok).toBe(false);
    const state = sendState(zero, loading, '', false);
    expect(state.reason).toBe('Balances loading…: the USDC available to this order is not known yet.');
    expect(state.incomplete).toBe(true);
    expect(sendState(zero, { kind: 'loading', symbol: 'USDC', problem: 'resyncing' }, '', false).reason).toMatch(/not known yet \(resyncing\)\.$/);
    // Loading even when the order would pass with what is shown: main would refuse it before signing.
    expect(sendState(evaluateTicket(fields({ quantityText: '0.5' }), context()), loading, '', false).reason).toMatch(/^Balances loading…/);
  });

  it('names the asset, what the order needs and what there is, once the balance is known', () => {
    const short = evaluateTicket(fields({ quantityText: '5' }), context({ availableQuote: 1_000_000n }));
    const state = sendState(short, known, '', false);
    expect(state.reason).toMatch(/^Not enough USDC: this order locks 15,001\.25 USDC but only 1 USDC is unlocked/);
    expect(state.incomplete).toBe(false);
  });

  it('says what the form still needs, and says nothing when the order can go', () => {
    expect(sendState(evaluateTicket(fields({ quantityText: '' }), context()), known, '', false)).toEqual({ reason: 'Enter a quantity: the Quantity field is empty.', incomplete: true });
    expect(sendState(evaluateTicket(fields({ quantityText: '0.5' }), context()), known, '', false)).toEqual({ reason: '', incomplete: false });
    // A Turbo Account signs: main checks its funds, the trading account's balances say nothing.
    expect(sendState(evaluateTicket(fields({ quantityText: '0.5' }), context({ availableQuote: null })), { kind: 'not-ours' }, '', false).reason).toBe('');
  });

  it('puts a reason outside the form first, and none while sending', () => {
    const ok = evaluateTicket(fields({ quantityText: '0.5' }), context());
    expect(sendState(ok, loading, 'No trading session yet: finish the account setup first', false).reason).toBe('No trading session yet: finish the account setup first');
    expect(sendState(ok, loading, '', true).reason).toBe('');
  });
});

describe('a Limit order that trades at once says so before signing (a ladder click in the bid column above the best offer)', () => {
  it('through the inside: crosses the spread, naming the best opposite price', () => {
    const result = evaluateTicket(fields({ priceText: '3005.00' }), context());
    expect(result.ok && result.warnings.join(' ')).toContain('Crosses the spread: this buy at 3,005.00 trades now against the best offer 3,001.00 USDC');
    const sell = evaluateTicket(fields({ side: 'Sell', priceText: '2990.00' }), context());
    expect(sell.ok && sell.warnings.join(' ')).toContain('Crosses the spread: this sell at 2,990.00 trades now against the best bid 2,999.00 USDC');
  });

  it('at the best opposite price: takes liquidity at the taker fee', () => {
    const result = evaluateTicket(fields({ priceText: '3001.00' }), context());
    expect(result.ok && result.warnings.join(' ')).toContain('Takes liquidity: this buy at the best offer 3,001.00 USDC trades now at the taker fee');
  });

  it('inside the spread or with no book: no such warning', () => {
    for (const result of [evaluateTicket(fields({ priceText: '3000.25' }), context()), evaluateTicket(fields({ priceText: '3005.00' }), context({ bestAsk: null }))]) {
      expect(result.ok && result.warnings.some((warning) => /Crosses|Takes liquidity/.test(warning))).toBe(false);
    }
  });
});
