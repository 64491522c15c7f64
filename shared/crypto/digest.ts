// What gets signed (spec 5.7 and 5.8). Every signature in the protocol is over a 32-byte digest
// computed here; the curve code never hashes again (see signature.ts).
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { concatBytes } from '../encoding/hex';
import type { OwnerStyle } from './address';
import { keccak256, sha256 } from './hashes';

export const LEDGER_PERSONAL_SIGN_TEXT = 'Chain Signed Message:';
export const EVM_PERSONAL_SIGN_TEXT = 'EVM Signed Message:';

/** Session actions: SHA-256 of the message, no prefix (the session key is always ledger-style). */
export function sessionActionDigest(message: Uint8Array): Uint8Array {
  return sha256(message);
}

/** The bytes an owner's personal-sign digest hashes: 0x19 ‖ text ‖ 0x0a ‖ decimal length ‖ message. */
export function personalSignPayload(message: Uint8Array, style: OwnerStyle): Uint8Array {
  const text = style === 'evm' ? EVM_PERSONAL_SIGN_TEXT : LEDGER_PERSONAL_SIGN_TEXT;
  return concatBytes(Uint8Array.of(0x19), utf8ToBytes(text), Uint8Array.of(0x0a), utf8ToBytes(String(message.length)), message);
}

/** Owner messages (session creation, withdraw, upgrade, calls): SHA-256 or Keccak-256 of the payload. */
export function personalSignDigest(message: Uint8Array, style: OwnerStyle): Uint8Array {
  const payload = personalSignPayload(message, style);
  return style === 'evm' ? keccak256(payload) : sha256(payload);
}
