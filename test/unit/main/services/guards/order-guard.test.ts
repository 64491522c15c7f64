// The guards' checks over order intents with facts given here: the price band around the book's
// reference (live, read now, empty, unreadable), reduce-only against a position, and the one list
// every signing path runs.
import { describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import { ok, fail, type Result } from '../../../../../shared/result';
import type { ActionGroup } from '../../../../../shared/protocol/session-actions';
import type { BookPrices, GuardFacts, PositionFacts } from '../../../../../main/services/guards/guard-facts';
import { guardOrders, guardRequest } from '../../../../../main/services/guards/order-guard';
import { OrderRate } from '../../../../../main/services/guards/order-rate';
import { orderIntents, type OrderIntent } from '../../../../../main/services/guards/order-intent';
import { checkMaxOrderSize } from '../../../../../main/services/guards/max-order-size-check';
import { checkPriceBand } from '../../../../../main/services/guards/price-band-check';
import { checkReduceOnly } from '../../../../../main/services/guards/reduce-only-check';
import { ethUsdc } from '../../../../support/shared/market/fixtures';

const USDC = 1_000_000_000n;
const ETH = 1_000_000_000n;
const account = '0xaccount';

function facts(options: { caps?: Record<string, bigint>; bands?: Record<string, number>; prices?: Result<BookPrices>; position?: Result<PositionFacts> } = {}): GuardFacts & { reads: { prices: number; positions: number } } {
  const reads = { prices: 0, positions: 0 };
  return {
    reads,
    market: (marketId) => (marketId === ethUsdc.market_id ? ok(ethUsdc) : fail('UNKNOWN_MARKET', `market ${marketId}`)),
    maxQuantity: (marketId) => options.caps?.[marketId],
    maxNotional: () => undefined,
    maxPosition: () => undefined,
    restingOrders: () => ({ buy: 0n, sell: 0n }),
    dailyLossLimit: () => undefined,
    dayPnl: () => Promise.resolve(ok(0n)),
    bandBps: (marketId) => options.bands?.[marketId] ?? 3_000,
    bookPrices: () => {
      reads.prices++;
      return Promise.resolve(options.prices ?? ok({ bestBid: 2_990n * USDC, bestAsk: 3_010n * USDC, source: 'the live book' }));
    },
    position: () => {
      reads.positions++;
      return Promise.resolve(options.position ?? ok({ size: 0n, restingClosing: 0n, legsClosing: 0n, legsUnknown: null }));
    },
  };
}

function intent(change: Partial<OrderIntent> = {}): OrderIntent {
  return { marketId: ethUsdc.market_id, turbo: false, account, side: 'Buy', kind: 'Spot', price: 3_000n * USDC, quantity: ETH, reduceOnly: false, ...change };
}

const market: Market = ethUsdc;

describe('the price band', () => {
  it('passes a price inside the band around the mid and refuses one beyond it, naming the figure, the reference and the limits', async () => {
    expect((await checkPriceBand(intent({ price: 3_800n * USDC }), market, facts())).ok).toBe(true);
    const refused = await checkPriceBand(intent({ price: 30_000n * USDC }), market, facts());
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.code).toBe('GUARD_PRICE_BAND');
    expect(refused.message).toContain('Price 30,000.00 USDC is 900 % above the reference 3,000.00 USDC (the mid of the best bid and offer, the live book)');
    expect(refused.message).toContain('your price band of 30 % (3000 bps), which allows 2,100.00 USDC to 3,900.00 USDC');
    expect(refused.message).toContain('Nothing was signed');
    expect(refused.details).toMatchObject({ field: 'price', value: (30_000n * USDC).toString(), low: (2_100n * USDC).toString(), high: (3_900n * USDC).toString(), bandBps: 3000 });
  });

  it('moves the band’s edges inward onto the price tick, so the range it names can be priced', async () => {
    const odd = facts({ prices: ok({ bestBid: 2_990_010_000_000n, bestAsk: 3_010_020_000_000n, source: 'the live book' }) });
    const refused = await checkPriceBand(intent({ price: 3_900_020_000_000n }), market, odd);
    expect(refused.ok ? 'passed' : refused.message).toContain('which allows 2,100.02 USDC to 3,900.01 USDC');
    expect((await checkPriceBand(intent({ price: 3_900_010_000_000n }), market, odd)).ok).toBe(true);
  });

  it('measures from the one side quoted when the other is empty', async () => {
    const oneSide = facts({ prices: ok({ bestBid: 2_000n * USDC, bestAsk: null, source: 'the book read now' }) });
    expect((await checkPriceBand(intent({ price: 2_500n * USDC }), market, oneSide)).ok).toBe(true);
    const refused = await checkPriceBand(intent({ price: 2_700n * USDC }), market, oneSide);
    expect(refused.ok ? 'passed' : refused.message).toContain('the best bid, the only side quoted, the book read now');
  });

  it('on an empty book lets an order that can only rest through and refuses one that takes liquidity at once', async () => {
    const empty = facts({ prices: ok({ bestBid: null, bestAsk: null, source: 'the book read now' }) });
    expect((await checkPriceBand(intent({ kind: 'Limit' }), market, empty)).ok).toBe(true);
    expect((await checkPriceBand(intent({ kind: 'trigger' }), market, empty)).ok).toBe(true);
    for (const kind of ['Market', 'BoundedMarket', 'FillOrKill'] as const) {
      const refused = await checkPriceBand(intent({ kind }), market, empty);
      expect(refused.ok ? 'passed' : refused.code).toBe('GUARD_NO_REFERENCE');
    }
  });

  it('refuses every price when the book cannot be read, and checks nothing when the band is off', async () => {
    const unreadable = facts({ prices: fail('NETWORK', 'connection refused') });
    const refused = await checkPriceBand(intent(), market, unreadable);
    expect(refused.ok ? 'passed' : `${refused.code}: ${refused.message}`).toMatch(/^GUARD_NO_REFERENCE: .*the book could not be read \(connection refused\)/);
    const off = facts({ bands: { [ethUsdc.market_id]: 0 }, prices: fail('NETWORK', 'connection refused') });
    expect((await checkPriceBand(intent({ price: 1n }), market, off)).ok).toBe(true);
    expect(off.reads.prices).toBe(0);
  });

  it('holds a trigger price and a market order’s bound to the band too', async () => {
    const trigger = await checkPriceBand(intent({ kind: 'trigger', price: 100n * USDC }), market, facts());
    expect(trigger.ok ? 'passed' : trigger.message).toMatch(/^Trigger price 100\.00 USDC is 96\.66 % below/);
    const bound = await checkPriceBand(intent({ kind: 'Market', price: 9_000n * USDC }), market, facts());
    expect(bound.ok ? 'passed' : bound.message).toMatch(/^The market order’s bound 9,000\.00 USDC/);
  });
});

