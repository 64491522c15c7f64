// The matching engine through the ledger: every order type, price-time priority, fees,
// locking and atomic batches, checked against the ledger invariants after every scenario.
import { describe, expect, it } from 'vitest';
import { contractIdentity } from '../../../shared/encoding/identity';
import { filledQuantity, isCancelled, orderFills } from '../../../sandbox/ledger/orders';
import { isRevert } from '../../../sandbox/ledger/revert';
import { ETH, fixture, place, placed, USDC, type Fixture } from '../../support/sandbox/ledger-fixture';

const P3000 = 3000n * USDC;

function sound(f: Fixture): void {
  expect(f.ledger.checkInvariants()).toEqual([]);
}

describe('price-time priority', () => {
  it('fills the better price first, then the older order at one price', () => {
    const f = fixture();
    const first = placed(place(f, f.alice, 'Sell', P3000 + USDC, ETH));
    const second = placed(place(f, f.bob, 'Sell', P3000, ETH));
    const third = placed(place(f, f.alice, 'Sell', P3000, ETH));
    const taker = placed(place(f, f.bob, 'Buy', P3000 + USDC, (ETH * 3n) / 2n));
    expect(filledQuantity(taker)).toBe((ETH * 3n) / 2n);
    expect(second.close).toBe(true);
    expect(filledQuantity(third)).toBe(ETH / 2n);
    expect(third.close).toBe(false);
    expect(filledQuantity(first)).toBe(0n);
    expect(f.market.book.bestAsk()).toBe(P3000);
    sound(f);
  });
});

describe('fees and locking', () => {
  it('charges maker and taker fees in the received asset and releases price improvement', () => {
    const f = fixture();
    const maker = placed(place(f, f.alice, 'Sell', P3000, ETH));
    expect(f.market.balanceOf(f.alice.id).baseLocked).toBe(ETH);
    const taker = placed(place(f, f.bob, 'Buy', P3000 + USDC, ETH / 2n));
    expect(taker.close).toBe(true);
    const bob = f.market.balanceOf(f.bob.id);
    // 0.5 ETH less the 250 ppm taker fee.
    expect(bob.baseUnlocked).toBe(ETH / 2n - 125_000n);
    // Locked 1500.5 USDC, paid 1500: the half dollar comes back unlocked.
    expect(bob.quoteUnlocked).toBe(500_000n);
    expect(bob.quoteLocked).toBe(0n);
    const alice = f.market.balanceOf(f.alice.id);
    expect(alice.quoteUnlocked).toBe(1500n * USDC - 150_000n);
    expect(alice.baseLocked).toBe(ETH / 2n);
    expect(orderFills(maker)[0]?.fee).toBe(150_000n);
    expect(f.market.feesBase).toBe(125_000n);
    expect(f.market.feesQuote).toBe(150_000n);
    sound(f);
  });

  it('SettleBalance moves unlocked funds back to the account', () => {
    const f = fixture();
    placed(place(f, f.alice, 'Sell', P3000, ETH));
    placed(place(f, f.bob, 'Buy', P3000, ETH));
    const before = f.alice.balances.get(f.config.quote.asset);
    f.ledger.transact(() => f.market.settle({ account: f.alice, txId: 'tx', timestamp: 0n }, contractIdentity(f.alice.id)));
    expect(f.alice.balances.get(f.config.quote.asset) - before).toBe(3000n * USDC - 300_000n);
    expect(f.market.balanceOf(f.alice.id).quoteUnlocked).toBe(0n);
    sound(f);
  });

  it('reverts with InsufficientBalance when the account cannot fund the lock', () => {
    const f = fixture();
    const result = place(f, f.alice, 'Buy', P3000, 1_000_000n * ETH);
    expect(isRevert(result) && result.reason).toBe('InsufficientBalance');
    sound(f);
  });
});

