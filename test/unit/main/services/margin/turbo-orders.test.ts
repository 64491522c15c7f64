// A Turbo Account's order before signing: a Market becomes a BoundedMarket on the tick (or is
// refused), and the order is judged against a risk report computed by shared/margin from one
// snapshot, with the protocol's reasons (AccountFrozen, OutstandingAboveCreditLine) and the draw or
// borrow its own batch needs.
import { describe, expect, it } from 'vitest';
import type { B256 } from '../../../../../shared/encoding/b256';
import { computeRisk, type MarginSnapshot, type RiskReport } from '../../../../../shared/margin/index';
import type { Market } from '../../../../../shared/market/market';
import { boundMarketOrder, DEFAULT_TURBO_ORDER_SETTINGS, planTurboOrder } from '../../../../../main/services/margin/turbo-orders';
import { ETH, ETH_ID, USDC, USDC_ID } from '../../../../support/main/margin/fixtures';

const market: Market = {
  contract_id: `0x${'7e'.repeat(32)}` as B256,
  market_id: `0x${'a1'.repeat(32)}` as B256,
  base: { symbol: 'ETH', asset: ETH_ID as B256, decimals: 9, max_precision: 4 },
  quote: { symbol: 'USDC', asset: USDC_ID as B256, decimals: 6, max_precision: 2 },
  maker_fee: 50n,
  taker_fee: 300n,
  min_order: 5n * USDC,
  dust: 1_000_000n,
  price_window: 25,
  turbo: true,
  connected: true,
  paused: false,
};

/** A prepaid account (L = 2,000) holding `eth` and `cash`, with `drawn` quote drawn, ETH at `price`. */
function report(options: { eth?: bigint; cash?: bigint; drawn?: bigint; price?: bigint } = {}): RiskReport {
  const oracle = (options.price ?? 3000n) * 10n ** 18n;
  const snapshot: MarginSnapshot = {
    session: { cohort: 'Turbo', collateral: 0n, fees: 0n, quoteDrawn: options.drawn ?? 0n, expiresAt: 1_700_604_800n },
    tier: {
      line: 2_500n * USDC,
      maxCreditLineBps: 10_000n,
      capital: 2_000n * USDC,
      threshold: 1_600n * USDC,
      openBuffer: 300n * USDC,
      maintenance: 100n * USDC,
      duration: 604_800n,
      turbo: { maxLossBps: [4_000n, 4_000n, 4_000n, 4_000n], rolloverProfitBps: 0n, maxRollovers: 0, termSeconds: 604_800n, forfeitCollateral: true },
    },
    collateralAssetId: USDC_ID,
    collateralDecimals: 6,
    balances: {
      [USDC_ID]: { onAccount: options.cash ?? 0n, received: 0n, locked: 0n, settled: 0n, debt: 0n },
      [ETH_ID]: { onAccount: options.eth ?? 0n, received: 0n, locked: 0n, settled: 0n, debt: 0n },
    },
    prices: { [ETH_ID]: { bid: oracle, ask: oracle, decimals: 9, stale: false } },
    restingOrders: {},
    poolInventory: { [USDC_ID]: 10_000_000n * USDC, [ETH_ID]: 1_000n * ETH },
    riskParams: { stressBandBps: { [ETH_ID]: 1_500n }, absorptionBandBps: { [ETH_ID]: 50n } },
  };
  const computed = computeRisk(snapshot);
  if (!computed.ok) throw new Error(computed.message);
  return computed.value;
}

const settings = DEFAULT_TURBO_ORDER_SETTINGS;

