// The two hash functions of the protocol, behind names that say which is which.
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

export function sha256(bytes: Uint8Array): Uint8Array {
  return nobleSha256(bytes);
}

export function keccak256(bytes: Uint8Array): Uint8Array {
  return keccak_256(bytes);
}