describe('order types', () => {
  it('Spot rests its remainder, Market cancels it', () => {
    const f = fixture();
    placed(place(f, f.alice, 'Sell', P3000, ETH));
    const spot = placed(place(f, f.bob, 'Buy', P3000, 2n * ETH));
    expect(spot.close).toBe(false);
    expect(spot.remaining).toBe(ETH);
    expect(f.market.book.bestBid()).toBe(P3000);
    placed(place(f, f.alice, 'Sell', P3000 + USDC, ETH));
    const market = placed(place(f, f.bob, 'Buy', P3000 + 2n * USDC, 2n * ETH, { kind: 'Market' }));
    expect(filledQuantity(market)).toBe(ETH);
    expect(market.close && isCancelled(market)).toBe(true);
    expect(market.lockedRemaining).toBe(0n);
    sound(f);
  });

  it('PostOnly reverts when it would take and rests otherwise', () => {
    const f = fixture();
    placed(place(f, f.alice, 'Sell', P3000, ETH));
    const taking = place(f, f.bob, 'Buy', P3000, ETH, { kind: 'PostOnly' });
    expect(isRevert(taking) && taking.reason).toBe('PostOnlyWouldTake');
    const resting = placed(place(f, f.bob, 'Buy', P3000 - USDC, ETH, { kind: 'PostOnly' }));
    expect(resting.close).toBe(false);
    sound(f);
  });

  it('FillOrKill fills entirely or reverts', () => {
    const f = fixture();
    placed(place(f, f.alice, 'Sell', P3000, ETH));
    const tooBig = place(f, f.bob, 'Buy', P3000, 2n * ETH, { kind: 'FillOrKill' });
    expect(isRevert(tooBig) && tooBig.reason).toBe('FillOrKillNotFilled');
    expect(f.market.book.bestAsk()).toBe(P3000);
    const exact = placed(place(f, f.bob, 'Buy', P3000, ETH, { kind: 'FillOrKill' }));
    expect(filledQuantity(exact)).toBe(ETH);
    sound(f);
  });

  it('BoundedMarket executes only inside [min_price, max_price]', () => {
    const f = fixture();
    placed(place(f, f.alice, 'Sell', P3000, ETH));
    placed(place(f, f.alice, 'Sell', P3000 + 10n * USDC, ETH));
    const bounded = placed(
      place(f, f.bob, 'Buy', P3000 + 20n * USDC, 2n * ETH, { kind: 'BoundedMarket', max_price: P3000 + 5n * USDC, min_price: P3000 - 5n * USDC }),
    );
    expect(filledQuantity(bounded)).toBe(ETH);
    expect(isCancelled(bounded)).toBe(true);
    const above = placed(place(f, f.bob, 'Buy', P3000 + 20n * USDC, ETH, { kind: 'BoundedMarket', max_price: P3000 + 20n * USDC, min_price: P3000 + 15n * USDC }));
    expect(filledQuantity(above)).toBe(0n);
    const inverted = place(f, f.bob, 'Buy', P3000, ETH, { kind: 'BoundedMarket', max_price: P3000 - USDC, min_price: P3000 });
    expect(isRevert(inverted) && inverted.reason).toBe('InvalidBounds');
    sound(f);
  });

  it('Limit executes and rests at its limit price', () => {
    const f = fixture();
    placed(place(f, f.alice, 'Sell', P3000 + USDC, ETH));
    const limit = placed(place(f, f.bob, 'Buy', P3000 + 2n * USDC, ETH, { kind: 'Limit', price: P3000, timestamp: 5n }));
    expect(filledQuantity(limit)).toBe(0n);
    expect(limit.price).toBe(P3000);
    expect(f.market.book.bestBid()).toBe(P3000);
    sound(f);
  });
});

describe('market rules', () => {
  it('refuses off-tick prices, fractional prices, tiny orders and prices outside the window', () => {
    const f = fixture();
    const offTick = place(f, f.alice, 'Sell', P3000 + 1n, ETH);
    expect(isRevert(offTick) && offTick.reason).toBe('PricePrecision');
    const small = place(f, f.alice, 'Sell', USDC / 100n, 10_000_000n);
    expect(isRevert(small) && small.reason).toBe('OrderBelowMinimum');
    placed(place(f, f.alice, 'Sell', P3000, ETH));
    const far = place(f, f.bob, 'Buy', 2000n * USDC, ETH);
    expect(isRevert(far) && far.reason).toBe('PriceOutsideWindow');
    const t = fixture('ETH/USDT');
    const fractional = place(t, t.alice, 'Sell', 3000_001_000n, 100_000n * 3n);
    expect(isRevert(fractional) && fractional.reason).toBe('FractionalPrice');
  });

  it('refuses a non-whitelisted trader on a book that requires it', () => {
    const f = fixture('FUEL/USDC');
    f.alice.whitelisted = false;
    const result = place(f, f.alice, 'Sell', 20_000n, 100n * ETH);
    expect(isRevert(result) && result.reason).toBe('TraderNotWhiteListed');
  });

  it('closes a maker whose remainder falls below dust', () => {
    const f = fixture();
    const maker = placed(place(f, f.alice, 'Sell', P3000, ETH + 500_000n));
    placed(place(f, f.bob, 'Buy', P3000, ETH));
    expect(maker.close).toBe(true);
    expect(isCancelled(maker)).toBe(false);
    expect(f.market.book.bestAsk()).toBeUndefined();
    sound(f);
  });
});

describe('atomic batches', () => {
  it('rolls back every action of a batch when a later one reverts', () => {
    const f = fixture();
    const resting = placed(place(f, f.alice, 'Sell', P3000, ETH));
    const before = f.bob.balances.get(f.config.quote.asset);
    const result = f.ledger.transact(() => {
      const context = { account: f.bob, txId: 'batch', timestamp: 1n };
      const buy = f.market.createOrder(context, { side: 'Buy', price: P3000, quantity: ETH, orderType: { kind: 'Spot' } });
      if (isRevert(buy)) return buy;
      const cancel = f.market.cancelOrder(context, resting.id);
      return cancel;
    });
    expect(isRevert(result) && result.reason).toBe('OrderNotFound');
    expect(resting.close).toBe(false);
    expect(resting.remaining).toBe(ETH);
    expect(orderFills(resting)).toHaveLength(0);
    expect(f.bob.balances.get(f.config.quote.asset)).toBe(before);
    expect(f.market.book.bestAsk()).toBe(P3000);
    expect(f.market.trades.length).toBe(0);
    expect(f.market.orders.size).toBe(1);
    sound(f);
  });

  it('reverts a batch that cancels an already filled order', () => {
    const f = fixture();
    const maker = placed(place(f, f.alice, 'Sell', P3000, ETH));
    placed(place(f, f.bob, 'Buy', P3000, ETH));
    const result = f.ledger.transact(() => f.market.cancelOrder({ account: f.alice, txId: 'c', timestamp: 2n }, maker.id));
    expect(isRevert(result) && result.reason).toBe('OrderNotFound');
    sound(f);
  });
});
