// The trader-session postconditions (test/support/trader-session/postconditions.ts): each action's
// contract on the exchange (docs/actions.md). Each check must pass what the contract allows (fills
// and fired legs racing the check included) and report what it forbids.
import { describe, expect, it } from 'vitest';
import { checkAmended, checkCancelOne, checkFlatten, checkPartialClose, checkReverse, checkLegCancelled, checkLegMoved, checkLegsPlaced, checkNothingLeft, checkPlaced, checkUnchanged, largestWhole, plainUnits, statedClose, wholeQuoteBound } from '../../../support/trader-session/postconditions';
import type { RestingState, TruthOrder, TruthTrigger } from '../../../support/trader-session/truth';
import { b256 } from '../../../../shared/encoding/b256';
import type { Market } from '../../../../shared/market/market';

const TRADER = `0x${'11'.repeat(32)}`;
const TURBO = `0x${'22'.repeat(32)}`;
const MARKET = `0x${'a1'.repeat(32)}`;
const OTHER_MARKET = `0x${'a2'.repeat(32)}`;
const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** ETH/USDC: ETH 9 decimals on a step of 0.001 (10^6 raw), USDC 6 decimals. */
const market: Market = {
  contract_id: b256(`0x${'c1'.repeat(32)}`),
  market_id: b256(MARKET),
  base: { symbol: 'ETH', asset: b256(`0x${'ba'.repeat(32)}`), decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: b256(`0x${'9c'.repeat(32)}`), decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000n,
  dust: 1_000_000n,
  price_window: 20,
};

function order(n: number, change: Partial<TruthOrder> = {}): TruthOrder {
  return { orderId: id(n), timestamp: BigInt(n), account: TRADER, marketId: MARKET, turbo: false, side: 'Buy', kind: 'Spot', price: 3_000_000_000n, quantity: 5_000_000n, filled: 0n, averagePrice: 0n, status: 'open', fills: [], ...change };
}

function leg(n: number, change: Partial<TruthTrigger> = {}): TruthTrigger {
  return { triggerId: id(n), account: TRADER, marketId: MARKET, turbo: false, side: 'Sell', triggerPrice: 2_900_000_000n, kind: 'Market', quantity: null, parentOrderId: null, ocoId: null, ...change };
}

const state = (open: TruthOrder[], triggers: TruthTrigger[] = []): RestingState => ({ open, triggers });

describe('postcondition: kill switch and cancel all in a market', () => {
  const before = state([order(1), order(2, { turbo: true, account: TURBO }), order(3, { marketId: OTHER_MARKET })], [leg(10), leg(11, { parentOrderId: id(1) })]);

  it('passes when nothing of any account is open or pending on any book', () => {
    expect(checkNothingLeft(before, state([]), 'Cancelled 3 orders and 2 triggers')).toEqual([]);
  });

  it('FAILS a stop left pending (the kill switch cancelled orders only)', () => {
    const problems = checkNothingLeft(before, state([], [leg(10)]), 'Cancelled 3 of 3 open orders in 1 signed batch');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/leg 0x000000…000a .*still pending after the kill switch/);
  });

  it('FAILS an order left open on a Turbo book, unless the report names it', () => {
    const left = state([order(2, { turbo: true, account: TURBO })]);
    expect(checkNothingLeft(before, left, 'Cancelled 2 of 3')).toEqual([expect.stringMatching(/Turbo book.*still open/)]);
    expect(checkNothingLeft(before, left, `1 could not be cancelled: ${id(2).slice(0, 8)}…${id(2).slice(-4)}: InsufficientGas`)).toEqual([]);
  });

  it('is not fooled by ids that share their first characters (every id of one exchange does)', () => {
    const problems = checkNothingLeft(before, state([], [leg(10)]), `could not cancel ${id(1)}`);
    expect(problems).toEqual([expect.stringMatching(/leg 0x000000…000a .*still pending/)]);
  });

  it('excuses an order a pending leg became while the kill switch ran (the leg is gone, the order is new)', () => {
    const fired = order(20, { side: 'Sell' });
    expect(checkNothingLeft(before, state([fired]), '')).toEqual([]);
    // Not an order no leg explains: a Buy, and no Buy leg went.
    expect(checkNothingLeft(before, state([order(21, { side: 'Buy' })]), '')).toHaveLength(1);
  });

  it('cancel all in a market holds that market only', () => {
    const after = state([order(3, { marketId: OTHER_MARKET })], [leg(12, { marketId: OTHER_MARKET })]);
    expect(checkNothingLeft(before, after, '', MARKET)).toEqual([]);
    expect(checkNothingLeft(before, state([], [leg(10)]), '', MARKET)).toEqual([expect.stringMatching(/cancel all in the market/)]);
  });
});

