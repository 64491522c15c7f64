// The trader-session postcondition of a close by limit (test/support/trader-session/steps/positions.ts):
// the dialog's share and touch, one PostOnly order of that side, size and price, never beyond the
// position less what already closes it; a Turbo Account's reverse as one order of both sizes.
import { describe, expect, it } from 'vitest';
import { checkCloseByLimit, statedLimitPrice } from '../../../support/trader-session/steps/positions';
import { checkReverse } from '../../../support/trader-session/postconditions';
import type { TruthOrder } from '../../../support/trader-session/truth';
import { ethUsdc } from '../../../support/renderer/fixtures';

const TRADER = `0x${'11'.repeat(32)}`;
const market = ethUsdc;
const position = { account: TRADER, turbo: false, size: 44_172_755n };
function order(n: number, change: Partial<TruthOrder> = {}): TruthOrder {
  return { orderId: `0x${n.toString(16).padStart(64, '0')}`, timestamp: BigInt(n), account: TRADER, marketId: market.market_id, turbo: false, side: 'Sell', kind: 'PostOnly', price: 3_000_500_000n, quantity: 22_000_000n, filled: 0n, averagePrice: 0n, status: 'open', fills: [], ...change };
}
const dialog = ['Sell 0.022 ETH on ETH/USDC, Canonical book, post-only at 3,000.50 USDC (the best ask, joining it)', '50 % is 0.022086377 ETH, rounded down to 0.022 ETH (the 0.0001 ETH size step).'];

describe('postcondition: close by limit', () => {
  it('reads the stated touch', () => {
    expect(statedLimitPrice(dialog, market)).toBe(3_000_500_000n);
    expect(statedLimitPrice(['Sell 0.022 ETH at market'], market)).toBeNull();
  });

  it('passes one PostOnly order of the stated share at the stated touch, or none with a refusal', () => {
    expect(checkCloseByLimit(market, position, 50, dialog, [order(1)], 0n, '')).toEqual([]);
    expect(checkCloseByLimit(market, position, 50, dialog, [], 0n, 'Close 50 % by limit refused: the best ask moved')).toEqual([]);
  });

  it('FAILS another kind or price, a share above the position, a close beyond what is not already closing, and no order without a refusal', () => {
    expect(checkCloseByLimit(market, position, 50, dialog, [order(1, { kind: 'BoundedMarket' })], 0n, '')).toEqual([expect.stringMatching(/is a BoundedMarket/)]);
    expect(checkCloseByLimit(market, position, 50, dialog, [order(1, { price: 3_000_000_000n })], 0n, '')).toEqual([expect.stringMatching(/has price 3000000000/)]);
    expect(checkCloseByLimit(market, position, 50, ['Sell 0.03 ETH on ETH/USDC, post-only at 3,000.50 USDC'], [order(1, { quantity: 30_000_000n })], 0n, '')[0]).toMatch(/50 % of the position on the exchange/);
    expect(checkCloseByLimit(market, position, 50, dialog, [order(1)], 30_000_000n, '')).toEqual([expect.stringMatching(/already closed by 30000000 in resting orders: it can flip the position/)]);
    expect(checkCloseByLimit(market, position, 50, dialog, [], 0n, '')).toEqual([expect.stringMatching(/no order reached the exchange and the screen shows no refusal/)]);
  });
});

describe("postcondition: a Turbo Account's reverse", () => {
  const turbo = { account: TRADER, turbo: true, size: 50_000_000n };
  const lines = ['Sell 0.1 ETH on ETH/USDC, Turbo book, at market: 0.05 ETH closes the long, 0.05 ETH opens a short of the same size', 'One order in one signed request, with the funding the Turbo Account needs for the short (borrowing ETH): all of it or nothing.'];
  it('passes one order of both sizes and FAILS two orders or another size', () => {
    expect(checkReverse(market, turbo, lines, [order(1, { turbo: true, kind: 'BoundedMarket', quantity: 100_000_000n })], '')).toEqual([]);
    expect(checkReverse(market, turbo, lines, [order(1, { turbo: true, quantity: 50_000_000n }), order(2, { turbo: true, quantity: 50_000_000n })], '')).toEqual([expect.stringMatching(/2 orders reached the exchange for a Turbo Account's reverse/)]);
    expect(checkReverse(market, turbo, lines, [order(1, { turbo: true, quantity: 90_000_000n })], '')).toEqual([expect.stringMatching(/is not the stated Sell 100000000/)]);
  });
});

describe('postcondition: close 100 % by limit', () => {
  const lines = ['Sell 0.0016 ETH on ETH/USDC, Canonical book, post-only at 3,002.28 USDC (the best ask, joining it)', 'Leaves 0.000099575 ETH, below the 0.0001 ETH size step: no order can close it.'];
  const whole = { account: TRADER, turbo: false, size: 1_699_575n };
  it('holds the step floor of the whole position and the remainder the dialog names', () => {
    expect(checkCloseByLimit(market, whole, 100, lines, [order(1, { quantity: 1_600_000n, price: 3_002_280_000n })], 0n, '')).toEqual([]);
    expect(checkCloseByLimit(market, whole, 100, [lines[0]!], [order(1, { quantity: 1_600_000n, price: 3_002_280_000n })], 0n, '')).toEqual([expect.stringMatching(/does not state the 0.000099575 ETH it leaves/)]);
  });

  it("a short's close buys the base and pays its fee in it: what it leaves may be stated with the fee on top, but only that sum", () => {
    const short = { account: TRADER, turbo: false, size: -2_500_110n };
    const buy = order(1, { side: 'Buy', quantity: 2_500_000n, price: 2_991_960_000n });
    const stated = (leaves: string) => ['Buy 0.0025 ETH on ETH/USDC, Canonical book, post-only at 2,991.96 USDC (the best bid, joining it)', `Leaves ${leaves} ETH (the buy's fee of 0.00000025 ETH is paid in ETH), below the 0.0001 ETH size step: no order can close it.`];
    expect(checkCloseByLimit(market, short, 100, stated('0.00000036'), [buy], 0n, '')).toEqual([]);
    expect(checkCloseByLimit(market, short, 100, stated('0.00000040'), [buy], 0n, '')).toEqual([expect.stringMatching(/does not state the 0.00000011 ETH it leaves/)]);
  });
});
