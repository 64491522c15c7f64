// Which rules a session lives by. The session's cohort is pinned at open (spec 2.3); the tier
// test (presence of `tier.turbo`) is the fallback for payloads without it.
import type { Cohort, MarginSession, MarginTier } from './snapshot';

export function cohortOf(session: Pick<MarginSession, 'cohort'> | undefined, tier: Pick<MarginTier, 'turbo'>): Cohort {
  return session?.cohort ?? (tier.turbo === undefined ? 'Legacy' : 'Turbo');
}