describe('Turbo orders', () => {
  it('bounds a market order on the tick: a buy rounds its worst price down, a sell rounds up', () => {
    // Price tick of 6/2 decimals: 0.01 USDC = 10,000 raw.
    expect(boundMarketOrder(market, 'Buy', 3_000_123_456n, 100)).toEqual({ orderType: { kind: 'BoundedMarket', maxPrice: 3_030_120_000n, minPrice: 10_000n }, price: 3_030_120_000n });
    const sell = boundMarketOrder(market, 'Sell', 3_000_123_456n, 100);
    expect(sell.price).toBe(2_970_130_000n);
    expect(sell.orderType.minPrice).toBe(2_970_130_000n);
    expect((sell.orderType.maxPrice ?? 0n) % 10_000n).toBe(0n);
  });

  it('refuses an unbounded market order when conversion is off, naming the rule', () => {
    const refused = planTurboOrder(market, { side: 'Buy', orderType: { kind: 'Market' }, price: 3_000n * USDC, quantity: ETH / 10n }, report(), { ...settings, convertMarketOrders: false }, false);
    expect(refused).toMatchObject({ ok: false, code: 'UNBOUNDED_MARKET_ORDER' });
    expect(!refused.ok && refused.message).toContain('margin-api 4.4 rule 5');
  });

  it('funds a buy by a draw in the same batch, within buy capacity and the credit line', () => {
    const plan = planTurboOrder(market, { side: 'Buy', orderType: { kind: 'Market' }, price: 3_000n * USDC, quantity: (ETH * 6n) / 10n }, report({ cash: 18n * USDC, drawn: 18n * USDC }), settings, false);
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.value).toMatchObject({ price: 3_030n * USDC, quoteValue: 1_818n * USDC, draw: 1_800n * USDC, borrow: 0n });
    expect(plan.value.warnings.join(' ')).toMatch(/BoundedMarket.*Draws 1800 USDC/s);
  });

  it('refuses a buy above buy capacity, and a draw that would leave outstanding above L', () => {
    const capacity = planTurboOrder(market, { side: 'Buy', orderType: { kind: 'Spot' }, price: 3_000n * USDC, quantity: ETH }, report(), settings, false);
    expect(capacity).toMatchObject({ ok: false, code: 'MARGIN_ABOVE_LIMIT' });
    expect(!capacity.ok && capacity.message).toContain('above the buy capacity of 2000 USDC');
    // 1,900 drawn and spent on ETH: buying 200 more needs a draw of 200 > loan headroom 100.
    const line = planTurboOrder(market, { side: 'Buy', orderType: { kind: 'Spot' }, price: 2_000n * USDC, quantity: ETH / 10n }, report({ eth: ETH / 100n, drawn: 1_900n * USDC }), settings, false);
    expect(line).toMatchObject({ ok: false });
    const paused = planTurboOrder(market, { side: 'Buy', orderType: { kind: 'Spot' }, price: 3_000n * USDC, quantity: ETH / 100n }, report(), settings, true);
    expect(paused).toMatchObject({ ok: false, code: 'MARGIN_POOL_PAUSED' });
  });

  it('while frozen refuses what adds exposure with AccountFrozen, and lets a long be sold down', () => {
    const frozen = report({ eth: (ETH * 6n) / 10n, cash: 18n * USDC, drawn: 1_818n * USDC, price: 2_900n });
    expect(frozen.health.frozen).toBe(true);
    const buy = planTurboOrder(market, { side: 'Buy', orderType: { kind: 'Spot' }, price: 2_900n * USDC, quantity: ETH / 100n }, frozen, settings, false);
    expect(buy).toMatchObject({ ok: false, code: 'MARGIN_FROZEN' });
    expect(!buy.ok && buy.message).toMatch(/^AccountFrozen: /);
    const short = planTurboOrder(market, { side: 'Sell', orderType: { kind: 'Spot' }, price: 2_900n * USDC, quantity: ETH }, frozen, settings, false);
    expect(short).toMatchObject({ ok: false, code: 'MARGIN_FROZEN' });
    const sell = planTurboOrder(market, { side: 'Sell', orderType: { kind: 'Market' }, price: 2_900n * USDC, quantity: ETH / 10n }, frozen, settings, false);
    expect(sell).toMatchObject({ ok: true, value: { borrow: 0n, draw: 0n } });
  });

  it('borrows what a sale lacks, within borrowable', () => {
    const plan = planTurboOrder(market, { side: 'Sell', orderType: { kind: 'Spot' }, price: 3_000n * USDC, quantity: ETH / 10n }, report({ eth: ETH / 20n, cash: 100n * USDC }), settings, false);
    expect(plan).toMatchObject({ ok: true, value: { borrow: ETH / 20n } });
    const tooMuch = planTurboOrder(market, { side: 'Sell', orderType: { kind: 'Spot' }, price: 3_000n * USDC, quantity: 10n * ETH }, report(), settings, false);
    expect(tooMuch).toMatchObject({ ok: false });
    expect(!tooMuch.ok && tooMuch.message).toContain('The sale needs a borrow');
  });
});
