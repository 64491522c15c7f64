// What the sandbox's margin extension sells and publishes: tier versions (both cohorts, with
// history), the pool's funding, the oracle's spread and the risk bands of `risk_params`
// (docs/protocol.md (Margin) 4.1). Amounts are raw USDC units (6 decimals), the pool's collateral.
import type { B256 } from '../../shared/encoding/b256';
import { NO_EXPIRY, type MarginTier, type Period } from '../../shared/margin/index';
import type { NetworkConfig } from '../config/network';
import { deriveId } from '../ids';

const USDC = 1_000_000n;
const DAY = 86_400n;
const WEEK = 7n * DAY;

export interface TurboTerms {
  readonly forfeitCollateral: boolean;
  readonly maxLossBps: readonly bigint[];
  readonly rolloverProfitBps: bigint;
  readonly maxRollovers: number;
  readonly termSeconds: bigint;
  /** Vestigial (margin 2.2): published, used by nothing. */
  readonly rolloverWindowSeconds: bigint;
}

/** One published version of a tier. */
export interface TierVersion {
  readonly tierId: string;
  readonly version: number;
  readonly name: string;
  /** Seconds before the sandbox started that this version was published (0 = at start). */
  readonly publishedSecondsAgo: bigint;
  readonly line: bigint;
  readonly maxCreditLineBps: bigint;
  /** k, the tier capital constant. */
  readonly capital: bigint;
  readonly threshold: bigint;
  readonly openBuffer: bigint;
  readonly maintenance: bigint;
  readonly profitShareBps: bigint;
  readonly duration: bigint;
  readonly prolongSeconds: Readonly<Partial<Record<Period, bigint>>>;
  readonly openFee: bigint;
  readonly prolongFee: Readonly<Partial<Record<Period, bigint>>>;
  /** Legacy: refundable collateral. Prepaid: the entry price (forfeited). */
  readonly requiredCollateral: bigint;
  /** Turbo book contract ids this tier trades on. */
  readonly books: readonly B256[];
  readonly onSale: boolean;
  readonly turbo?: TurboTerms;
}

export interface MarginConfig {
  /** Seed of the derived ids (children). */
  readonly seed: number;
  readonly poolId: B256;
  readonly registryId: B256;
  /** Receives fees, prepaid entry prices, forfeited collateral and profit shares. */
  readonly platformId: B256;
  /** Holds posted collateral (C - F of every open session). */
  readonly custodyId: B256;
  readonly collateralAssetId: B256;
  readonly collateralDecimals: number;
  /** Every version of every tier, oldest first per tier. */
  readonly tiers: readonly TierVersion[];
  readonly poolFunding: ReadonlyMap<B256, bigint>;
  readonly stressBandBps: ReadonlyMap<B256, bigint>;
  readonly defaultStressBandBps: bigint;
  readonly absorptionBandBps: ReadonlyMap<B256, bigint>;
  readonly defaultAbsorptionBandBps: bigint;
  /** Half-spread of the oracle around its mid, bps. */
  readonly oracleHalfSpreadBps: bigint;
  /** Fee of RepayBaseFromCollateral on top of the ask, bps. */
  readonly buyoutFeeBps: bigint;
}

const PROLONG_SECONDS: Readonly<Record<Period, bigint>> = { SixHours: 6n * 3600n, Day: DAY, Week: WEEK, Month: 30n * DAY };

