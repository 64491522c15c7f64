// The pure pieces the shell wiring added: a Turbo book's rules (the Turbo row with the live pause
// and connection), the ticket's Turbo check input and its key, the warnings shown once, the chart's
// price range taking in the legs, fees in the asset a fill receives, fills of one order in one line,
// and adjustments read as one sentence.
import { describe, expect, it } from 'vitest';
import type { FillNotice, MarketsView } from '../../shared/ipc/views';
import type { TurboMarketView } from '../../shared/ipc/views/margin';
import type { Market } from '../../shared/market/market';
import type { TerminalContextValue } from '../../renderer/src/stores/terminal-context';
import { describeFills, fillTitle } from '../../renderer/src/features/alerts/fill-alerts';
import { priceRange } from '../../renderer/src/features/chart/bars-model';
import { otherWarnings, turboCheckInput, turboCheckKey } from '../../renderer/src/features/ticket/TurboCheck';
import { evaluateTicket, type TicketFields, type TicketReady } from '../../renderer/src/features/ticket/ticket-model';
import { adjustmentsText, describeLegs } from '../../renderer/src/features/trading/trading-actions';
import { formatFillFee } from '../../renderer/src/format/market-format';
import { bookRules } from '../../renderer/src/stores/turbo-store';
import { ethUsdc, ethUsdt } from '../support/renderer/fixtures';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;

const turboRow: Market = { ...ethUsdc, contract_id: `0x${'7b'.repeat(32)}` as Market['contract_id'], maker_fee: 50n, taker_fee: 300n, min_order: 5n * USDC, turbo: true, paused: false, connected: true };
const markets: MarketsView = { networkId: 'sandbox', chainId: 1n, markets: [ethUsdc, ethUsdt], turboMarkets: [turboRow] };
const live = (patch: Partial<TurboMarketView>): TurboMarketView => ({
  marketId: ethUsdc.market_id,
  pair: 'ETH/USDC',
  hasTurboBook: true,
  turboContractId: turboRow.contract_id,
  connected: true,
  paused: false,
  tradable: true,
  reason: null,
  tierIds: [],
  ...patch,
});

const fields: TicketFields = { side: 'Buy', kind: 'Limit', priceText: '3000', quantityText: '0.001', maxPriceText: '', minPriceText: '', timestampText: '' };
const context = (market: Market, turbo: boolean) => ({ market, turbo, maxOrderQuantity: null, bestBid: 2_999n * USDC, bestAsk: 3_001n * USDC, availableQuote: null, availableBase: null });

describe('the rules of the book a ticket trades on', () => {
  it('is the canonical row on the canonical book, the Turbo row (own fees, min_order) on the Turbo book', () => {
    expect(bookRules(markets, ethUsdc, false, null)).toBe(ethUsdc);
    const rules = bookRules(markets, ethUsdc, true, live({}));
    expect(rules).toMatchObject({ min_order: 5n * USDC, taker_fee: 300n, turbo: true, paused: false, connected: true });
    expect(bookRules(markets, ethUsdt, true, null)).toBeNull();
    expect(bookRules({ ...markets, turboMarkets: undefined }, ethUsdc, true, null)).toBeNull();
  });

  it('takes the pause and the connection as the Turbo rows report them now', () => {
    expect(bookRules(markets, ethUsdc, true, live({ paused: true, connected: false }))).toMatchObject({ paused: true, connected: false });
  });

  it('refuses on the Turbo book what its own minimum refuses, and a paused book, before signing', () => {
    // 0.001 ETH at 3,000 is 3 USDC: above the canonical minimum of 1, below the Turbo book's 5.
    expect(evaluateTicket(fields, context(ethUsdc, false)).ok).toBe(true);
    const turbo = evaluateTicket(fields, context(bookRules(markets, ethUsdc, true, live({}))!, true));
    expect(turbo).toMatchObject({ ok: false, code: 'MIN_ORDER' });
    const paused = evaluateTicket({ ...fields, quantityText: '0.01' }, context(bookRules(markets, ethUsdc, true, live({ paused: true }))!, true));
    expect(paused).toMatchObject({ ok: false, code: 'MARKET_PAUSED' });
  });
});

