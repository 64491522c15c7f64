// Stable failure codes of the custody services. Codes of shared/offline (OFFLINE_…), of the
// keystore (KEYSTORE_…) and of the exchange client pass through unchanged.
export const CUSTODY_CODES = {
  /** The active owner's key is not where this request needs it (hot vs watch-only). */
  WRONG_CUSTODY: 'WRONG_CUSTODY',
  /** The asset is not one the network's markets use. */
  UNKNOWN_ASSET: 'UNKNOWN_ASSET',
  /** The amount is more than the trading account itself holds (funds in books are not withdrawable). */
  INSUFFICIENT_ON_ACCOUNT: 'INSUFFICIENT_ON_ACCOUNT',
  /** A destination that would lose the funds or bounce (the zero id, the trading account itself). */
  INVALID_DESTINATION: 'INVALID_DESTINATION',
  /** The client-side budget of 10 withdrawals a minute per owner is spent. */
  WITHDRAW_RATE_LIMITED: 'WITHDRAW_RATE_LIMITED',
  /** Parallel lanes 0-4 all serve orders: none is left for owner-signed requests. */
  OWNER_LANE_IN_USE: 'OWNER_LANE_IN_USE',
  /** A request of this kind is already waiting for its signature. */
  REQUEST_PENDING: 'REQUEST_PENDING',
  /** No pending request matches. */
  NO_PENDING_REQUEST: 'NO_PENDING_REQUEST',
  /** The pending request's sequential nonce was used by something else: it can never be accepted. */
  NONCE_STALE: 'OWNER_NONCE_STALE',
  /** The request was sent and its answer lost; the ledger does not tell yet whether it landed. */
  OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN',
  /** An earlier request whose answer was lost is still being checked; nothing new is signed. */
  RECONCILING: 'RECONCILING',
  /** The journal could not be written, so nothing was sent. */
  JOURNAL_FAILURE: 'JOURNAL_FAILURE',
  /** The pasted text is neither a document nor QR payloads. */
  NOT_A_DOCUMENT: 'NOT_A_DOCUMENT',
  /** A document of the other kind (a request where a signature was expected, or the reverse). */
  WRONG_DOCUMENT: 'WRONG_DOCUMENT',
  /** The referral code is unknown to the service. */
  REFERRAL_INVALID: 'REFERRAL_INVALID',
  /** The referral code exists but is switched off. */
  REFERRAL_INACTIVE: 'REFERRAL_INACTIVE',
  /** The code belongs to this trader's own owner. */
  REFERRAL_SELF: 'REFERRAL_SELF',
  /** The session does not cover the accounts registry that RegisterReferer calls. */
  REFERRAL_OUT_OF_SCOPE: 'REFERRAL_OUT_OF_SCOPE',
  /** A secret sent through the ECDH exchange could not be opened (expired, reused, or not ours). */
  SECRET_EXCHANGE_FAILED: 'SECRET_EXCHANGE_FAILED',
  /** Offline mode: no request is loaded, or the loaded one is not the one named. */
  NO_LOADED_REQUEST: 'NO_LOADED_REQUEST',
  /** Offline mode: no keystore of that name. */
  KEYSTORE_NOT_FOUND: 'KEYSTORE_NOT_FOUND',
  /** Offline mode: a keystore of that name exists already (never replaced). */
  KEYSTORE_EXISTS: 'KEYSTORE_EXISTS',
} as const;