describe('the maximum order size', () => {
  it('refuses an order or a leg above the market’s cap with the cap, and passes one at it or a leg sized from its order', async () => {
    const capped = facts({ caps: { [ethUsdc.market_id]: 2n * ETH } });
    const refused = await checkMaxOrderSize(intent({ quantity: 5n * ETH }), market, capped);
    expect(refused).toEqual(fail('MAX_ORDER_SIZE', 'Quantity 5.000 ETH is above your maximum order size of 2.000 ETH for ETH/USDC (Settings). Nothing was signed.', { field: 'quantity', value: (5n * ETH).toString(), maximum: (2n * ETH).toString() }));
    expect((await checkMaxOrderSize(intent({ kind: 'trigger', quantity: 3n * ETH }), market, capped)).ok).toBe(false);
    expect((await checkMaxOrderSize(intent({ quantity: 2n * ETH }), market, capped)).ok).toBe(true);
    expect((await checkMaxOrderSize(intent({ kind: 'trigger', quantity: null }), market, capped)).ok).toBe(true);
    expect((await checkMaxOrderSize(intent({ quantity: 500n * ETH }), market, facts())).ok).toBe(true);
  });
});

describe('reduce-only', () => {
  const long = (size: bigint, restingClosing = 0n, legsClosing = 0n) => facts({ position: ok({ size, restingClosing, legsClosing, legsUnknown: null }) });

  it('passes a closing order up to the position, less what resting closing orders already close', async () => {
    expect((await checkReduceOnly(intent({ reduceOnly: true, kind: 'Market', side: 'Sell', quantity: 2n * ETH }), market, long(2n * ETH))).ok).toBe(true);
    const refused = await checkReduceOnly(intent({ reduceOnly: true, kind: 'Market', side: 'Sell', quantity: 2n * ETH }), market, long(2n * ETH, ETH / 2n));
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.code).toBe('GUARD_REDUCE_ONLY');
    expect(refused.message).toBe('Reduce-only: 2.000 ETH would flip your long 2.000 ETH less 0.500 ETH in resting sells on ETH/USDC (Canonical book); at most 1.500 ETH. Nothing was signed.');
    expect(refused.details?.maximum).toBe((ETH + ETH / 2n).toString());
    const legs = await checkReduceOnly(intent({ reduceOnly: true, kind: 'Market', side: 'Sell', quantity: 2n * ETH }), market, long(2n * ETH, 0n, 2n * ETH));
    expect(legs.ok ? 'passed' : legs.message).toBe('Reduce-only: 2.000 ETH would go beyond your long 2.000 ETH less 2.000 ETH in pending take-profit/stop-loss legs on ETH/USDC (Canonical book); at most 0.000 ETH. Nothing was signed.');
  });

  it('refuses an order that would add to the position or open one, and an order that can rest', async () => {
    const adds = await checkReduceOnly(intent({ reduceOnly: true, kind: 'Market', side: 'Buy' }), market, long(2n * ETH));
    expect(adds.ok ? 'passed' : adds.message).toBe('Reduce-only: a buy would add to your long 2.000 ETH on ETH/USDC (Canonical book); only a sell reduces it. Nothing was signed.');
    const flat = await checkReduceOnly(intent({ reduceOnly: true, kind: 'Market', side: 'Sell' }), market, long(0n));
    expect(flat.ok ? 'passed' : flat.code).toBe('GUARD_REDUCE_ONLY');
    const short = await checkReduceOnly(intent({ reduceOnly: true, kind: 'FillOrKill', side: 'Buy', quantity: ETH }), market, long(-3n * ETH));
    expect(short.ok).toBe(true);
    const resting = await checkReduceOnly(intent({ reduceOnly: true, kind: 'Limit', side: 'Sell' }), market, long(2n * ETH));
    expect(resting.ok ? 'passed' : resting.message).toMatch(/a Limit order can rest on the book/);
  });

  it('refuses when the position cannot be read, and reads nothing for an order not marked reduce-only', async () => {
    const unknown = await checkReduceOnly(intent({ reduceOnly: true, kind: 'Market', side: 'Sell' }), market, facts({ position: fail('POSITION_UNKNOWN', 'the fills could not be read') }));
    expect(unknown.ok ? 'passed' : unknown.code).toBe('GUARD_REDUCE_ONLY_UNKNOWN');
    // The size is known but not what a pending leg closes: reduce-only cannot cap to it either.
    const legs = await checkReduceOnly(intent({ reduceOnly: true, kind: 'Market', side: 'Sell' }), market, facts({ position: ok({ size: 10n ** 9n, restingClosing: 0n, legsClosing: 0n, legsUnknown: 'the size of the pending leg 0xl1 is not known here' }) }));
    expect(legs.ok ? 'passed' : `${legs.code}: ${legs.message}`).toMatch(/^GUARD_REDUCE_ONLY_UNKNOWN: .*the size of the pending leg 0xl1 is not known here/);
    const plain = facts();
    expect((await checkReduceOnly(intent({ side: 'Sell' }), market, plain)).ok).toBe(true);
    expect(plain.reads.positions).toBe(0);
  });
});