describe('postcondition: cancel one', () => {
  const before = state([order(1), order(2)], [leg(10, { parentOrderId: id(1) }), leg(11, { parentOrderId: id(1) })]);

  it('passes when the order was cancelled and its legs went with it', () => {
    expect(checkCancelOne(id(1), before, state([order(2)]), new Map([[id(1), order(1, { status: 'cancelled' })]]))).toEqual([]);
  });

  it('passes an order that filled before the cancel reached it: its legs stay, protecting the position', () => {
    const after = state([order(2)], [leg(10, { parentOrderId: id(1) }), leg(11, { parentOrderId: id(1) })]);
    expect(checkCancelOne(id(1), before, after, new Map([[id(1), order(1, { status: 'filled', filled: 5_000_000n })]]))).toEqual([]);
  });

  it('FAILS an order still open, legs left behind a cancelled order, and another order cancelled', () => {
    expect(checkCancelOne(id(1), before, before, new Map())).toEqual([expect.stringMatching(/still open after its Cancel/)]);
    const after = state([], [leg(10, { parentOrderId: id(1) })]);
    const problems = checkCancelOne(id(1), before, after, new Map([[id(1), order(1, { status: 'cancelled' })], [id(2), order(2, { status: 'cancelled' })]]));
    expect(problems).toEqual([expect.stringMatching(/leg 0x000000…000a .*still pending though the order it belongs to was cancelled/), expect.stringMatching(/order 0x000000…0002 .*cancelled by cancel one/)]);
  });
});

describe('postcondition: place', () => {
  const entered = { account: TRADER, marketId: MARKET, turbo: false, side: 'Buy' as const, price: 3_000_000_000n, quantity: 5_000_000n, kinds: ['Spot'] };

  it('passes exactly one order as entered, filled at once or resting', () => {
    expect(checkPlaced(entered, [order(5)], '')).toEqual([]);
    expect(checkPlaced(entered, [order(5, { status: 'filled', filled: 5_000_000n })], '')).toEqual([]);
  });

  it('passes none when the refusal is shown, and FAILS none without one', () => {
    expect(checkPlaced(entered, [], 'INSUFFICIENT_BALANCE: 3 USDC needed, 1 available')).toEqual([]);
    expect(checkPlaced(entered, [], '  ')).toEqual([expect.stringMatching(/no order reached the exchange and the screen shows no refusal/)]);
  });

  it('FAILS a size taken from another control, a wrong side, price or kind, and two orders for one action', () => {
    expect(checkPlaced(entered, [order(5, { quantity: 3_000_000n })], '')).toEqual([expect.stringMatching(/quantity 3000000; the step entered Buy Spot 5000000/)]);
    expect(checkPlaced(entered, [order(5, { side: 'Sell', price: 3_000_010_000n, kind: 'Limit' })], '')).toHaveLength(3);
    expect(checkPlaced(entered, [order(5), order(6)], '')).toEqual([expect.stringMatching(/2 orders reached the exchange/)]);
  });

  it('takes a Turbo book\'s Market order sent as BoundedMarket for the Market entered, and nothing else for it', () => {
    const market = { account: TURBO, marketId: MARKET, turbo: true, side: 'Sell' as const, quantity: 5_000_000n, kinds: ['Market', 'BoundedMarket'] };
    expect(checkPlaced(market, [order(5, { account: TURBO, turbo: true, side: 'Sell', kind: 'BoundedMarket' })], '')).toEqual([]);
    expect(checkPlaced(market, [order(5, { account: TURBO, turbo: true, side: 'Sell', kind: 'Spot' })], '')).toEqual([expect.stringMatching(/is a Spot/)]);
  });

  it('looks only at the signing account\'s book', () => {
    expect(checkPlaced({ ...entered, turbo: true, account: TURBO }, [order(5)], '')).toEqual([expect.stringMatching(/no order/)]);
    expect(checkPlaced({ ...entered, turbo: true, account: TURBO }, [order(5, { turbo: true, account: TURBO })], '')).toEqual([]);
  });
});

