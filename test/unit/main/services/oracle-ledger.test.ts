// The trader-session oracle's own accounting of a position (test/support/trader-session/ledger.ts),
// written from docs/protocol.md "Positions and P&L": hand-computed fills first, then random fill
// sequences against the app's implementation (shared/positions/accounting.ts). Two independent
// implementations of the documented rules must agree to the raw unit; the oracle itself never
// imports the app's accounting.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ledgerBps, ledgerEntry, ledgerMarkValue, ledgerOrder, ledgerPosition, ledgerUnrealized, type LedgerFill } from '../../../support/trader-session/ledger';
import { accountFills, averageEntry, markValue, percentBps, unrealizedAt } from '../../../../shared/positions/accounting';
import { checkProperty } from '../../../support/property';

const ETH = 9; // base decimals
let clock = 0n;
const fill = (side: 'Buy' | 'Sell', price: bigint, quantity: bigint, fee: bigint, at?: Partial<LedgerFill>): LedgerFill => ({
  side,
  price,
  quantity,
  fee,
  timestamp: (clock += 1n),
  orderId: `0x${clock.toString(16).padStart(64, '0')}`,
  index: 0,
  ...at,
});

/** 1 ETH bought at 2,000 USDC (fee 0.0025 ETH), 0.5 sold at 2,100 (fee 2.625 USDC), 0.6 sold at 2,000 (fee 3 USDC). */
const buy = fill('Buy', 2_000_000_000n, 1_000_000_000n, 2_500_000n);
const partial = fill('Sell', 2_100_000_000n, 500_000_000n, 2_625_000n);
const cross = fill('Sell', 2_000_000_000n, 600_000_000n, 3_000_000n);

describe('oracle ledger: the documented accounting, by hand', () => {
  it('a buy pays its fee in base: the entry rises above the price', () => {
    const position = ledgerPosition([buy], ETH);
    expect(position).toEqual({ size: 997_500_000n, basis: 2_000_000_000n, realized: 0n, released: 0n, feesBase: 2_500_000n, feesQuote: 0n, fills: 1 });
    // 2,000,000,000 × 10^9 / 997,500,000 = 2,005,012,531.328…: rounded to nearest.
    expect(ledgerEntry(position, ETH)).toBe(2_005_012_531n);
  });

  it('a partial close releases the basis in proportion, floored, and realizes net of the sale fee', () => {
    const position = ledgerPosition([buy, partial], ETH);
    // Released floor(2,000,000,000 × 500,000,000 / 997,500,000) = 1,002,506,265; the quote is 1,050,000,000 - 2,625,000.
    expect(position).toEqual({ size: 497_500_000n, basis: 997_493_735n, realized: 44_868_735n, released: 1_002_506_265n, feesBase: 2_500_000n, feesQuote: 2_625_000n, fills: 2 });
    // 997,493,735 × 10^9 / 497,500,000 = 2,005,012,532.66…: half away from zero rounds up.
    expect(ledgerEntry(position, ETH)).toBe(2_005_012_533n);
    // Long, marked at the bid: floor(497,500,000 × 2,090,000,000 / 10^9) - basis.
    expect(ledgerUnrealized(position, 2_090_000_000n, ETH)).toBe(1_039_775_000n - 997_493_735n);
  });

  it('a fill that crosses zero closes the rest and opens the other side with the rest of its quote', () => {
    const position = ledgerPosition([buy, partial, cross], ETH);
    // Closing 497,500,000 of 600,000,000: floor(1,197,000,000 × 497.5 / 600) = 992,512,500 of the quote closes.
    expect(position).toEqual({ size: -102_500_000n, basis: -204_487_500n, realized: 44_868_735n + 992_512_500n - 997_493_735n, released: 2_000_000_000n, feesBase: 2_500_000n, feesQuote: 5_625_000n, fills: 3 });
    expect(ledgerEntry(position, ETH)).toBe(1_995_000_000n);
    expect(ledgerBps(position.realized, position.released)).toBe(199n);
    // Short, marked at the ask, owed value rounded up: -ceil(102,500,000 × 2,010,000,000 / 10^9) + 204,487,500.
    expect(ledgerMarkValue(position.size, 2_010_000_000n, ETH)).toBe(-206_025_000n);
    expect(ledgerMarkValue(-1n, 1n, ETH)).toBe(-1n);
    expect(ledgerUnrealized(position, 2_010_000_000n, ETH)).toBe(-1_537_500n);
    expect(ledgerBps(-1_537_500n, position.basis)).toBe(-75n);
  });

  it('applies fills oldest first by fill time, then order id and place, whatever order they come in', () => {
    expect(ledgerPosition([cross, buy, partial], ETH)).toEqual(ledgerPosition([buy, partial, cross], ETH));
    const a = fill('Buy', 1n, 1n, 0n, { timestamp: 5n, orderId: '0x02', index: 0 });
    const b = fill('Buy', 1n, 1n, 0n, { timestamp: 5n, orderId: '0x01', index: 1 });
    const c = fill('Buy', 1n, 1n, 0n, { timestamp: 4n, orderId: '0x03', index: 0 });
    const d = fill('Buy', 1n, 1n, 0n, { timestamp: 5n, orderId: '0x01', index: 0 });
    expect([a, b, c, d].sort(ledgerOrder)).toEqual([c, d, b, a]);
  });

  it('a buy whose quantity all went in fees realizes what it cost', () => {
    expect(ledgerPosition([fill('Buy', 2_000_000_000n, 1_000n, 1_000n)], ETH)).toMatchObject({ size: 0n, basis: 0n, realized: -2_000n, feesBase: 1_000n });
  });

  it('keeps what a floor leaves in the basis of what is still open (nothing rounded away)', () => {
    // Three sales of a third each of a basis of 10 raw quote over 3 raw base.
    const fills = [fill('Buy', 3_333_333_334n, 3n, 0n), fill('Sell', 0n, 1n, 0n), fill('Sell', 0n, 1n, 0n), fill('Sell', 0n, 1n, 0n)];
    expect(ledgerPosition(fills.slice(0, 1), ETH).basis).toBe(10n);
    expect(ledgerPosition(fills.slice(0, 2), ETH)).toMatchObject({ basis: 7n, realized: -3n });
    expect(ledgerPosition(fills.slice(0, 3), ETH)).toMatchObject({ basis: 4n, realized: -6n });
    expect(ledgerPosition(fills, ETH)).toMatchObject({ size: 0n, basis: 0n, realized: -10n, released: 10n });
  });
});

