// Pre-flight of trigger actions (checkAction): every rule that would make the book refuse a signed
// batch is found before signing, with a stable code and a message naming the leg.
import { describe, expect, it } from 'vitest';
import type { Market } from '../../../../shared/market/market';
import type { SessionAction } from '../../../../shared/protocol/actions';
import { ACTION_CODES, checkAction, type CheckActionContext } from '../../../../shared/protocol/check-action';
import { slippageBounds, triggerDirection, triggerReached, withinSlippage, type TriggerLeg } from '../../../../shared/protocol/trigger';
import { ids, market } from '../../../support/shared/protocol/fixtures';

const E = 1_000_000_000n;
const q = 250_000_000n;
const context: CheckActionContext = { market };
const parentId = ids.order;

// ETH/USDT-like: base 9/4, quote 6/3 (a price step of 0.001 USDT times a quantity step of 0.0001 ETH
// is not a whole quote unit), so FractionalPrice can happen on the tick.
const fractionalMarket: Market = {
  ...market,
  base: { ...market.base, decimals: 9, max_precision: 4 },
  quote: { ...market.quote, decimals: 6, max_precision: 3 },
  min_order: 1n,
  dust: 1n,
};
const turboRow = { ...market, turbo: true, trigger_max_slippage: 150n };

const stop = (overrides: Partial<TriggerLeg> = {}): TriggerLeg => ({
  order_type: { kind: 'MarketBounded', max_price: 1910n * E, min_price: 1890n * E },
  quantity: { kind: 'ParentOrder', parent_order_id: ids.zero },
  trigger_price: 1900n * E,
  side: 'Sell',
  ...overrides,
});
const entry = (legs: Partial<Extract<SessionAction, { kind: 'CreateOrderWithTriggers' }>> = {}): SessionAction => ({
  kind: 'CreateOrderWithTriggers',
  side: 'Buy',
  price: 2000n * E,
  quantity: q,
  order_type: { kind: 'Spot' },
  trigger_1: stop(),
  ...legs,
});
const explicit = (leg: TriggerLeg, quantity = q): TriggerLeg => ({ ...leg, quantity: { kind: 'Quantity', quantity } });

function code(action: SessionAction, extra: CheckActionContext = context): string | null {
  const checked = checkAction(action, extra);
  return checked.ok ? null : checked.code;
}