describe('postcondition: legs (stop, OCO pair, bracket)', () => {
  const where = { account: TRADER, marketId: MARKET, turbo: false };
  const before = state([]);

  it('passes a stop as entered, an OCO pair naming each other, a bracket\'s legs bound to the entry', () => {
    expect(checkLegsPlaced(where, [{ side: 'Sell', triggerPrice: 2_900_000_000n, quantity: 5_000_000n }], before, state([], [leg(10, { quantity: 5_000_000n })]), '')).toEqual([]);
    const pair = [leg(10, { quantity: 5_000_000n, ocoId: id(11) }), leg(11, { quantity: 5_000_000n, triggerPrice: 3_100_000_000n, ocoId: id(10) })];
    const entered = [
      { side: 'Sell' as const, triggerPrice: 2_900_000_000n, quantity: 5_000_000n },
      { side: 'Sell' as const, triggerPrice: 3_100_000_000n, quantity: 5_000_000n },
    ];
    expect(checkLegsPlaced(where, entered, before, state([], pair), '', { oco: true })).toEqual([]);
    const bracket = [leg(10, { parentOrderId: id(1) }), leg(11, { parentOrderId: id(1), triggerPrice: 3_100_000_000n })];
    expect(checkLegsPlaced(where, entered.map((entry) => ({ ...entry, quantity: null })), before, state([], bracket), '', { parentOrderId: id(1) })).toEqual([]);
  });

  it('FAILS a leg at another trigger price, an OCO pair that does not name each other, a leg bound elsewhere', () => {
    expect(checkLegsPlaced(where, [{ side: 'Sell', triggerPrice: 2_900_000_000n, quantity: null }], before, state([], [leg(10, { triggerPrice: 2_800_000_000n })]), '')).toHaveLength(2);
    const pair = [leg(10), leg(11, { triggerPrice: 3_100_000_000n })];
    const entered = [
      { side: 'Sell' as const, triggerPrice: 2_900_000_000n, quantity: null },
      { side: 'Sell' as const, triggerPrice: 3_100_000_000n, quantity: null },
    ];
    expect(checkLegsPlaced(where, entered, before, state([], pair), '', { oco: true })).toEqual([expect.stringMatching(/OCO legs do not name each other/)]);
    expect(checkLegsPlaced(where, entered.slice(0, 1), before, state([], [leg(10, { parentOrderId: id(9) })]), '', { parentOrderId: id(1) })).toEqual([expect.stringMatching(/not bound to its entry/)]);
  });

  it('passes a leg that fired at once (an order of its side is new), and none with the refusal shown', () => {
    expect(checkLegsPlaced(where, [{ side: 'Sell', triggerPrice: 2_900_000_000n, quantity: null }], before, state([]), '', { firedOrders: [order(30, { side: 'Sell' })] })).toEqual([]);
    expect(checkLegsPlaced(where, [{ side: 'Sell', triggerPrice: 2_900_000_000n, quantity: null }], before, state([]), 'TRIGGER_WOULD_FIRE')).toEqual([]);
    expect(checkLegsPlaced(where, [{ side: 'Sell', triggerPrice: 2_900_000_000n, quantity: null }], before, state([]), '')).toHaveLength(1);
  });
});