describe('oracle ledger against the app\'s accounting (two implementations of one rule)', () => {
  const fills = fc.array(
    fc.record({
      side: fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'),
      price: fc.bigInt({ min: 1n, max: 5_000_000_000_000n }),
      quantity: fc.bigInt({ min: 1n, max: 3_000_000_000n }),
      feeBps: fc.bigInt({ min: 0n, max: 10_000n }),
      timestamp: fc.bigInt({ min: 0n, max: 20n }),
      orderId: fc.constantFrom('0x0a', '0x0b', '0x0c'),
      index: fc.nat({ max: 3 }),
    }),
    { maxLength: 30 },
  );

  it('gives the same size, basis, realized, fees, entry and unrealized on random fills', () => {
    checkProperty(
      fc.property(fills, fc.bigInt({ min: 1n, max: 5_000_000_000_000n }), (drawn, mark) => {
        const ledger = drawn.map((one) => {
          // A buy's fee is in base (up to its quantity), a sale's in quote (up to its value).
          const value = (one.price * one.quantity) / 10n ** BigInt(ETH);
          const fee = one.side === 'Buy' ? (one.quantity * one.feeBps) / 10_000n : (value * one.feeBps) / 10_000n;
          return { side: one.side, price: one.price, quantity: one.quantity, fee, timestamp: one.timestamp, orderId: one.orderId, index: one.index };
        });
        const mine = ledgerPosition(ledger, ETH);
        const app = accountFills([...ledger].sort(ledgerOrder), 10n ** BigInt(ETH));
        expect({ size: mine.size, basis: mine.basis, realized: mine.realized, released: mine.released, feesBase: mine.feesBase, feesQuote: mine.feesQuote }).toEqual({
          size: app.size,
          basis: app.basis,
          realized: app.realized,
          released: app.closedBasis,
          feesBase: app.feesBase,
          feesQuote: app.feesQuote,
        });
        expect(ledgerEntry(mine, ETH)).toBe(averageEntry(app, 10n ** BigInt(ETH)));
        expect(ledgerMarkValue(mine.size, mark, ETH)).toBe(markValue(app.size, mark, 10n ** BigInt(ETH)));
        expect(ledgerUnrealized(mine, mark, ETH)).toBe(unrealizedAt(app, mark, 10n ** BigInt(ETH)));
        expect(ledgerBps(mine.realized, mine.released)).toBe(percentBps(app.realized, app.closedBasis));
        // Nothing rounded away: realized + unrealized is the fills' cash plus the mark value.
        expect(mine.realized + ledgerUnrealized(mine, mark, ETH)).toBe(app.cash + ledgerMarkValue(mine.size, mark, ETH));
      }),
      { numRuns: 500 },
    );
  });
});
