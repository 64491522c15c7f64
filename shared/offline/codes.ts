// Stable failure codes of the offline-signing formats. Both machines match on these strings; the
// message that travels with each names the field and the value.
export const OFFLINE_CODES = {
  /** Not a document of this format (a response where a request was expected, a random file). */
  UNKNOWN_FORMAT: 'OFFLINE_UNKNOWN_FORMAT',
  /** A format version this build does not understand: refuse rather than guess at new fields. */
  UNKNOWN_VERSION: 'OFFLINE_UNKNOWN_VERSION',
  /** A field is missing, extra, or not of its type; the message names it. */
  MALFORMED: 'OFFLINE_MALFORMED',
  /** The stated owner style is not the one the service infers from the address. */
  STYLE_MISMATCH: 'OFFLINE_STYLE_MISMATCH',
  /** The nonce does not unpack, or its stated fields differ from the packed value. */
  MALFORMED_NONCE: 'OFFLINE_MALFORMED_NONCE',
  /** The stated message bytes differ from the bytes rebuilt from the fields: tampering. */
  MESSAGE_MISMATCH: 'OFFLINE_MESSAGE_MISMATCH',
  /** The stated digest differs from the digest rebuilt from the message: tampering. */
  DIGEST_MISMATCH: 'OFFLINE_DIGEST_MISMATCH',
  /** The words shown to the person differ from the words rebuilt from the fields: tampering. */
  DESCRIPTION_MISMATCH: 'OFFLINE_DESCRIPTION_MISMATCH',
  /** A field value the service would refuse (zero amount, session expiring too soon, ...). */
  INVALID_FIELD: 'OFFLINE_INVALID_FIELD',
  /** created_at/expires_at are inconsistent or the lifetime is longer than allowed. */
  BAD_LIFETIME: 'OFFLINE_BAD_LIFETIME',
  /** created_at is ahead of this machine's clock by more than the allowed skew. */
  NOT_YET_VALID: 'OFFLINE_NOT_YET_VALID',
  /** The request's expires_at has passed. */
  EXPIRED: 'OFFLINE_EXPIRED',
  /** The parallel nonce expires before the request does, or has already expired. */
  NONCE_EXPIRY: 'OFFLINE_NONCE_EXPIRY',
  /** The key at hand (or the signer named in a response) is not the request's owner. */
  WRONG_OWNER: 'OFFLINE_WRONG_OWNER',
  /** The asset symbol or decimals differ from the signer's trusted asset list. */
  ASSET_LABEL_MISMATCH: 'OFFLINE_ASSET_LABEL_MISMATCH',
  /** The asset is not in the signer's trusted asset list. */
  ASSET_UNKNOWN: 'OFFLINE_ASSET_UNKNOWN',
  /** A response does not answer the pending request (other id or other request hash). */
  RESPONSE_MISMATCH: 'OFFLINE_RESPONSE_MISMATCH',
  /** The signature does not recover to the owner over the request's digest. */
  SIGNATURE_INVALID: 'OFFLINE_SIGNATURE_INVALID',
  /** A QR part does not follow the framing grammar. */
  QR_MALFORMED_PART: 'OFFLINE_QR_MALFORMED_PART',
  /** Parts of two different payloads were mixed. */
  QR_MISMATCHED_SET: 'OFFLINE_QR_MISMATCHED_SET',
  /** The same part number arrived twice with different contents. */
  QR_CONFLICTING_DUPLICATE: 'OFFLINE_QR_CONFLICTING_DUPLICATE',
  /** Some parts are missing; the message lists them. */
  QR_INCOMPLETE: 'OFFLINE_QR_INCOMPLETE',
  /** The reassembled payload does not match the hash every part carries. */
  QR_CORRUPT: 'OFFLINE_QR_CORRUPT',
  /** The payload is too large for the framing (more parts than allowed). */
  QR_TOO_LARGE: 'OFFLINE_QR_TOO_LARGE',
} as const;

export type OfflineCode = (typeof OFFLINE_CODES)[keyof typeof OFFLINE_CODES];