describe('postcondition: amend (table, ladder drag, chart drag)', () => {
  const old = order(1);
  const legs = [leg(10, { parentOrderId: id(1) }), leg(11, { parentOrderId: id(1), triggerPrice: 3_200_000_000n, kind: 'Limit' })];
  const before = state([old], legs);
  const amended = { old, price: 2_985_000_000n, quantity: 5_000_000n };
  const replacement = order(2, { price: 2_985_000_000n });
  const carried = [leg(12, { parentOrderId: id(2) }), leg(13, { parentOrderId: id(2), triggerPrice: 3_200_000_000n, kind: 'Limit' })];

  it('passes the old order gone and one at the new price with the legs carried', () => {
    expect(checkAmended(amended, { ...old, status: 'cancelled' }, [replacement], before, state([replacement], carried), '')).toEqual([]);
  });

  it('FAILS an amend that dropped the legs (the parent cancelled, the legs with it)', () => {
    const problems = checkAmended(amended, { ...old, status: 'cancelled' }, [replacement], before, state([replacement]), '');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/leg 0x000000…000a .*was not carried to the new order 0x000000…0002/);
  });

  it('FAILS a leg carried at another trigger price, both orders open, neither open, the wrong price or size', () => {
    expect(checkAmended(amended, { ...old, status: 'cancelled' }, [replacement], before, state([replacement], [carried[0]!, { ...carried[1]!, triggerPrice: 3_100_000_000n }]), '')).toHaveLength(1);
    expect(checkAmended(amended, old, [replacement], before, state([old, replacement], legs), '')).toEqual([expect.stringMatching(/both the old/)]);
    expect(checkAmended(amended, { ...old, status: 'cancelled' }, [], before, state([]), '')).toEqual([expect.stringMatching(/no order replaced it/)]);
    expect(checkAmended(amended, { ...old, status: 'cancelled' }, [order(2, { price: 2_990_000_000n, quantity: 4_000_000n })], before, state([], []), '').filter((line) => /has (price|quantity)/.test(line))).toHaveLength(2);
  });

  it('passes a refused amend that left the order and its legs as they were, and an order that filled first', () => {
    expect(checkAmended(amended, old, [], before, before, 'AMEND_CARRIES_LEGS: the take-profit and the stop-loss …')).toEqual([]);
    expect(checkAmended(amended, old, [], before, before, '')).toEqual([expect.stringMatching(/unchanged after the amend and the screen shows no refusal/)]);
    expect(checkAmended(amended, { ...old, status: 'filled', filled: 5_000_000n }, [], before, state([], legs), '')).toEqual([]);
  });

  it('a drag (no price known) wants another price than the old one', () => {
    const move = { old, quantity: 5_000_000n };
    expect(checkAmended(move, { ...old, status: 'cancelled' }, [replacement], before, state([replacement], carried), '')).toEqual([]);
    expect(checkAmended(move, { ...old, status: 'cancelled' }, [order(2)], before, state([order(2)], [leg(12, { parentOrderId: id(2) }), leg(13, { parentOrderId: id(2), triggerPrice: 3_200_000_000n, kind: 'Limit' })]), '')).toEqual([expect.stringMatching(/old price/)]);
  });
});

