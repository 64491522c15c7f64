// The per-market exposure guards over order intents with facts given here: the maximum notional
// (price × quantity in quote raw units) and the maximum position (the position the order would
// leave at worst, counting the account's resting orders on the same side).
import { describe, expect, it } from 'vitest';
import { ok, fail } from '../../../../../shared/result';
import type { GuardFacts, RestingOrders } from '../../../../../main/services/guards/guard-facts';
import type { OrderIntent } from '../../../../../main/services/guards/order-intent';
import { checkMaxNotional } from '../../../../../main/services/guards/max-notional-check';
import { checkMaxPosition } from '../../../../../main/services/guards/max-position-check';
import { ORDER_CHECKS } from '../../../../../main/services/guards/order-guard';
import { ethUsdc } from '../../../../support/shared/market/fixtures';

const USDC = 1_000_000_000n;
const ETH = 1_000_000_000n;
const account = '0xaccount';

function facts(options: { notional?: bigint; position?: bigint; size?: bigint; resting?: RestingOrders; unreadable?: boolean } = {}): GuardFacts {
  return {
    market: () => ok(ethUsdc),
    maxQuantity: () => undefined,
    maxNotional: () => options.notional,
    maxPosition: () => options.position,
    bandBps: () => 0,
    bookPrices: () => Promise.resolve(ok({ bestBid: null, bestAsk: null, source: 'the live book' })),
    position: () => Promise.resolve(options.unreadable ? fail('POSITION_UNKNOWN', 'the fills could not be read') : ok({ size: options.size ?? 0n, restingClosing: 0n, legsClosing: 0n, legsUnknown: null })),
    restingOrders: () => options.resting ?? { buy: 0n, sell: 0n },
    dailyLossLimit: () => undefined,
    dayPnl: () => Promise.resolve(ok(0n)),
  };
}

function intent(change: Partial<OrderIntent> = {}): OrderIntent {
  return { marketId: ethUsdc.market_id, turbo: false, account, side: 'Buy', kind: 'Limit', price: 3_000n * USDC, quantity: ETH, reduceOnly: false, ...change };
}

describe('the maximum notional', () => {
  it('passes an order at the limit and refuses one above it, naming the figure and the limit', async () => {
    expect((await checkMaxNotional(intent(), ethUsdc, facts({ notional: 3_000n * USDC }))).ok).toBe(true);
    const refused = await checkMaxNotional(intent({ quantity: 2n * ETH }), ethUsdc, facts({ notional: 5_000n * USDC }));
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.code).toBe('GUARD_MAX_NOTIONAL');
    expect(refused.message).toContain('2.000 ETH at 3,000.00 USDC is 6,000.00 USDC');
    expect(refused.message).toContain('maximum order notional of 5,000.00 USDC');
    expect(refused.message).toContain('Nothing was signed');
    expect(refused.details).toMatchObject({ field: 'quantity', value: (6_000n * USDC).toString(), maximum: (5_000n * USDC).toString() });
  });

  it('lets an order through that only reduces the position (a flatten), however large', async () => {
    const long = facts({ notional: 1_000n * USDC, size: 5n * ETH });
    expect((await checkMaxNotional(intent({ side: 'Sell', quantity: 5n * ETH }), ethUsdc, long)).ok).toBe(true);
    expect((await checkMaxNotional(intent({ side: 'Sell', quantity: 6n * ETH }), ethUsdc, long)).ok).toBe(false);
    expect((await checkMaxNotional(intent({ side: 'Buy', quantity: ETH }), ethUsdc, long)).ok).toBe(false);
  });

  it('lets everything through with no limit set, and a leg sized from its order (that order was checked)', async () => {
    expect((await checkMaxNotional(intent({ quantity: 1_000n * ETH }), ethUsdc, facts())).ok).toBe(true);
    expect((await checkMaxNotional(intent({ kind: 'trigger', quantity: null }), ethUsdc, facts({ notional: 1n }))).ok).toBe(true);
  });
});

describe('the maximum position', () => {
  it('counts the position and the resting orders on the same side, and names them when it refuses', async () => {
    const limit = facts({ position: 3n * ETH, size: ETH, resting: { buy: ETH, sell: 5n * ETH } });
    expect((await checkMaxPosition(intent(), ethUsdc, limit)).ok).toBe(true);
    const refused = await checkMaxPosition(intent({ quantity: 2n * ETH }), ethUsdc, limit);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.code).toBe('GUARD_MAX_POSITION');
    expect(refused.message).toContain('long 4.000 ETH');
    expect(refused.message).toContain('maximum position of 3.000 ETH');
    expect(refused.message).toContain('1.000 ETH in resting buys');
    expect(refused.details).toMatchObject({ field: 'quantity', value: (4n * ETH).toString(), maximum: (3n * ETH).toString() });
  });

  it('measures a sell as the short it could leave', async () => {
    const limit = facts({ position: 2n * ETH, size: ETH, resting: { buy: 0n, sell: ETH } });
    expect((await checkMaxPosition(intent({ side: 'Sell', quantity: 2n * ETH }), ethUsdc, limit)).ok).toBe(true);
    const refused = await checkMaxPosition(intent({ side: 'Sell', quantity: 3n * ETH }), ethUsdc, limit);
    expect(refused.ok ? 'passed' : refused.message).toContain('short 3.000 ETH');
  });

  it('never refuses an order that only reduces, even when the position is already above the limit', async () => {
    const over = facts({ position: ETH, size: 5n * ETH });
    expect((await checkMaxPosition(intent({ side: 'Sell', quantity: 2n * ETH }), ethUsdc, over)).ok).toBe(true);
    const adding = await checkMaxPosition(intent({ side: 'Buy', quantity: 1n }), ethUsdc, over);
    expect(adding.ok ? 'passed' : adding.code).toBe('GUARD_MAX_POSITION');
  });

  it('refuses when the position cannot be read, and passes with no limit set', async () => {
    const refused = await checkMaxPosition(intent(), ethUsdc, facts({ position: 3n * ETH, unreadable: true }));
    expect(refused.ok ? 'passed' : refused.code).toBe('GUARD_MAX_POSITION_UNKNOWN');
    expect((await checkMaxPosition(intent({ quantity: 1_000n * ETH }), ethUsdc, facts({ unreadable: true }))).ok).toBe(true);
  });
});

describe('the list every signing path runs', () => {
  it('holds the exposure guards', () => {
    expect(ORDER_CHECKS).toContain(checkMaxNotional);
    expect(ORDER_CHECKS).toContain(checkMaxPosition);
  });
});