export function buildMarginConfig(seed: number, network: NetworkConfig): MarginConfig {
  const asset = (key: string): B256 => {
    const found = network.assets.find((entry) => entry.key === key);
    if (!found) throw new Error(`margin config: unknown asset ${key}`);
    return found.id;
  };
  const books = network.turboMarkets.map((market) => market.contract_id);
  const common = { maxCreditLineBps: 10_000n, books } as const;
  const legacy = {
    ...common,
    tierId: '1',
    name: 'Legacy 10k',
    line: 10_000n * USDC,
    capital: 4_000n * USDC,
    threshold: 4_300n * USDC,
    openBuffer: 500n * USDC,
    maintenance: 200n * USDC,
    profitShareBps: 1_000n,
    duration: DAY,
    prolongSeconds: PROLONG_SECONDS,
    prolongFee: { SixHours: 1n * USDC, Day: 3n * USDC, Week: 15n * USDC, Month: 50n * USDC },
    requiredCollateral: 1_000n * USDC,
    onSale: true,
  };
  const prepaid = {
    ...common,
    line: 2_500n * USDC,
    capital: 2_000n * USDC,
    threshold: 1_600n * USDC,
    openBuffer: 300n * USDC,
    maintenance: 100n * USDC,
    profitShareBps: 0n,
    prolongSeconds: { Week: WEEK },
  };
  const week = { forfeitCollateral: true, maxLossBps: [4_000n, 4_000n, 4_000n, 4_000n], rolloverProfitBps: 0n, maxRollovers: 0, termSeconds: WEEK, rolloverWindowSeconds: 0n };
  const tiers: TierVersion[] = [
    { ...legacy, version: 1, publishedSecondsAgo: 60n * DAY, openFee: 10n * USDC },
    { ...legacy, version: 2, publishedSecondsAgo: 10n * DAY, openFee: 5n * USDC },
    // On sale: one week, flat, no free terms (margin 2.2: tiers on sale have max_rollovers 0).
    { ...prepaid, tierId: '2', name: 'Turbo week', version: 1, publishedSecondsAgo: 30n * DAY, duration: WEEK, openFee: 5n * USDC, prolongFee: { Week: 10n * USDC }, requiredCollateral: 60n * USDC, onSale: true, turbo: week },
    { ...prepaid, tierId: '2', name: 'Turbo week', version: 2, publishedSecondsAgo: 5n * DAY, duration: WEEK, openFee: 5n * USDC, prolongFee: { Week: 10n * USDC }, requiredCollateral: 50n * USDC, onSale: true, turbo: week },
    // A ladder of free one-day terms with an escalating drawdown (not on sale; sold here for practice).
    {
      ...prepaid,
      tierId: '3',
      name: 'Turbo ladder',
      version: 1,
      publishedSecondsAgo: 20n * DAY,
      duration: DAY,
      openFee: 2n * USDC,
      prolongFee: { Week: 3n * USDC },
      requiredCollateral: 25n * USDC,
      onSale: false,
      turbo: { forfeitCollateral: true, maxLossBps: [3_000n, 4_000n, 5_000n, 6_000n], rolloverProfitBps: 400n, maxRollovers: 3, termSeconds: DAY, rolloverWindowSeconds: 3_600n },
    },
    // No expiry: duration and term_seconds are u64::MAX (margin 2.2, 8).
    {
      ...prepaid,
      tierId: '4',
      name: 'Turbo open-ended',
      version: 1,
      publishedSecondsAgo: 15n * DAY,
      duration: NO_EXPIRY,
      prolongSeconds: { Week: NO_EXPIRY },
      openFee: 0n,
      prolongFee: { Week: 0n },
      requiredCollateral: 100n * USDC,
      onSale: true,
      turbo: { ...week, termSeconds: NO_EXPIRY },
    },
  ];
  return {
    seed,
    poolId: network.marginPoolId,
    registryId: network.accountsRegistryId,
    platformId: deriveId(seed, 'margin/platform'),
    custodyId: deriveId(seed, 'margin/custody'),
    collateralAssetId: network.marginCollateralAssetId,
    collateralDecimals: 6,
    tiers,
    poolFunding: new Map([
      [asset('USDC'), 10_000_000n * USDC],
      [asset('ETH'), 1_000n * 10n ** 9n],
      [asset('BTC'), 50n * 10n ** 8n],
    ]),
    stressBandBps: new Map([
      [asset('ETH'), 1_500n],
      [asset('BTC'), 1_200n],
    ]),
    defaultStressBandBps: 1_000n,
    absorptionBandBps: new Map([
      [asset('ETH'), 50n],
      [asset('BTC'), 40n],
    ]),
    defaultAbsorptionBandBps: 100n,
    oracleHalfSpreadBps: 2n,
    buyoutFeeBps: 10n,
  };
}

/** The latest version of each tier, by tier id. */
export function latestTiers(tiers: readonly TierVersion[]): TierVersion[] {
  const latest = new Map<string, TierVersion>();
  for (const tier of tiers) {
    const current = latest.get(tier.tierId);
    if (current === undefined || tier.version > current.version) latest.set(tier.tierId, tier);
  }
  return [...latest.values()].sort((a, b) => Number(BigInt(a.tierId) - BigInt(b.tierId)));
}

/** The formulas' view of a tier version (shared/margin). */
export function marginTierOf(tier: TierVersion): MarginTier {
  return {
    line: tier.line,
    maxCreditLineBps: tier.maxCreditLineBps,
    capital: tier.capital,
    threshold: tier.threshold,
    openBuffer: tier.openBuffer,
    maintenance: tier.maintenance,
    duration: tier.duration,
    ...(tier.turbo === undefined
      ? {}
      : {
          turbo: {
            maxLossBps: tier.turbo.maxLossBps,
            rolloverProfitBps: tier.turbo.rolloverProfitBps,
            maxRollovers: tier.turbo.maxRollovers,
            termSeconds: tier.turbo.termSeconds,
            forfeitCollateral: tier.turbo.forfeitCollateral,
          },
        }),
  };
}