describe('checkAction: trigger legs', () => {
  it('accepts a bracket, a standalone leg bound to a parent, an explicit leg and an OCO pair', () => {
    expect(code(entry({ trigger_2: { ...stop(), order_type: { kind: 'Spot', price: 2200n * E }, trigger_price: 2190n * E } }))).toBeNull();
    expect(code({ kind: 'CreateTriggerOrder', args: stop({ quantity: { kind: 'ParentOrder', parent_order_id: parentId } }), parent: { order_id: parentId, expected_quantity: q } }, { market, parentSide: 'Buy' })).toBeNull();
    expect(code({ kind: 'CreateTriggerOrder', args: explicit(stop()) })).toBeNull();
    expect(code({ kind: 'CreateTriggerOrders', first: explicit(stop({ order_type: { kind: 'Market' } })), second: explicit(stop({ order_type: { kind: 'Spot', price: 2200n * E }, trigger_price: 2190n * E })) })).toBeNull();
  });

  it('refuses a leg on the same side as its parent, attached or standalone', () => {
    expect(code(entry({ trigger_1: stop({ side: 'Buy' }) }))).toBe(ACTION_CODES.TRIGGER_SAME_SIDE);
    const standalone: SessionAction = { kind: 'CreateTriggerOrder', args: stop({ quantity: { kind: 'ParentOrder', parent_order_id: parentId } }), parent: { order_id: parentId, expected_quantity: q } };
    expect(code(standalone, { market, parentSide: 'Sell' })).toBe(ACTION_CODES.TRIGGER_SAME_SIDE);
    const checked = checkAction(entry({ trigger_2: stop({ side: 'Buy' }) }), context);
    expect(checked).toMatchObject({ ok: false, details: { field: 'trigger_2' } });
    expect(!checked.ok && checked.message).toContain('must be a Sell');
  });

  it('refuses an explicit size, or a parent id, on a leg attached at placement', () => {
    expect(code(entry({ trigger_1: explicit(stop()) }))).toBe(ACTION_CODES.QUANTITY_MUST_BE_PARENT_ORDER);
    expect(code(entry({ trigger_1: stop({ quantity: { kind: 'ParentOrder', parent_order_id: parentId } }) }))).toBe(ACTION_CODES.QUANTITY_MUST_BE_PARENT_ORDER);
  });

  it('refuses a leg sized from an order that is not its parent, or without a parent', () => {
    expect(code({ kind: 'CreateTriggerOrder', args: stop({ quantity: { kind: 'ParentOrder', parent_order_id: parentId } }) })).toBe(ACTION_CODES.TRIGGER_PARENT_REQUIRED);
    expect(code({ kind: 'CreateTriggerOrder', args: stop({ quantity: { kind: 'ParentOrder', parent_order_id: ids.zero } }), parent: { order_id: parentId, expected_quantity: q } })).toBe(ACTION_CODES.TRIGGER_PARENT_MISMATCH);
  });

  it('refuses off-tick prices at the trigger and at the lock price (limit, bounds)', () => {
    const offTick = 1900n * E + 1n;
    expect(code(entry({ trigger_1: stop({ trigger_price: offTick }) }))).toBe('PRICE_PRECISION');
    expect(code(entry({ trigger_1: stop({ order_type: { kind: 'Spot', price: offTick } }) }))).toBe('PRICE_PRECISION');
    expect(code(entry({ trigger_1: stop({ order_type: { kind: 'MarketBounded', max_price: offTick + 10n * E, min_price: 1890n * E } }) }))).toBe('PRICE_PRECISION');
    expect(code(entry({ trigger_1: stop({ order_type: { kind: 'MarketBounded', max_price: 1890n * E, min_price: 1910n * E } }) }))).toBe('BOUNDS');
    expect(code(entry({ trigger_1: stop({ trigger_price: 0n }) }))).toBe('ZERO_PRICE');
  });

  it('refuses a fractional price at the lock price and at the trigger price', () => {
    const fractional: CheckActionContext = { market: fractionalMarket };
    // 0.0001 ETH at 1900.001 USDT = 0.1900001 USDT: not whole (6 decimals).
    const tiny = 100_000n;
    const atTrigger: TriggerLeg = { order_type: { kind: 'Spot', price: 1_900_000_000n }, quantity: { kind: 'Quantity', quantity: tiny }, trigger_price: 1_900_001_000n, side: 'Sell' };
    const atLock: TriggerLeg = { ...atTrigger, order_type: { kind: 'Spot', price: 1_900_001_000n }, trigger_price: 1_900_000_000n };
    expect(code({ kind: 'CreateTriggerOrder', args: atTrigger }, fractional)).toBe('FRACTIONAL_PRICE');
    expect(code({ kind: 'CreateTriggerOrder', args: atLock }, fractional)).toBe('FRACTIONAL_PRICE');
    expect(code({ kind: 'CreateTriggerOrder', args: { ...atLock, order_type: { kind: 'Spot', price: 1_900_000_000n } } }, fractional)).toBeNull();
  });

  it('refuses an unbounded market leg on a margin account (bounded is fine)', () => {
    const margin: CheckActionContext = { market, marginAccount: true };
    expect(code(entry({ trigger_1: stop({ order_type: { kind: 'Market' } }) }), margin)).toBe('UNBOUNDED_MARKET_ORDER');
    expect(code({ kind: 'CreateTriggerOrder', args: explicit(stop({ order_type: { kind: 'Market' } })) }, margin)).toBe('UNBOUNDED_MARKET_ORDER');
    expect(code(entry(), margin)).toBeNull();
  });

  it('refuses bounded legs beyond a Turbo row’s trigger_max_slippage (150 bps: 1871.5 to 1928.5 around 1900)', () => {
    const turbo: CheckActionContext = { market: turboRow, turbo: true };
    expect(code(entry(), turbo)).toBeNull();
    expect(code(entry({ trigger_1: stop({ order_type: { kind: 'MarketBounded', max_price: 1930n * E, min_price: 1890n * E } }) }), turbo)).toBe(ACTION_CODES.TRIGGER_SLIPPAGE);
    expect(code(entry({ trigger_1: stop({ order_type: { kind: 'MarketBounded', max_price: 1910n * E, min_price: 1870n * E } }) }), turbo)).toBe(ACTION_CODES.TRIGGER_SLIPPAGE);
    // The same bounds on the canonical group are not limited.
    expect(code(entry({ trigger_1: stop({ order_type: { kind: 'MarketBounded', max_price: 1930n * E, min_price: 1870n * E } }) }), { market: turboRow })).toBeNull();
  });

  it('OCO pairs: one side, the larger lock first; an explicit leg below min_order is refused', () => {
    const small = explicit(stop({ order_type: { kind: 'Spot', price: 1800n * E }, side: 'Buy', trigger_price: 1810n * E }));
    const big = explicit(stop({ order_type: { kind: 'MarketBounded', max_price: 2110n * E, min_price: 2090n * E }, side: 'Buy', trigger_price: 2100n * E }));
    expect(code({ kind: 'CreateTriggerOrders', first: big, second: small })).toBeNull();
    expect(code({ kind: 'CreateTriggerOrders', first: small, second: big })).toBe(ACTION_CODES.TRIGGER_LOCK_ORDER);
    expect(code({ kind: 'CreateTriggerOrders', first: big, second: { ...small, side: 'Sell' } })).toBe(ACTION_CODES.TRIGGER_SIDE_MISMATCH);
    // 0.001 ETH sells for 1.89 USDC at the bounded leg's minimum: below a 10 USDC minimum.
    expect(code({ kind: 'CreateTriggerOrder', args: explicit(stop(), 1_000_000n) }, { market: { ...market, min_order: 10n * E } })).toBe('MIN_ORDER');
  });

  it('refuses a trigger exactly at the known last price (it has no side of the market)', () => {
    expect(code(entry(), { market, referencePrice: 1900n * E })).toBe(ACTION_CODES.TRIGGER_AT_MARKET);
    expect(code(entry(), { market, referencePrice: 1950n * E })).toBeNull();
  });
});