describe('postcondition: flatten', () => {
  const position = { account: TRADER, turbo: false, size: 44_172_755n };

  it('reads the size a dialog states', () => {
    expect(statedClose(['Sell 0.044 ETH on ETH/USDC, Canonical book, at market'], market)).toEqual({ side: 'Sell', quantity: 44_000_000n });
    expect(statedClose(['Buy 1,234.5 ETH on ETH/USDC'], market)).toEqual({ side: 'Buy', quantity: 1_234_500_000_000n });
    expect(plainUnits(172_755n, 9)).toBe('0.000172755');
  });

  it('passes a close of the position floored to the step, the remainder stated, one order of that size', () => {
    const dialog = ['Sell 0.044 ETH on ETH/USDC, Canonical book, at market; 0.000172755 ETH remains (below the size step)'];
    expect(checkFlatten(market, position, dialog, [order(5, { side: 'Sell', quantity: 44_000_000n, kind: 'BoundedMarket' })], '')).toEqual([]);
  });

  it('FAILS a dialog promising the whole position (more than an order can sell) and a remainder not stated', () => {
    const dialog = ['Sell 0.044172755 ETH on ETH/USDC, Canonical book, at market'];
    const problems = checkFlatten(market, position, dialog, [order(5, { side: 'Sell', quantity: 44_000_000n })], '');
    expect(problems).toEqual([
      expect.stringMatching(/says Sell 0.044172755 ETH; the position on the exchange is 0.044172755, which an order closes 0.044 of/),
      expect.stringMatching(/does not state the remainder 0.000172755 ETH/),
      expect.stringMatching(/quantity 44000000; the step entered Sell 44172755/),
    ]);
  });

  it('FAILS a closing order of another size than stated, and passes a short closed by a buy', () => {
    const dialog = ['Sell 0.044 ETH; the rest, 0.000172755 ETH, remains'];
    expect(checkFlatten(market, position, dialog, [order(5, { side: 'Sell', quantity: 45_000_000n })], '')).toEqual([expect.stringMatching(/quantity 45000000/)]);
    expect(checkFlatten(market, { ...position, size: -3_000_000n }, ['Buy 0.003 ETH on ETH/USDC'], [order(5, { side: 'Buy', quantity: 3_000_000n })], '')).toEqual([]);
  });
});

describe('postcondition: flatten where the step floor is not a whole quote amount at the bound', () => {
  // ETH/USDT: the bound 2,964.467 USDT makes 0.0049 ETH worth 14,525.8883 raw USDT units; 0.004 is whole.
  const usdt: Market = { ...market, base: { ...market.base, max_precision: 4 }, quote: { ...market.quote, symbol: 'USDT', max_precision: 3 } };
  const position = { account: TRADER, turbo: false, size: 4_999_000n };
  const dialog = ['Sell 0.004 ETH on ETH/USDT, Canonical book, at market, no worse than 1 % below the bid of 2,994.411 USDT', 'This leaves 0.000999 ETH, not worth a whole number of USDT units at 2964.467 USDT in any multiple of the step: no order can close it'];

  it('reads the bound and the largest whole size under the step floor', () => {
    expect(wholeQuoteBound(dialog, usdt)).toBe(2_964_467_000n);
    expect(largestWhole(4_900_000n, 100_000n, 2_964_467_000n, 9)).toBe(4_000_000n);
  });

  it('passes the close plan the dialog states with its reason, one order of that size', () => {
    expect(checkFlatten(usdt, position, dialog, [order(5, { side: 'Sell', quantity: 4_000_000n, kind: 'BoundedMarket' })], '')).toEqual([]);
  });

  it('FAILS a size below the plan, and a reason that is not true at the bound it names', () => {
    const less = ['Sell 0.003 ETH on ETH/USDT', 'This leaves 0.001999 ETH, not worth a whole number of USDT units at 2964.467 USDT'];
    expect(checkFlatten(usdt, position, less, [order(5, { side: 'Sell', quantity: 3_000_000n })], '')).toEqual([expect.stringMatching(/says Sell 0.003 ETH/)]);
    const untrue = ['Sell 0.004 ETH on ETH/USDT', 'This leaves 0.000999 ETH, not worth a whole number of USDT units at 2960 USDT'];
    expect(checkFlatten(usdt, position, untrue, [order(5, { side: 'Sell', quantity: 4_000_000n })], '')).toEqual([expect.stringMatching(/says Sell 0.004 ETH/)]);
  });
});

