// The overview's tier offers (shared/margin openingAmount with the owner's discount, each leg
// discounted on its own; prepaid: Week only; no countdown for a no-expiry tier) and the session
// scope check that tells the trader a new session is needed to add a child.
import { describe, expect, it } from 'vitest';
import { tierTerms } from '../../../../../main/services/margin/margin-reads';
import { missingFromScope, periodOffers, scopeView, tierView } from '../../../../../main/services/margin/overview';
import type { B256 } from '../../../../../shared/encoding/b256';
import { CHILD, POOL_ID, USDC, parsedTier, prepaidTierWire } from '../../../../support/main/margin/fixtures';

function terms(wire: Record<string, unknown>) {
  const parsed = tierTerms(parsedTier(wire));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

const legacyWire = (): Record<string, unknown> => {
  const { turbo: _turbo, ...rest } = prepaidTierWire({
    tier_id: '1',
    version: 2,
    line: String(10_000n * USDC),
    capital: String(4_000n * USDC),
    duration: '86400',
    prolong_seconds: { SixHours: '21600', Day: '86400', Week: '604800', Month: '2592000' },
    prolong_fee: { SixHours: String(1n * USDC), Day: String(3n * USDC), Week: String(15n * USDC), Month: String(50n * USDC) },
    required_collateral: String(1_000n * USDC),
  });
  return rest;
};

describe('tier offers', () => {
  it('sells a prepaid tier for Week only, both legs discounted each on its own', () => {
    // 33 bps: floor(50 × 0.9967) = 49.835 and floor(15 × 0.9967) = 14.9505, summed: 64.7855 USDC.
    const offers = periodOffers(terms(prepaidTierWire()), 33n);
    expect(offers.map((offer) => offer.allowed)).toEqual([false, false, true, false]);
    expect(offers[2]).toMatchObject({ period: 'Week', collateralLeg: 49_835_000n, feeLeg: 14_950_500n, amount: 64_785_500n, termSeconds: 604_800n });
    expect(offers[1]?.reason).toBe('period: a Turbo session opens only with Week, got Day');
    // Where truncation bites: legs of 1 and 1 raw unit at 5,000 bps give 0 + 0, where discounting
    // the total of 2 would give 1: a prepaid open of 1 would be refused.
    const tiny = periodOffers(terms(prepaidTierWire({ required_collateral: '1', open_fee: '0', prolong_fee: { Week: '1' } })), 5_000n);
    expect(tiny[2]?.amount).toBe(0n);
  });

  it('sells every period of a legacy tier and never discounts its collateral', () => {
    const offers = periodOffers(terms(legacyWire()), 100n);
    expect(offers.every((offer) => offer.allowed)).toBe(true);
    expect(offers.find((offer) => offer.period === 'Week')).toMatchObject({ collateralLeg: 1_000n * USDC, feeLeg: 19_800_000n, amount: 1_019_800_000n, termSeconds: 86_400n + 604_800n });
  });

  it('shows no term for a tier without expiry', () => {
    const open = terms(prepaidTierWire({ tier_id: '4', duration: '18446744073709551615', prolong_seconds: { Week: '18446744073709551615' }, turbo: { forfeit_collateral: true, max_loss_bps: ['4000', '4000', '4000', '4000'], rollover_profit_bps: '0', max_rollovers: 0, term_seconds: '18446744073709551615' } }));
    const view = tierView(open, 0n, []);
    expect(view.noExpiry).toBe(true);
    expect(view.periods.find((offer) => offer.period === 'Week')?.termSeconds).toBeNull();
    expect(view.lineCap).toBe(2_500n * USDC);
  });

  it('refuses a tier without the capital constant, naming the member', () => {
    const { capital: _capital, ...wire } = prepaidTierWire();
    const parsed = tierTerms(parsedTier(wire));
    expect(parsed).toMatchObject({ ok: false, code: 'MARGIN_TIER_INCOMPLETE' });
    expect(!parsed.ok && parsed.message).toContain('tier.capital');
  });
});

describe('session scope', () => {
  const registry = `0x${'4e'.repeat(32)}` as B256;
  const book = `0x${'7e'.repeat(32)}` as B256;
  const needs = { poolId: POOL_ID as B256, registryId: registry, children: [CHILD as B256], books: [book] };

  it('lists what the session lacks and explains that it must be recreated', () => {
    const missing = missingFromScope([book], needs);
    expect(missing).toEqual([`the margin pool ${POOL_ID}`, `the accounts registry ${registry}`, `margin account ${CHILD}`]);
    const view = scopeView(missing, true);
    expect(view.covered).toBe(false);
    expect(view.explanation).toMatch(/cannot be widened, so a new session must be created/);
    expect(scopeView(missing, false).explanation).toMatch(/watch-only/);
    expect(missingFromScope([book, POOL_ID, registry, CHILD], needs)).toEqual([]);
    expect(missingFromScope(null, needs)).toEqual(['a live trading session']);
  });
});