describe("the ticket's Turbo check", () => {
  const ready = (kind: TicketFields['kind'], extra: Partial<TicketFields> = {}) => {
    const evaluated = evaluateTicket({ ...fields, kind, quantityText: '0.3', ...extra }, context(bookRules(markets, ethUsdc, true, live({}))!, true));
    if (!evaluated.ok) throw new Error(evaluated.message);
    return evaluated as TicketReady;
  };

  it('asks about the order the ticket would place: a market order with its reference price, bounds when given', () => {
    expect(turboCheckInput(ready('Market'))).toEqual({ marketId: ethUsdc.market_id, side: 'Buy', orderKind: 'Market', price: 3_001n * USDC, quantity: (3n * ETH) / 10n });
    expect(turboCheckInput(ready('BoundedMarket', { maxPriceText: '3050', minPriceText: '2950' }))).toMatchObject({ orderKind: 'BoundedMarket', price: 3_050n * USDC, maxPrice: 3_050n * USDC, minPrice: 2_950n * USDC });
  });

  it('is keyed by the order, not by a market order reference price moving with the book', () => {
    const market = turboCheckInput(ready('Market'));
    expect(turboCheckKey({ ...market, price: 3_002n * USDC })).toBe(turboCheckKey(market));
    expect(turboCheckKey({ ...market, quantity: ETH })).not.toBe(turboCheckKey(market));
    const limit = turboCheckInput(ready('Limit'));
    expect(turboCheckKey({ ...limit, price: 3_002n * USDC })).not.toBe(turboCheckKey(limit));
  });

  it('shows each fact once: the conversion and the draw have lines of their own', () => {
    expect(
      otherWarnings([
        'Market order sent as BoundedMarket with a worst price of 3031.51 USDC (100 bps from 3001.5 USDC): a Turbo Account cannot place unbounded market orders.',
        'Draws 909.453 USDC from the pool in the same batch, before the order.',
        'The pool holds little ETH.',
      ]),
    ).toEqual(['The pool holds little ETH.']);
  });
});

describe('the chart keeps the legs in view', () => {
  it('widens the bars range to the legs, padded', () => {
    const [low, high] = priceRange(2_990, 3_010, [3_100, 2_900]);
    expect(low).toBeLessThan(2_900);
    expect(high).toBeGreaterThan(3_100);
    expect(priceRange(2_990, 3_010, [])[0]).toBeGreaterThan(2_900);
    expect(priceRange(null, null, [])).toEqual([0, 1]);
  });
});

describe('fills and order results in words', () => {
  const terminal = { market: (marketId: string) => (marketId === ethUsdc.market_id ? ethUsdc : null) } as unknown as TerminalContextValue;
  const fill = (side: 'Buy' | 'Sell', price: bigint, quantity: bigint, fee: bigint): FillNotice => ({
    fill: { orderId: `0x${'0a'.repeat(32)}`, marketId: ethUsdc.market_id, side, price, quantity, fee, turbo: false, account: '', time: 1 },
    symbol: 'ETH/USDC',
  });

  it('states a fee in the asset the fill receives', () => {
    expect(formatFillFee(ethUsdc, 'Buy', 5_000n)).toBe('0.000005 ETH');
    expect(formatFillFee(ethUsdc, 'Sell', 15_227n)).toBe('0.015227 USDC');
  });

  it('labels a fired leg\'s fill and sums the fills of one order', () => {
    expect(fillTitle({ ...fill('Sell', 3_100n * USDC, ETH / 2n, 1n), trigger: { triggerId: `0x${'01'.repeat(32)}`, role: 'take-profit', triggerPrice: 3_100n * USDC } })).toBe('Take-profit filled');
    expect(fillTitle({ ...fill('Sell', 2_900n * USDC, ETH / 2n, 1n), trigger: { triggerId: `0x${'01'.repeat(32)}`, role: 'stop-loss', triggerPrice: 2_900n * USDC } })).toBe('Stop-loss filled');
    expect(fillTitle(fill('Buy', 1n, 1n, 1n))).toBe('Fill');
    const text = describeFills(terminal, [fill('Buy', 3_002_790_000n, 100_000_000n, 25_000n), fill('Buy', 3_008_790_000n, 316_200_000n, 79_050n)]);
    expect(text).toBe('Buy 0.4162 ETH in 2 fills at 3,002.79–3,008.79 USDC · fees 0.00010405 ETH');
  });

  it('reads what main adjusted as one sentence, and names the legs of a bracket', () => {
    expect(adjustmentsText(['Take-profit: a slippage of 50 bps executes between 3036.6 USDC and 3067.1 USDC (on the price step).', 'Quantity floored.'])).toBe(
      'Take-profit: a slippage of 50 bps executes between 3036.6 USDC and 3067.1 USDC (on the price step); Quantity floored',
    );
    expect(describeLegs(ethUsdc, { takeProfit: { triggerPrice: 3_100n * USDC, execution: { kind: 'market' } }, stopLoss: { triggerPrice: 2_900n * USDC, execution: { kind: 'market' } } })).toBe(
      'take-profit 3,100.00 and stop-loss 2,900.00 USDC',
    );
  });
});