describe('postcondition: network or account switch', () => {
  const before = state([order(1), order(2)], [leg(10)]);

  it('passes the same orders and legs, bar an order that filled meanwhile', () => {
    expect(checkUnchanged(before, before, new Map(), 'a switch to devnet')).toEqual([]);
    expect(checkUnchanged(before, state([order(1)], [leg(10)]), new Map([[id(2), order(2, { status: 'filled' })]]), 'a switch to devnet')).toEqual([]);
  });

  it('FAILS an order cancelled by the switch, and an order or leg placed by it', () => {
    expect(checkUnchanged(before, state([order(1)], [leg(10)]), new Map([[id(2), order(2, { status: 'cancelled' })]]), 'a switch to devnet')).toEqual([expect.stringMatching(/cancelled by a switch to devnet/)]);
    expect(checkUnchanged(before, state([order(1), order(2), order(3)], [leg(10), leg(11)]), new Map(), 'a switch to devnet')).toHaveLength(2);
  });
});

describe('postcondition: cancel and move a leg', () => {
  const pair = [leg(10, { ocoId: id(11), quantity: 5_000_000n }), leg(11, { ocoId: id(10), quantity: 5_000_000n, triggerPrice: 3_100_000_000n })];
  const before = state([order(1)], [...pair, leg(12, { parentOrderId: id(1) })]);

  it("cancel: passes the leg gone, its pair's other leg and its parent kept; FAILS the leg left, the other leg or the parent taken along", () => {
    expect(checkLegCancelled(id(10), before, state([order(1)], [pair[1]!, leg(12, { parentOrderId: id(1) })]), new Map())).toEqual([]);
    expect(checkLegCancelled(id(10), before, before, new Map())).toEqual([expect.stringMatching(/still pending after its Cancel/)]);
    expect(checkLegCancelled(id(10), before, state([order(1)], [leg(12, { parentOrderId: id(1) })]), new Map())).toEqual([expect.stringMatching(/went with the other leg of its pair/)]);
    expect(checkLegCancelled(id(12), before, state([], pair), new Map([[id(1), order(1, { status: 'cancelled' })]]))).toEqual([expect.stringMatching(/cancelled by cancelling a leg/)]);
  });

  it('move: passes one leg at the new price with its sibling re-created; FAILS another price, a lost sibling, both kept', () => {
    const movedPair = [leg(20, { ocoId: id(21), quantity: 5_000_000n, triggerPrice: 2_800_000_000n }), leg(21, { ocoId: id(20), quantity: 5_000_000n, triggerPrice: 3_100_000_000n })];
    expect(checkLegMoved(id(10), 2_800_000_000n, before, state([order(1)], [...movedPair, leg(12, { parentOrderId: id(1) })]), '', [])).toEqual([]);
    expect(checkLegMoved(id(10), 2_800_000_000n, before, state([order(1)], [{ ...movedPair[0]!, triggerPrice: 2_810_000_000n }, movedPair[1]!]), '', [])).toEqual([expect.stringMatching(/is gone after the move/)]);
    expect(checkLegMoved(id(10), 2_800_000_000n, before, state([order(1)], [movedPair[0]!]), '', [])).toEqual([expect.stringMatching(/was not re-created/)]);
    expect(checkLegMoved(id(10), 2_800_000_000n, before, state([order(1)], [...pair, movedPair[0]!]), '', [])).toEqual([expect.stringMatching(/both the old/)]);
  });

  it('move: passes a refusal shown with the leg unchanged, and a leg that fired first', () => {
    expect(checkLegMoved(id(10), 2_800_000_000n, before, before, 'TRIGGER_WOULD_FIRE: …', [])).toEqual([]);
    expect(checkLegMoved(id(10), 2_800_000_000n, before, before, '', [])).toHaveLength(1);
    expect(checkLegMoved(id(10), 2_800_000_000n, before, state([order(1)], [leg(12, { parentOrderId: id(1) })]), '', [order(30, { side: 'Sell' })])).toEqual([]);
  });
});

