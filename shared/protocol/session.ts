// PUT /v1/session: the owner delegates to a session key (spec 5.6, exactly):
// u64 nonce ‖ u64 chain_id ‖ u64 11 ‖ "set_session" ‖ u64 1 (Some) ‖ u64 0 (Address) ‖ session address(32)
// ‖ u64 expiry ‖ u64 N ‖ N contract ids(32). Signed with the owner's personal-sign digest.
import { type OwnerStyle, personalSignDigest, signatureToJson, type SignatureJson } from '../crypto/index';
import type { B256 } from '../encoding/b256';
import { ByteWriter } from '../encoding/byte-writer';
import { U64_MAX } from '../encoding/decimal';
import { addressIdentity } from '../encoding/identity';
import { fail, ok, type Result } from '../result';

export const SESSION_SELECTOR = 'set_session';
/** The service requires the expiry at least one hour ahead. */
export const MINIMUM_SESSION_SECONDS = 3_600n;
/** What clients use when the trader does not choose. */
export const DEFAULT_SESSION_SECONDS = 30n * 24n * 3_600n;
/** Above this an "expiry" is almost certainly milliseconds (year 5138 in seconds). */
const LARGEST_PLAUSIBLE_SECONDS = 100_000_000_000n;

export const SESSION_CODES = {
  EXPIRY_TOO_SOON: 'EXPIRY_TOO_SOON',
  EXPIRY_IN_MILLISECONDS: 'EXPIRY_IN_MILLISECONDS',
  NO_CONTRACTS: 'NO_CONTRACTS',
} as const;

export interface SessionGrant {
  /** The trading account's current sequential nonce. */
  readonly nonce: bigint;
  readonly chain_id: bigint;
  /** SHA-256 of the session public key (always ledger-style). */
  readonly session_address: B256;
  /** Unix seconds. */
  readonly expiry: bigint;
  /** Order books, and for margin the pool, registry and children, the session may act on. */
  readonly contract_ids: readonly B256[];
}

export function sessionMessage(grant: SessionGrant): Uint8Array {
  return new ByteWriter()
    .u64(grant.nonce)
    .u64(grant.chain_id)
    .selector(SESSION_SELECTOR)
    .option(addressIdentity(grant.session_address), (writer, identity) => writer.identity(identity))
    .u64(grant.expiry)
    .vec(grant.contract_ids, (writer, id) => writer.b256(id))
    .finish();
}

export function sessionDigest(grant: SessionGrant, ownerStyle: OwnerStyle): Uint8Array {
  return personalSignDigest(sessionMessage(grant), ownerStyle);
}

/** Refuse an expiry the service would refuse, and the common milliseconds mistake. `now` in unix seconds. */
export function checkSessionGrant(grant: SessionGrant, now: bigint): Result<void> {
  if (grant.expiry > LARGEST_PLAUSIBLE_SECONDS && grant.expiry <= U64_MAX) {
    return fail(SESSION_CODES.EXPIRY_IN_MILLISECONDS, `expiry ${grant.expiry} looks like milliseconds; the session expiry is in unix seconds.`, { field: 'expiry' });
  }
  if (grant.expiry < now + MINIMUM_SESSION_SECONDS) {
    return fail(SESSION_CODES.EXPIRY_TOO_SOON, `expiry ${grant.expiry} is less than one hour after now (${now}).`, { field: 'expiry' });
  }
  if (grant.contract_ids.length === 0) return fail(SESSION_CODES.NO_CONTRACTS, 'A session must name at least one contract it may act on.', { field: 'contract_ids' });
  return ok(undefined);
}

export interface SessionBody {
  contract_id: string;
  session_id: { Address: string };
  signature: SignatureJson;
  contract_ids: string[];
  nonce: string;
  expiry: string;
}

/** The PUT /v1/session body (wire notes). `trade_account_id` goes in `contract_id`. */
export function sessionBody(tradeAccountId: B256, grant: SessionGrant, signature: Uint8Array): SessionBody {
  return {
    contract_id: tradeAccountId,
    session_id: { Address: grant.session_address },
    signature: signatureToJson(signature, 'Secp256k1'),
    contract_ids: [...grant.contract_ids],
    nonce: grant.nonce.toString(),
    expiry: grant.expiry.toString(),
  };
}
