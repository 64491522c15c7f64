// Big-endian encoder for signed messages and call data (wire notes, "Primitive encodings").
// Values reaching the writer were validated at the boundary, so an out-of-range value here is a bug.
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { BugError } from '../result';
import { U256_MAX, U64_MAX } from './decimal';
import { b256ToBytes, type B256 } from './b256';
import { IDENTITY_DISCRIMINANT, identityKind, identityValue, type Identity } from './identity';

export class ByteWriter {
  private buffer: Uint8Array;
  private view: DataView;
  private length = 0;

  constructor(initialCapacity = 256) {
    this.buffer = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buffer.buffer);
  }

  private reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }

  /** u64, 8 bytes big-endian. */
  u64(value: bigint): this {
    if (value < 0n || value > U64_MAX) throw new BugError(`u64 out of range: ${value}`);
    this.reserve(8);
    this.view.setBigUint64(this.length, value);
    this.length += 8;
    return this;
  }

  /** u256, 32 bytes big-endian. */
  u256(value: bigint): this {
    if (value < 0n || value > U256_MAX) throw new BugError(`u256 out of range: ${value}`);
    this.reserve(32);
    for (let word = 3; word >= 0; word--) {
      this.view.setBigUint64(this.length, (value >> BigInt(word * 64)) & U64_MAX);
      this.length += 8;
    }
    return this;
  }

  /** Bytes as they are, no length prefix. */
  raw(bytes: Uint8Array): this {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
    return this;
  }

  /** Exactly 32 raw bytes (a B256, AssetId or ContractId). */
  bytes32(bytes: Uint8Array): this {
    if (bytes.length !== 32) throw new BugError(`expected 32 bytes, got ${bytes.length}`);
    return this.raw(bytes);
  }

  b256(value: B256): this {
    return this.raw(b256ToBytes(value));
  }

  /** Identity: u64 discriminant (0 Address, 1 ContractId) then 32 bytes. */
  identity(value: Identity): this {
    return this.u64(IDENTITY_DISCRIMINANT[identityKind(value)]).b256(identityValue(value));
  }

  /** A unit enum variant: its u64 discriminant. */
  unitEnum(discriminant: number | bigint): this {
    return this.u64(BigInt(discriminant));
  }

  /** Option<T>: u64 0 for None, or u64 1 then the value. */
  option<T>(value: T | null | undefined, write: (writer: this, value: T) => void): this {
    if (value === null || value === undefined) return this.u64(0n);
    this.u64(1n);
    write(this, value);
    return this;
  }

  /** Vec<T>: u64 length then each element. */
  vec<T>(items: readonly T[], write: (writer: this, item: T) => void): this {
    this.u64(BigInt(items.length));
    for (const item of items) write(this, item);
    return this;
  }

  /** A function selector: u64 byte length of the UTF-8 name, then the name (not a hash). */
  selector(name: string): this {
    const bytes = utf8ToBytes(name);
    return this.u64(BigInt(bytes.length)).raw(bytes);
  }

  /** A copy of the bytes written so far. */
  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

/** Encode with a fresh writer. */
export function encodeBytes(write: (writer: ByteWriter) => void): Uint8Array {
  const writer = new ByteWriter();
  write(writer);
  return writer.finish();
}