describe('one list of checks over every order a request creates', () => {
  const group = (actions: ActionGroup['actions']): ActionGroup => ({ market_id: ethUsdc.market_id, actions });

  it('reads the orders and legs from the very actions to be signed, and nothing from cancels or settling', () => {
    const leg = { order_type: { kind: 'Market' as const }, quantity: { kind: 'Quantity' as const, quantity: ETH }, trigger_price: 2_800n * USDC, side: 'Sell' as const };
    const intents = orderIntents(
      [
        group([
          { kind: 'CancelOrder', order_id: `0x${'11'.repeat(32)}` as never },
          { kind: 'CreateOrder', side: 'Buy', price: 3_000n * USDC, quantity: ETH, order_type: { kind: 'Spot' } },
          { kind: 'CreateOrderWithTriggers', side: 'Buy', price: 3_000n * USDC, quantity: ETH, order_type: { kind: 'Spot' }, trigger_1: leg },
          { kind: 'CreateTriggerOrders', first: leg, second: { ...leg, trigger_price: 3_300n * USDC } },
        ]),
      ],
      { account, reduceOnly: true },
    );
    expect(intents.map((each) => `${each.kind} ${each.side} ${each.price / USDC} ${each.reduceOnly}`)).toEqual([
      'Spot Buy 3000 true',
      'Spot Buy 3000 true',
      'trigger Sell 2800 false',
      'trigger Sell 2800 false',
      'trigger Sell 3300 false',
    ]);
  });

  it('answers the first refusal, reads the book once per request, and passes a request that creates nothing without reading anything', async () => {
    const shared = facts();
    const refused = await guardRequest(
      {
        groups: [group([{ kind: 'CreateOrder', side: 'Buy', price: 3_000n * USDC, quantity: ETH, order_type: { kind: 'Spot' } }, { kind: 'CreateOrder', side: 'Buy', price: 30_000n * USDC, quantity: ETH, order_type: { kind: 'Spot' } }])],
        account,
        reduceOnly: false,
      },
      shared,
    );
    expect(refused.ok ? 'passed' : refused.code).toBe('GUARD_PRICE_BAND');
    expect(shared.reads.prices).toBe(1);
    const cancels = facts();
    expect((await guardRequest({ groups: [group([{ kind: 'CancelOrder', order_id: `0x${'11'.repeat(32)}` as never }])], account, reduceOnly: false }, cancels)).ok).toBe(true);
    expect(cancels.reads.prices).toBe(0);
  });

  it('runs a check added to the list on every order (the next guards extend it here)', async () => {
    const seen: string[] = [];
    const result = await guardOrders([intent(), intent({ side: 'Sell' })], facts(), [(each) => {
      seen.push(each.side);
      return Promise.resolve(ok(undefined));
    }]);
    expect(result.ok).toBe(true);
    expect(seen).toEqual(['Buy', 'Sell']);
  });

  it('refuses a request whose orders would pass the orders per minute before any other check, and counts only requests that passed', async () => {
    let now = 0;
    const rate = { meter: new OrderRate(() => now), limit: () => 1 };
    const group = (price: bigint): ActionGroup => ({ market_id: ethUsdc.market_id, actions: [{ kind: 'CreateOrder', side: 'Buy', order_type: { kind: 'Spot' }, price, quantity: ETH }] }) as unknown as ActionGroup;
    const refusedByBand = await guardRequest({ groups: [group(30_000n * USDC)], account, reduceOnly: false }, facts(), rate);
    expect(refusedByBand.ok ? 'passed' : refusedByBand.code).toBe('GUARD_PRICE_BAND');
    expect((await guardRequest({ groups: [group(3_000n * USDC)], account, reduceOnly: false }, facts(), rate)).ok).toBe(true);
    const second = await guardRequest({ groups: [group(3_000n * USDC)], account, reduceOnly: false }, facts(), rate);
    expect(second.ok ? 'passed' : second.code).toBe('GUARD_ORDER_RATE');
    now += 60_001;
    expect((await guardRequest({ groups: [group(3_000n * USDC)], account, reduceOnly: false }, facts(), rate)).ok).toBe(true);
  });
});
