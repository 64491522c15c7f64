// Referral codes the sandbox knows (GET /analytics/v1/referral/code-info). One is inactive so
// clients can show that case; owners are derived from the seed like every other id.
import type { B256 } from '../../shared/encoding/b256';
import { deriveId } from '../ids';

export interface ReferralCode {
  readonly code: string;
  readonly ownerAddress: B256;
  readonly isActive: boolean;
}

export function buildReferralCodes(seed: number): ReadonlyMap<string, ReferralCode> {
  const codes: ReferralCode[] = [
    { code: 'SANDBOX', ownerAddress: deriveId(seed, 'referrer/SANDBOX'), isActive: true },
    { code: 'WELCOME', ownerAddress: deriveId(seed, 'referrer/WELCOME'), isActive: true },
    { code: 'RETIRED', ownerAddress: deriveId(seed, 'referrer/RETIRED'), isActive: false },
  ];
  return new Map(codes.map((entry) => [entry.code, entry]));
}
