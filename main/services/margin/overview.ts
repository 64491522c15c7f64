// Pure builders of the overview: a tier with the exact opening amount of every period (shared/margin
// openingAmount with the owner's discount; prepaid: Week only), and whether the parent session's
// contract list covers what margin actions need (margin-api 5.2: the scope is signed and cannot
// be widened, so a missing contract means a new session).
import type { B256 } from '../../../shared/encoding/b256';
import type { MarginBookRef, MarginPeriodOffer, MarginScopeView, MarginTierView } from '../../../shared/ipc/views/margin';
import { NO_EXPIRY, PERIODS, lineCap, openingAmount, openingTermSeconds, profitRequired } from '../../../shared/margin/index';
import { tierIsNoExpiry, type TierTerms } from './margin-reads';

export function periodOffers(terms: TierTerms, discountBps: bigint): MarginPeriodOffer[] {
  return PERIODS.map((period): MarginPeriodOffer => {
    const amount = openingAmount({ cohort: terms.cohort, requiredCollateral: terms.requiredCollateral, openFee: terms.openFee, prolongFee: terms.prolongFee, discountBps, period });
    if (!amount.ok) return { period, allowed: false, reason: amount.message, collateralLeg: null, feeLeg: null, amount: null, termSeconds: null };
    const term = openingTermSeconds({
      cohort: terms.cohort,
      duration: terms.margin.duration,
      prolongSeconds: terms.prolongSeconds,
      ...(terms.margin.turbo === undefined ? {} : { termSeconds: terms.margin.turbo.termSeconds }),
      period,
    });
    if (!term.ok) return { period, allowed: false, reason: term.message, collateralLeg: null, feeLeg: null, amount: null, termSeconds: null };
    return { period, allowed: true, reason: null, ...amount.value, termSeconds: term.value === NO_EXPIRY ? null : term.value };
  });
}

export function tierView(terms: TierTerms, discountBps: bigint, books: readonly MarginBookRef[]): MarginTierView {
  const turbo = terms.margin.turbo;
  return {
    tierId: terms.tierId,
    version: terms.version,
    name: terms.name,
    cohort: terms.cohort,
    onSale: terms.onSale,
    line: terms.margin.line,
    lineCap: lineCap(terms.margin.line, terms.margin.maxCreditLineBps),
    capital: terms.margin.capital,
    threshold: terms.margin.threshold,
    openBuffer: terms.margin.openBuffer,
    maintenance: terms.margin.maintenance,
    profitShareBps: terms.profitShareBps,
    requiredCollateral: terms.requiredCollateral,
    openFee: terms.openFee,
    noExpiry: tierIsNoExpiry(terms),
    maxLossBps: turbo?.maxLossBps ?? [],
    rolloverProfitBps: turbo?.rolloverProfitBps ?? 0n,
    profitRequired: turbo === undefined || turbo.maxRollovers === 0 ? 0n : profitRequired(terms.margin.line, turbo.rolloverProfitBps),
    maxRollovers: turbo?.maxRollovers ?? 0,
    forfeitCollateral: turbo?.forfeitCollateral ?? false,
    books,
    periods: periodOffers(terms, discountBps),
  };
}

export interface ScopeNeeds {
  readonly poolId: B256 | null;
  readonly registryId: B256 | null;
  /** Registered children, and the one about to be registered. */
  readonly children: readonly B256[];
  /** Turbo books of the tiers (the children trade on them under the parent's session). */
  readonly books: readonly B256[];
}

/** What the session lacks, one line per contract; empty when it covers everything. */
export function missingFromScope(contractIds: readonly string[] | null, needs: ScopeNeeds): string[] {
  if (contractIds === null) return ['a live trading session'];
  const held = new Set(contractIds);
  const missing: string[] = [];
  if (needs.poolId !== null && !held.has(needs.poolId)) missing.push(`the margin pool ${needs.poolId}`);
  if (needs.registryId !== null && !held.has(needs.registryId)) missing.push(`the accounts registry ${needs.registryId}`);
  for (const child of needs.children) if (!held.has(child)) missing.push(`margin account ${child}`);
  for (const book of needs.books) if (!held.has(book)) missing.push(`the Turbo book ${book}`);
  return missing;
}

export function scopeView(missing: readonly string[], canRecreate: boolean): MarginScopeView {
  if (missing.length === 0) return { covered: true, missing: [], explanation: null, canRecreate };
  return {
    covered: false,
    missing,
    explanation:
      `The trading session does not cover ${missing.join(', ')}. A session's contract list is signed when it is made and cannot be widened, so a new session must be created that names them; it replaces the current one (orders already resting stay).` +
      (canRecreate ? ' The terminal creates it with your owner key when you register a margin account.' : ' This owner is watch-only: prepare the session on the offline signer with these contracts and import its signature.'),
    canRecreate,
  };
}