describe('direction and slippage helpers', () => {
  it('a leg above the reference fires on a print at or above it; below, at or below it', () => {
    expect(triggerDirection(110n, 100n)).toBe('rise');
    expect(triggerDirection(90n, 100n)).toBe('fall');
    expect(triggerDirection(100n, 100n)).toBeUndefined();
    expect([triggerReached('rise', 110n, 109n), triggerReached('rise', 110n, 110n), triggerReached('rise', 110n, 120n)]).toEqual([false, true, true]);
    expect([triggerReached('fall', 90n, 91n), triggerReached('fall', 90n, 90n), triggerReached('fall', 90n, 80n)]).toEqual([false, true, true]);
  });

  it('slippage bounds move inward onto the tick: max floored, min ceiled', () => {
    // 1900 × 1.015 = 1928.5, 1900 × 0.985 = 1871.5; tick 1 USDC → 1928 and 1872.
    expect(slippageBounds(1900n * E, 150n, E)).toEqual({ max_price: 1928n * E, min_price: 1872n * E });
    expect(slippageBounds(1900n * E, 150n, 1n)).toEqual({ max_price: 19285n * (E / 10n), min_price: 18715n * (E / 10n) });
    expect(withinSlippage(stop({ order_type: { kind: 'MarketBounded', max_price: 19285n * (E / 10n), min_price: 18715n * (E / 10n) } }), 150n)).toBe(true);
    expect(withinSlippage(stop({ order_type: { kind: 'MarketBounded', max_price: 19285n * (E / 10n) + 1n, min_price: 18715n * (E / 10n) } }), 150n)).toBe(false);
  });
});
