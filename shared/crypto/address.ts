// Addresses of the two owner styles (spec 5.2). Both hash the 64-byte uncompressed public key
// without its 0x04 prefix. The service tells the styles apart by the 12 leading zero bytes of an
// EVM-style address; no flag is sent.
import { b256ToBytes, b256FromBytes, type B256 } from '../encoding/b256';
import { BugError } from '../result';
import { keccak256, sha256 } from './hashes';
import { normalisePublicKey } from './keys';

export type OwnerStyle = 'ledger' | 'evm';

function rawPublicKey(publicKey: Uint8Array): Uint8Array {
  const normalised = normalisePublicKey(publicKey);
  if (!normalised.ok) throw new BugError(normalised.message);
  return normalised.value.subarray(1);
}

/** Ledger style: SHA-256 of the 64-byte public key. Session keys are always this style. */
export function ledgerAddress(publicKey: Uint8Array): B256 {
  return b256FromBytes(sha256(rawPublicKey(publicKey)));
}

/** EVM style: the last 20 bytes of Keccak-256 of the 64-byte public key, left-padded with 12 zeros. */
export function evmAddress(publicKey: Uint8Array): B256 {
  const padded = new Uint8Array(32);
  padded.set(keccak256(rawPublicKey(publicKey)).subarray(12), 12);
  return b256FromBytes(padded);
}

export function addressOf(publicKey: Uint8Array, style: OwnerStyle): B256 {
  return style === 'evm' ? evmAddress(publicKey) : ledgerAddress(publicKey);
}

/** True when the first 12 bytes are zero: the service treats such an owner as EVM-style. */
export function isEvmStyleAddress(address: B256): boolean {
  return b256ToBytes(address).subarray(0, 12).every((byte) => byte === 0);
}

/** The style the service infers for an owner address. */
export function ownerStyleOf(address: B256): OwnerStyle {
  return isEvmStyleAddress(address) ? 'evm' : 'ledger';
}

/** The 20-byte EVM address (0x + 40 hex) inside a padded B256, for display next to wallets. */
export function evmAddressText(address: B256): string {
  return `0x${address.slice(2 + 24)}`;
}
