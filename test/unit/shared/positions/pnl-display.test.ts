// A position's mark from the source the trader chose for its market, and its P&L in ticks.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PNL_DISPLAY, markFrom, pnlDisplayOf, pnlTickTenths } from '../../../../shared/positions/pnl-display';

const USDC = 1_000_000n;
const ETH = 1_000_000_000n;

describe('the mark a position is valued at', () => {
  const prices = { bid: 2_997n * USDC, ask: 2_997n * USDC + 10_001n, last: 2_999n * USDC };

  it('takes the exit side (bid for a long, ask for a short), the last trade or the mid, and names it', () => {
    expect(markFrom('exit', ETH, prices)).toEqual({ price: 2_997n * USDC, name: 'bid' });
    expect(markFrom('exit', -ETH, prices)).toEqual({ price: 2_997n * USDC + 10_001n, name: 'ask' });
    expect(markFrom('last', -ETH, prices)).toEqual({ price: 2_999n * USDC, name: 'last' });
    // The mid of an odd sum is rounded against the holder: down for a long, up for a short.
    expect(markFrom('mid', ETH, prices)).toEqual({ price: 2_997n * USDC + 5_000n, name: 'mid' });
    expect(markFrom('mid', -ETH, prices)).toEqual({ price: 2_997n * USDC + 5_001n, name: 'mid' });
  });

  it('gives no mark where the book does not: an empty exit side, no trade, a one-sided book for the mid, a flat position', () => {
    expect(markFrom('exit', ETH, { ...prices, bid: null })).toBeNull();
    expect(markFrom('last', ETH, { bid: 1n, ask: 2n })).toBeNull();
    expect(markFrom('mid', -ETH, { ...prices, bid: null })).toBeNull();
    expect(markFrom('mid', 0n, prices)).toBeNull();
  });

  it('reads the choice of a market whatever the case of its id, and the default elsewhere', () => {
    const choices = { '0xAB': { mark: 'mid', unit: 'ticks' } } as const;
    expect(pnlDisplayOf(choices, '0xab')).toEqual({ mark: 'mid', unit: 'ticks' });
    expect(pnlDisplayOf(choices, '0xcd')).toEqual(DEFAULT_PNL_DISPLAY);
    expect(DEFAULT_PNL_DISPLAY).toEqual({ mark: 'exit', unit: 'percent' });
  });
});

describe('P&L in ticks', () => {
  it('is the quote P&L over the size and the tick, in tenths cut toward zero, signed like the P&L', () => {
    // 0.5 ETH, tick 0.01 USDC: -1.50 USDC is -3.00 USDC per ETH, 300 ticks.
    expect(pnlTickTenths(-1_500_000n, ETH / 2n, ETH, 10_000n)).toBe(-3_000n);
    // A short gaining 0.39 USDC on 0.02 ETH: 19.5 USDC per ETH, 1,950 ticks.
    expect(pnlTickTenths(390_000n, -ETH / 50n, ETH, 10_000n)).toBe(19_500n);
    // 0.07 USDC on 3 ETH at a 0.01 tick: 2.33… ticks, cut to 2.3.
    expect(pnlTickTenths(70_000n, 3n * ETH, ETH, 10_000n)).toBe(23n);
    expect(pnlTickTenths(-70_000n, 3n * ETH, ETH, 10_000n)).toBe(-23n);
    expect(pnlTickTenths(1n, 0n, ETH, 10_000n)).toBeNull();
  });
});
