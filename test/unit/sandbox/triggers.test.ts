// Trigger legs in-process: escrow, the direction rule, firing through the engine, OCO siblings,
// dormant legs sized from a parent, cancellation with the parent, failed fires, atomic batches and
// the ledger invariants after each step.
import { describe, expect, it } from 'vitest';
import { ZERO_B256, type B256 } from '../../../shared/encoding/b256';
import type { OrderType } from '../../../shared/market/order-type';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { TriggerLeg } from '../../../shared/protocol/trigger';
import { executeBatch } from '../../../sandbox/ledger/execute';
import type { ContractAccount } from '../../../sandbox/ledger/accounts';
import { filledQuantity, orderFills, type OrderRecord } from '../../../sandbox/ledger/orders';
import { isRevert } from '../../../sandbox/ledger/revert';
import type { TurboLink } from '../../../sandbox/turbo/link';
import { TriggerEngine } from '../../../sandbox/triggers/engine';
import type { TriggerRecord } from '../../../sandbox/triggers/records';
import { ETH, USDC, fixture, place, placed } from '../../support/sandbox/ledger-fixture';

function setup() {
  const base = fixture();
  let tx = 0;
  const engine = new TriggerEngine({ ledger: base.ledger, nextTxId: () => `fire${++tx}`, now: () => 1n });
  const batch = (account: ContractAccount, actions: SessionAction[], turbo = false) => {
    const link = base.ledger.turbo.get(base.config.market_id) as TurboLink;
    return executeBatch(base.ledger, account, [{ market: turbo ? link.turbo : base.market, link, turbo, actions }], `batch${++tx}`, 1n);
  };
  // A last trade at 3000 gives every leg a side of the market.
  placed(place(base, base.bob, 'Sell', 3_000n * USDC, ETH / 10n));
  placed(place(base, base.alice, 'Buy', 3_000n * USDC, ETH / 10n));
  const legs = (account: ContractAccount): TriggerRecord[] => base.market.triggers.of(account.id);
  return { ...base, engine, batch, legs };
}

const order = (side: 'Buy' | 'Sell', price: bigint, quantity: bigint, orderType: OrderType = { kind: 'Spot' }): SessionAction => ({ kind: 'CreateOrder', side, price, quantity, order_type: orderType });
const bounded = (side: 'Buy' | 'Sell', trigger: bigint, slip: bigint, quantity?: bigint): TriggerLeg => ({
  order_type: { kind: 'MarketBounded', max_price: trigger + slip, min_price: trigger - slip },
  quantity: quantity === undefined ? { kind: 'ParentOrder', parent_order_id: ZERO_B256 } : { kind: 'Quantity', quantity },
  trigger_price: trigger,
  side,
});
const limit = (side: 'Buy' | 'Sell', trigger: bigint, price: bigint, quantity?: bigint): TriggerLeg => ({
  order_type: { kind: 'Spot', price },
  quantity: quantity === undefined ? { kind: 'ParentOrder', parent_order_id: ZERO_B256 } : { kind: 'Quantity', quantity },
  trigger_price: trigger,
  side,
});

