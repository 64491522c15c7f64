// Independent implementations used only to cross-check ours: Node's OpenSSL SHA-256, the Keccak
// vendored inside ccxt (an older, separately shipped copy), and elliptic's ECDSA.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import elliptic from 'elliptic';

// ccxt's package exports hide the file, so it is loaded by path.
const require = createRequire(import.meta.url);
const vendoredSha3 = require(join(dirname(require.resolve('ccxt')), 'cjs', 'src', 'static_dependencies', 'noble-hashes', 'sha3.js')) as { keccak_256: (bytes: Uint8Array) => Uint8Array };

export const curve = new elliptic.ec('secp256k1');

export function nodeSha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest();
}

export function vendoredKeccak256(bytes: Uint8Array): Buffer {
  return Buffer.from(vendoredSha3.keccak_256(bytes));
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** u64 big-endian, written with Buffer rather than our ByteWriter. */
export function u64(value: bigint | number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(value));
  return buffer;
}

/** u256 big-endian, written with Buffer. */
export function u256(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

export function ascii(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

export function bytes32(b256: string): Buffer {
  return Buffer.from(b256.slice(2), 'hex');
}

/** Signature of `digest` by elliptic: r ‖ s (low) with the recovery id in the top bit of byte 32. */
export function ellipticSignDigest(digest: Uint8Array, privateKey: Uint8Array): Buffer {
  const signature = curve.keyFromPrivate(Buffer.from(privateKey)).sign(Buffer.from(digest), { canonical: true });
  const out = Buffer.concat([signature.r.toArrayLike(Buffer, 'be', 32), signature.s.toArrayLike(Buffer, 'be', 32)]);
  out[32] = ((signature.recoveryParam ?? 0) << 7) | (out[32]! & 0x7f);
  return out;
}
