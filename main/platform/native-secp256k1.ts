// Order signing through libsecp256k1 (Bitcoin Core's C library, via the `secp256k1` package's
// N-API binding), when its prebuilt binary loads on this platform. It signs a digest in about a
// tenth of the time @noble/curves takes in JavaScript (bench/signing.bench.ts) and in constant time.
// Both implement RFC 6979, so for the same key and digest they produce the same 64 bytes: that is
// checked on known answers before the native signer is used, and anything unexpected (no binary
// for this platform, a different answer) leaves signing to shared/crypto, which is always right.
import { createRequire } from 'node:module';
import { BugError } from '../../shared/result';
import { signDigest } from '../../shared/crypto/signature';
import type { DigestSigner } from '../services/keys/key-vault';

/** The part of the `secp256k1` package's API used here (its own typings cover only the fallback entry). */
interface Secp256k1Binding {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
}

export interface ChosenSigner {
  readonly sign: DigestSigner;
  /** Which implementation signs, for the log and the diagnostics. */
  readonly implementation: 'libsecp256k1' | '@noble/curves';
  /** Why the native signer is not used, when it is not. */
  readonly reason: string | null;
}

function fold(binding: Secp256k1Binding): DigestSigner {
  return (digest, privateKey) => {
    if (digest.length !== 32) throw new BugError(`a digest is 32 bytes, got ${digest.length}`);
    // libsecp256k1 signs the 32 bytes as given (no hashing) and normalises s to the lower half.
    const { signature, recid } = binding.ecdsaSign(digest, privateKey);
    if (recid > 1) throw new BugError(`recovery id ${recid} cannot be encoded in one bit`);
    const folded = new Uint8Array(signature);
    folded[32] = (recid << 7) | (folded[32]! & 0x7f);
    return folded;
  };
}

/** Known answers both implementations must agree on before the native one signs anything. */
function agrees(native: DigestSigner): boolean {
  for (let round = 1; round <= 8; round++) {
    const key = new Uint8Array(32).map((_, index) => (index * 37 + round * 11) & 0xff);
    key[0] = round; // well inside the curve order, never zero
    const digest = new Uint8Array(32).map((_, index) => (index * round * 13 + 7) & 0xff);
    const expected = signDigest(digest, key);
    const actual = native(digest, key);
    if (actual.length !== expected.length || actual.some((byte, index) => byte !== expected[index])) return false;
  }
  return true;
}

/** Load the native signer, or explain why signing stays in JavaScript. */
export function chooseDigestSigner(load: () => unknown = () => createRequire(import.meta.url)('secp256k1/bindings')): ChosenSigner {
  let binding: Secp256k1Binding;
  try {
    binding = load() as Secp256k1Binding;
    if (typeof binding.ecdsaSign !== 'function') throw new Error('the binding has no ecdsaSign');
  } catch (error) {
    return { sign: signDigest, implementation: '@noble/curves', reason: `no native secp256k1 for ${process.platform}-${process.arch}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
  const native = fold(binding);
  try {
    if (!agrees(native)) return { sign: signDigest, implementation: '@noble/curves', reason: 'the native secp256k1 signed a known answer differently' };
  } catch (error) {
    return { sign: signDigest, implementation: '@noble/curves', reason: `the native secp256k1 failed its self-check: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { sign: native, implementation: 'libsecp256k1', reason: null };
}