describe('trigger legs in the ledger', () => {
  it('a standalone leg rests off the book with its escrow; cancelling it releases the escrow to the book', () => {
    const f = setup();
    const before = f.alice.balances.get(f.config.base.asset);
    const done = f.batch(f.alice, [{ kind: 'CreateTriggerOrder', args: limit('Sell', 2_900n * USDC, 2_890n * USDC, ETH / 4n) }]);
    expect(isRevert(done)).toBe(false);
    const [leg] = f.legs(f.alice);
    expect(leg).toMatchObject({ state: 'pending', direction: 'fall', locked: ETH / 4n, ownLock: ETH / 4n });
    expect(f.alice.balances.get(f.config.base.asset)).toBe(before - ETH / 4n);
    expect(f.market.balanceOf(f.alice.id).baseLocked).toBe(ETH / 4n);
    expect(f.market.book.bestBid()).not.toBe(2_890n * USDC); // off the book
    expect(f.ledger.checkInvariants()).toEqual([]);
    const cancelled = f.batch(f.alice, [{ kind: 'CancelTriggerOrder', order_id: leg!.id }]);
    expect(isRevert(cancelled)).toBe(false);
    expect(leg).toMatchObject({ state: 'cancelled', reason: 'Cancelled', locked: 0n });
    expect(f.market.balanceOf(f.alice.id).baseUnlocked).toBeGreaterThanOrEqual(ETH / 4n);
    expect(f.ledger.checkInvariants()).toEqual([]);
    // Cancelling it again reverts the batch (as a filled order's cancel does).
    expect(f.batch(f.alice, [{ kind: 'CancelOrder', order_id: leg!.id }])).toMatchObject({ reason: 'OrderNotFound' });
  });

  it('a bracket: the entry fills, the take-profit fires when a trade prints at it and the stop-loss is cancelled', () => {
    const f = setup();
    placed(place(f, f.bob, 'Sell', 3_000n * USDC, ETH)); // the entry's liquidity
    const done = f.batch(f.alice, [
      {
        kind: 'CreateOrderWithTriggers',
        side: 'Buy',
        price: 3_000n * USDC,
        quantity: ETH / 2n,
        order_type: { kind: 'Spot' },
        trigger_1: bounded('Sell', 3_100n * USDC, 30n * USDC),
        trigger_2: bounded('Sell', 2_900n * USDC, 30n * USDC),
      },
    ]);
    if (isRevert(done)) throw new Error(done.message);
    const entry = done.orders[0] as OrderRecord;
    expect(filledQuantity(entry)).toBe(ETH / 2n);
    const [takeProfit, stopLoss] = f.legs(f.alice);
    expect(takeProfit).toMatchObject({ direction: 'rise', parentId: entry.id, expectedQuantity: ETH / 2n, ocoId: stopLoss!.id, locked: 0n });
    expect(takeProfit!.leg.quantity).toEqual({ kind: 'ParentOrder', parent_order_id: entry.id });
    // A bid inside the take-profit's bounds, then a trade at 3100.
    placed(place(f, f.bob, 'Buy', 3_090n * USDC, ETH));
    placed(place(f, f.bob, 'Sell', 3_100n * USDC, ETH / 10n));
    placed(place(f, f.bob, 'Buy', 3_100n * USDC, ETH / 10n));
    expect(takeProfit).toMatchObject({ state: 'fired' });
    expect(stopLoss).toMatchObject({ state: 'cancelled', reason: 'OcoSiblingFired' });
    const fired = f.market.orders.get(takeProfit!.firedOrderId as string) as OrderRecord;
    expect(filledQuantity(fired)).toBe(ETH / 2n);
    expect(fired).toMatchObject({ side: 'Sell', orderType: { kind: 'BoundedMarket', max_price: 3_130n * USDC, min_price: 3_070n * USDC } });
    expect(orderFills(fired)[0]).toMatchObject({ price: 3_090n * USDC });
    expect(f.engine.fired).toBe(1);
    expect(f.ledger.checkInvariants()).toEqual([]);
  });

  it('legs of an unfilled parent stay dormant through a crossing and go when the parent is cancelled', () => {
    const f = setup();
    const done = f.batch(f.alice, [{ kind: 'CreateOrderWithTriggers', side: 'Buy', price: 2_950n * USDC, quantity: ETH / 2n, order_type: { kind: 'Spot' }, trigger_1: bounded('Sell', 3_050n * USDC, 20n * USDC) }]);
    if (isRevert(done)) throw new Error(done.message);
    const entry = done.orders[0] as OrderRecord;
    const [leg] = f.legs(f.alice);
    placed(place(f, f.bob, 'Sell', 3_060n * USDC, ETH / 10n));
    placed(place(f, f.bob, 'Buy', 3_060n * USDC, ETH / 10n));
    expect(leg).toMatchObject({ state: 'pending' });
    const cancelled = f.batch(f.alice, [{ kind: 'CancelOrder', order_id: entry.id }]);
    expect(isRevert(cancelled)).toBe(false);
    expect(leg).toMatchObject({ state: 'cancelled', reason: 'ParentCancelled' });
  });

  it('legs of an immediate-or-cancel parent that filled nothing are cancelled at once', () => {
    const f = setup();
    const done = f.batch(f.alice, [{ kind: 'CreateOrderWithTriggers', side: 'Buy', price: 2_000n * USDC, quantity: ETH / 2n, order_type: { kind: 'Market' }, trigger_1: bounded('Sell', 3_050n * USDC, 20n * USDC) }]);
    if (isRevert(done)) throw new Error(done.message);
    expect(f.legs(f.alice)[0]).toMatchObject({ state: 'cancelled', reason: 'ParentNotFilled' });
  });

  it('an explicit OCO pair: the first leg holds the escrow for both; the second fires, the first is cancelled, the rest stays with the account', () => {
    const f = setup();
    const quote = f.config.quote.asset;
    const before = f.alice.balances.get(quote);
    // Buy legs: a take-profit on a short at 2900 (limit 2905) and a stop at 3100 (bounded up to 3110).
    const stop = bounded('Buy', 3_100n * USDC, 10n * USDC, ETH / 10n);
    const profit = limit('Buy', 2_900n * USDC, 2_905n * USDC, ETH / 10n);
    const done = f.batch(f.alice, [{ kind: 'CreateTriggerOrders', first: stop, second: profit }]);
    if (isRevert(done)) throw new Error(done.message);
    const [first, second] = f.legs(f.alice);
    expect(first).toMatchObject({ locked: 311n * USDC, ownLock: 311n * USDC });
    expect(second).toMatchObject({ locked: 0n, ownLock: 2905n * (USDC / 10n) });
    expect(f.alice.balances.get(quote)).toBe(before - 311n * USDC);
    placed(place(f, f.bob, 'Sell', 2_900n * USDC, ETH)); // an ask at 2900 the limit leg can take
    placed(place(f, f.bob, 'Buy', 2_900n * USDC, ETH / 10n)); // bob takes 0.1 of his own ask: a trade prints at 2900
    expect(second).toMatchObject({ state: 'fired' });
    expect(first).toMatchObject({ state: 'cancelled', reason: 'OcoSiblingFired', locked: 0n });
    const fired = f.market.orders.get(second!.firedOrderId as string) as OrderRecord;
    expect(filledQuantity(fired)).toBe(ETH / 10n);
    expect(f.ledger.checkInvariants()).toEqual([]);
  });

  it('cancelling the escrow-holding leg of a pair hands the sibling its own lock', () => {
    const f = setup();
    const stop = bounded('Buy', 3_100n * USDC, 10n * USDC, ETH / 10n);
    const profit = limit('Buy', 2_900n * USDC, 2_905n * USDC, ETH / 10n);
    const done = f.batch(f.alice, [{ kind: 'CreateTriggerOrders', first: stop, second: profit }]);
    if (isRevert(done)) throw new Error(done.message);
    const [first, second] = f.legs(f.alice);
    f.batch(f.alice, [{ kind: 'CancelTriggerOrder', order_id: first!.id }]);
    expect(second).toMatchObject({ state: 'pending', locked: 2905n * (USDC / 10n) });
    expect(f.market.balanceOf(f.alice.id).quoteLocked).toBe(2905n * (USDC / 10n));
    expect(f.ledger.checkInvariants()).toEqual([]);
  });

  it('a fire whose order reverts cancels the leg with the order’s reason (a limit outside the price window)', () => {
    const f = setup();
    // A sell-stop at 2900 whose limit is 2000: 31 % below the market when it fires (window 20 %).
    const done = f.batch(f.alice, [{ kind: 'CreateTriggerOrder', args: limit('Sell', 2_900n * USDC, 2_000n * USDC, ETH / 10n) }]);
    if (isRevert(done)) throw new Error(done.message);
    placed(place(f, f.bob, 'Buy', 2_900n * USDC, ETH / 10n));
    placed(place(f, f.bob, 'Sell', 2_900n * USDC, ETH / 10n));
    expect(f.legs(f.alice)[0]).toMatchObject({ state: 'cancelled', reason: 'PriceOutsideWindow', locked: 0n });
    expect(f.market.balanceOf(f.alice.id).baseLocked).toBe(0n);
    expect(f.ledger.checkInvariants()).toEqual([]);
  });

  it('refuses, as reverts that leave nothing behind: a trigger at the last price, a wrong expected_quantity, a same-side leg, an explicit attached size', () => {
    const f = setup();
    const parent = placed(place(f, f.alice, 'Buy', 2_950n * USDC, ETH / 2n));
    const fromParent = (leg: TriggerLeg): TriggerLeg => ({ ...leg, quantity: { kind: 'ParentOrder', parent_order_id: parent.id } });
    expect(f.batch(f.alice, [{ kind: 'CreateTriggerOrder', args: limit('Sell', 3_000n * USDC, 2_990n * USDC, ETH / 4n) }])).toMatchObject({ reason: 'TriggerAtMarket' });
    expect(f.batch(f.alice, [{ kind: 'CreateTriggerOrder', args: fromParent(bounded('Sell', 2_900n * USDC, 10n * USDC)), parent: { order_id: parent.id, expected_quantity: ETH } }])).toMatchObject({
      reason: 'ExpectedQuantityMismatch',
    });
    expect(f.batch(f.alice, [{ kind: 'CreateTriggerOrder', args: fromParent(bounded('Buy', 2_900n * USDC, 10n * USDC)), parent: { order_id: parent.id, expected_quantity: ETH / 2n } }])).toMatchObject({
      reason: 'TriggerSameSide',
    });
    expect(
      f.batch(f.alice, [{ kind: 'CreateOrderWithTriggers', side: 'Buy', price: 2_950n * USDC, quantity: ETH / 2n, order_type: { kind: 'Spot' }, trigger_1: bounded('Sell', 2_900n * USDC, 10n * USDC, ETH / 2n) }]),
    ).toMatchObject({ reason: 'QuantityMustBeParentOrder' });
    // A batch whose second action reverts takes its first leg (and the leg's escrow) back.
    const before = f.alice.balances.get(f.config.base.asset);
    const atomic = f.batch(f.alice, [
      { kind: 'CreateTriggerOrder', args: limit('Sell', 2_900n * USDC, 2_890n * USDC, ETH / 4n) },
      { kind: 'CancelOrder', order_id: `0x${'ee'.repeat(32)}` as B256 },
    ]);
    expect(atomic).toMatchObject({ reason: 'OrderNotFound' });
    expect(f.legs(f.alice)).toEqual([]);
    expect(f.alice.balances.get(f.config.base.asset)).toBe(before);
    // Bound to the parent with the right expected quantity: accepted, dormant, cancelled with it.
    const bound = f.batch(f.alice, [{ kind: 'CreateTriggerOrder', args: fromParent(bounded('Sell', 2_900n * USDC, 10n * USDC)), parent: { order_id: parent.id, expected_quantity: ETH / 2n } }]);
    expect(isRevert(bound)).toBe(false);
    f.batch(f.alice, [{ kind: 'CancelOrder', order_id: parent.id }]);
    expect(f.legs(f.alice)[0]).toMatchObject({ state: 'cancelled', reason: 'ParentCancelled' });
    expect(f.ledger.checkInvariants()).toEqual([]);
  });

  it('only trades printed after a leg was judged can fire it: a stop placed after a sweep in the same batch waits', () => {
    const f = setup();
    placed(place(f, f.bob, 'Sell', 3_010n * USDC, ETH / 10n));
    placed(place(f, f.bob, 'Sell', 3_030n * USDC, ETH / 10n));
    // The sweep prints 3010 then 3030; the stop at 3020 is judged after it (below 3030: fall).
    const done = f.batch(f.alice, [order('Buy', 3_030n * USDC, ETH / 5n, { kind: 'Market' }), { kind: 'CreateTriggerOrder', args: limit('Sell', 3_020n * USDC, 3_015n * USDC, ETH / 10n) }]);
    if (isRevert(done)) throw new Error(done.message);
    const [leg] = f.legs(f.alice);
    expect(leg).toMatchObject({ state: 'pending', direction: 'fall' });
    // An attached leg is judged before its own order trades: the same sweep fires it.
    placed(place(f, f.bob, 'Sell', 3_050n * USDC, ETH));
    const bracket = f.batch(f.alice, [{ kind: 'CreateOrderWithTriggers', side: 'Buy', price: 3_050n * USDC, quantity: ETH / 10n, order_type: { kind: 'Spot' }, trigger_1: bounded('Sell', 3_040n * USDC, 20n * USDC) }]);
    if (isRevert(bracket)) throw new Error(bracket.message);
    const attached = f.legs(f.alice).find((record) => record.parentId !== undefined);
    expect(attached).toMatchObject({ direction: 'rise', state: 'fired' });
  });

  it('a Turbo group refuses bounded legs beyond trigger_max_slippage (150 bps on ETH/USDC)', () => {
    const f = setup();
    const wide = f.batch(f.alice, [{ kind: 'CreateTriggerOrder', args: bounded('Sell', 2_900n * USDC, 50n * USDC, ETH / 10n) }], true);
    expect(wide).toMatchObject({ reason: 'TriggerSlippageExceeded' });
    const narrow = f.batch(f.alice, [{ kind: 'CreateTriggerOrder', args: bounded('Sell', 2_900n * USDC, 40n * USDC, ETH / 10n) }], true);
    expect(isRevert(narrow)).toBe(false);
    const link = f.ledger.turbo.get(f.config.market_id) as TurboLink;
    expect(link.turbo.triggers.pendingOf(f.alice.id)[0]).toMatchObject({ turbo: true, direction: 'fall' });
    expect(f.ledger.checkInvariants()).toEqual([]);
  });
});
