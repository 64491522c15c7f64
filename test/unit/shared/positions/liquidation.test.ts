// Liquidation and freeze prices found on the margin formulas themselves: at the price reported the
// test holds, one raw price unit on the safe side it does not, and the search agrees with a
// hand-computed boundary on a legacy account.
import { describe, expect, it } from 'vitest';
import { computeRisk, type MarginSnapshot } from '../../../../shared/margin';
import { positionTriggers, toQuotePrice } from '../../../../shared/positions/liquidation';
import { ASSET_A, QUOTE, balance, legacyTier, price, quote, session, snapshot, turboTerms, valueOf } from '../../../support/shared/margin/fixtures';

const reprice = (input: MarginSnapshot, bid: bigint, spread = 0n): MarginSnapshot => ({
  ...input,
  prices: { ...input.prices, [ASSET_A]: { ...input.prices[ASSET_A]!, bid, ask: bid + spread } },
});

describe('legacy long', () => {
  // V = H[quote] + (L - Dq) + max(0, C + k - L) + floor(pos × bid) - F
  //   = 100 + (1500 - 1400) + 0 + floor(400 × p) = 200 + floor(400p); threshold 1100: liquidatable iff
  //   floor(400p) <= 900, i.e. 400p < 901, p < 2.2525: the highest such 1e18-scaled price is 2.2525e18 - 1
  const input = snapshot({
    session: session({ cohort: 'Legacy', collateral: 500n, quoteDrawn: 1_400n }),
    tier: legacyTier({ line: 10_000n, maxCreditLineBps: 10_000n, capital: 1_000n, threshold: 1_100n, openBuffer: 300n, maintenance: 100n }),
    balances: { [QUOTE]: balance({ onAccount: 100n }), [ASSET_A]: balance({ onAccount: 400n }) },
    prices: { [ASSET_A]: quote(price(3n), price(3n)) },
  });

  it('finds the price at which V reaches the threshold', () => {
    const triggers = positionTriggers(input, ASSET_A, true);
    expect(triggers.liquidation.now).toBe(false);
    expect(triggers.liquidation.price).toBe(price(901n, 400n) - 1n);
    expect(valueOf(computeRisk(reprice(input, triggers.liquidation.price!))).health.liquidatable).toBe(true);
    expect(valueOf(computeRisk(reprice(input, triggers.liquidation.price! + 1n))).health.liquidatable).toBe(false);
    // 2.252499 USDC with 6 decimals
    expect(toQuotePrice(triggers.liquidation.price!, 6)).toBe(2_252_499n);
  });

  it('puts the freeze price above the liquidation price', () => {
    const triggers = positionTriggers(input, ASSET_A, true);
    expect(triggers.freeze.price).not.toBeNull();
    expect(triggers.freeze.price! > triggers.liquidation.price!).toBe(true);
    expect(valueOf(computeRisk(reprice(input, triggers.freeze.price!))).health.frozen).toBe(true);
    expect(valueOf(computeRisk(reprice(input, triggers.freeze.price! + 1n))).health.frozen).toBe(false);
  });

  it('says "now" when the account is liquidatable at the current price', () => {
    expect(positionTriggers(reprice(input, price(2n)), ASSET_A, true).liquidation).toEqual({ price: price(2n), now: true });
  });

  it('has no liquidation price when no fall of the asset can reach the threshold', () => {
    const rich = { ...input, balances: { ...input.balances, [QUOTE]: balance({ onAccount: 5_000n }) } };
    expect(positionTriggers(rich, ASSET_A, true).liquidation).toEqual({ price: null, now: false });
  });
});

describe('prepaid short', () => {
  // a short of 300 A held as in-kind debt, quote on the account from its sale
  const input = snapshot({
    session: session({ cohort: 'Turbo', quoteDrawn: 0n }),
    tier: legacyTier({ line: 2_500n, maxCreditLineBps: 10_000n, capital: 2_000n, threshold: 1_800n, openBuffer: 300n, maintenance: 100n, turbo: turboTerms() }),
    rollover: { anchor: 2_000n, withdrawn: 0n, outside: 0n, rolloversUsed: 0, maxRollovers: 3 },
    balances: { [QUOTE]: balance({ onAccount: 1_200n }), [ASSET_A]: balance({ debt: 300n }) },
    prices: { [ASSET_A]: quote(price(4n), price(41n, 10n)) },
    riskParams: { stressBandBps: { [ASSET_A]: 500n }, absorptionBandBps: { [ASSET_A]: 100n } },
  });

  it('finds the ask at which a rise of the asset liquidates, reported on the ask', () => {
    const triggers = positionTriggers(input, ASSET_A, false);
    expect(triggers.liquidation.now).toBe(false);
    const ask = triggers.liquidation.price!;
    const spread = price(41n, 10n) - price(4n);
    expect(ask > price(41n, 10n)).toBe(true);
    expect(valueOf(computeRisk(reprice(input, ask - spread, spread))).health.liquidatable).toBe(true);
    expect(valueOf(computeRisk(reprice(input, ask - spread - 1n, spread))).health.liquidatable).toBe(false);
    expect(triggers.freeze.price! < ask).toBe(true);
  });
});