describe('postcondition: partial close and reverse', () => {
  const position = { account: TRADER, turbo: false, size: 44_172_755n };

  it('passes a 50 % close of the share floored to the step, the rounding stated, one order of that size', () => {
    const dialog = ['Sell 0.022 ETH on ETH/USDC, Canonical book, at market', '50 % is 0.022086377 ETH, rounded down to 0.022 ETH (the 0.0001 ETH size step).', 'Leaves a long of 0.022172755 ETH.'];
    expect(checkPartialClose(market, position, 50, dialog, [order(5, { side: 'Sell', quantity: 22_000_000n, kind: 'BoundedMarket' })], '')).toEqual([]);
  });

  it('FAILS a partial close above the share, a rounding not stated, or two orders', () => {
    expect(checkPartialClose(market, position, 50, ['Sell 0.0221 ETH on ETH/USDC'], [order(5, { side: 'Sell', quantity: 22_100_000n })], '')).toEqual([
      expect.stringMatching(/says Sell 0.0221 ETH; 50 % of the position on the exchange \(0.044172755\) is 0.022086377/),
    ]);
    expect(checkPartialClose(market, position, 50, ['Sell 0.022 ETH on ETH/USDC'], [order(5, { side: 'Sell', quantity: 22_000_000n })], '')).toEqual([expect.stringMatching(/does not state that 50 % is 0.022086377 ETH/)]);
    expect(checkPartialClose(market, position, 50, ['Sell 0.022 ETH', '50 % is 0.022086377 ETH'], [order(5, { side: 'Sell', quantity: 22_000_000n }), order(6, { side: 'Sell', quantity: 22_000_000n })], '')).toEqual([expect.stringMatching(/2 orders reached the exchange/)]);
  });

  it('passes a reverse of two orders of the closed size on one side, and FAILS one order alone', () => {
    const dialog = ['Sell 0.044 ETH on ETH/USDC, Canonical book, at market, to close the long', 'then Sell 0.044 ETH more at the same bound', 'The close leaves 0.000172755 ETH, below the 0.0001 ETH size step'];
    const two = [order(5, { side: 'Sell', quantity: 44_000_000n }), order(6, { side: 'Sell', quantity: 44_000_000n })];
    expect(checkReverse(market, position, dialog, two, '')).toEqual([]);
    expect(checkReverse(market, position, dialog, two.slice(0, 1), '')).toEqual([expect.stringMatching(/1 order reached the exchange for a reverse/)]);
    expect(checkReverse(market, position, dialog, [], 'Reverse refused')).toEqual([]);
  });
});

describe('a guard’s refusal (trader-session step GuardRefusal)', () => {
  const entry = { kind: 'notional' as const, side: 'Buy' as const, price: 2_970_000_000n, quantity: 5_000_000n };
  const named = 'Order refused: 0.005 ETH at 2,970.00 USDC is 14.85 USDC: above your maximum order notional of 14.84 USDC on ETH/USDC (Canonical book) (Settings). Nothing was signed.';

  it('holds when nothing of the entered order reached the book and the screen named the guard', async () => {
    const { checkGuardRefused } = await import('../../../support/trader-session/steps/guards');
    expect(checkGuardRefused(entry, [], named)).toEqual([]);
    // Another order (a leg that fired, another price) is not the step's.
    expect(checkGuardRefused(entry, [order(7, { price: 2_960_000_000n })], named)).toEqual([]);
  });

  it('reports the entered order on the book, and a screen that does not name the guard', async () => {
    const { checkGuardRefused } = await import('../../../support/trader-session/steps/guards');
    expect(checkGuardRefused(entry, [order(8, { price: entry.price, quantity: entry.quantity })], named)).toEqual([expect.stringMatching(/^the notional guard let 0x0+8 .* reach the exchange$/)]);
    expect(checkGuardRefused(entry, [], 'Order placed')).toEqual([expect.stringMatching(/did not name the notional guard/)]);
    expect(checkGuardRefused({ ...entry, kind: 'position' }, [], named)).toEqual([expect.stringMatching(/did not name the position guard/)]);
  });
});
