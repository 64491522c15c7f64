// Small builders for margin snapshots in tests: every field a test does not name is zero or
// absent, so each worked example states only what it depends on.
import { expect } from 'vitest';
import type { Result } from '../../../../shared/result';
import type {
  AssetBalance,
  AssetPrice,
  MarginSession,
  MarginSnapshot,
  MarginTier,
  RestingOrders,
  TurboTerms,
} from '../../../../shared/margin';

export const QUOTE = `0x${'c'.repeat(64)}`;
export const ASSET_A = `0x${'a'.repeat(64)}`;
export const ASSET_B = `0x${'b'.repeat(64)}`;

/** whole ÷ divisor quote per whole base, scaled by 1e18: price(25n, 10n) is 2.5e18. */
export function price(whole: bigint, divisor = 1n): bigint {
  return (whole * 10n ** 18n) / divisor;
}

export function balance(fields: Partial<AssetBalance>): AssetBalance {
  return { onAccount: 0n, received: 0n, locked: 0n, settled: 0n, debt: 0n, ...fields };
}

export function quote(bid: bigint, ask: bigint, decimals = 6, stale = false): AssetPrice {
  return { bid, ask, decimals, stale };
}

export function orders(fields: Partial<RestingOrders>): RestingOrders {
  return { sellQuantity: 0n, sellQuote: 0n, buyQuantity: 0n, buyQuote: 0n, ...fields };
}

export function legacyTier(fields: Partial<MarginTier> = {}): MarginTier {
  return {
    line: 10_000n,
    maxCreditLineBps: 10_000n,
    capital: 1_000n,
    threshold: 1_100n,
    openBuffer: 300n,
    maintenance: 100n,
    duration: 86_400n,
    ...fields,
  };
}

export function turboTerms(fields: Partial<TurboTerms> = {}): TurboTerms {
  return {
    maxLossBps: [2_400n, 3_000n, 4_000n, 6_000n],
    rolloverProfitBps: 500n,
    maxRollovers: 3,
    termSeconds: 604_800n,
    forfeitCollateral: true,
    ...fields,
  };
}

export function session(fields: Partial<MarginSession> = {}): MarginSession {
  return { cohort: 'Legacy', collateral: 0n, fees: 0n, quoteDrawn: 0n, expiresAt: 1_700_000_000n, ...fields };
}

export function snapshot(fields: Partial<MarginSnapshot> = {}): MarginSnapshot {
  return {
    session: session(),
    tier: legacyTier(),
    collateralAssetId: QUOTE,
    collateralDecimals: 6,
    balances: {},
    prices: {},
    restingOrders: {},
    poolInventory: {},
    riskParams: { stressBandBps: {}, absorptionBandBps: {}, defaultStressBandBps: 0n, defaultAbsorptionBandBps: 0n },
    ...fields,
  };
}

/** The value of an ok result; fails the test with the failure's message otherwise. */
export function valueOf<T>(result: Result<T>): T {
  if (!result.ok) expect.fail(`expected ok, got ${result.code}: ${result.message}`);
  return result.value;
}
