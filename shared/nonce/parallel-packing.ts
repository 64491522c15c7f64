// Parallel nonce packing (spec 2.7), one u256:
// bits 0-7 bitmap position (0-127) | 8-135 word position | 136-167 expiry (u32 seconds)
// | 168-175 lane (0-4) | 176-255 reserved, zero.
import { U128_MAX, U256_MAX, U32_MAX } from '../encoding/decimal';
import { fail, ok, type Result } from '../result';

export const INVALID_PARALLEL_NONCE = 'INVALID_PARALLEL_NONCE';

export const LANE_COUNT = 5;
export const BITS_PER_WORD = 128;
export const WORDS_PER_WINDOW = 8;

export interface ParallelNonceFields {
  /** Nonce session id, 0-4. */
  readonly lane: number;
  /** Unix seconds after which the nonce is unusable. */
  readonly expiry: bigint;
  readonly word_position: bigint;
  /** 0-127. */
  readonly bit_position: number;
}

const RESERVED_SHIFT = 176n;

function checkFields(fields: ParallelNonceFields): Result<void> {
  if (!Number.isInteger(fields.lane) || fields.lane < 0 || fields.lane >= LANE_COUNT) {
    return fail(INVALID_PARALLEL_NONCE, `lane: must be 0 to ${LANE_COUNT - 1}, got ${fields.lane}`, { field: 'lane' });
  }
  if (!Number.isInteger(fields.bit_position) || fields.bit_position < 0 || fields.bit_position >= BITS_PER_WORD) {
    return fail(INVALID_PARALLEL_NONCE, `bit_position: must be 0 to 127, got ${fields.bit_position}`, { field: 'bit_position' });
  }
  if (fields.expiry < 0n || fields.expiry > U32_MAX) return fail(INVALID_PARALLEL_NONCE, `expiry: must fit in 32 bits, got ${fields.expiry}`, { field: 'expiry' });
  if (fields.word_position < 0n || fields.word_position > U128_MAX) {
    return fail(INVALID_PARALLEL_NONCE, `word_position: must fit in 128 bits, got ${fields.word_position}`, { field: 'word_position' });
  }
  return ok(undefined);
}

export function packParallelNonce(fields: ParallelNonceFields): Result<bigint> {
  const checked = checkFields(fields);
  if (!checked.ok) return checked;
  return ok((BigInt(fields.lane) << 168n) | (fields.expiry << 136n) | (fields.word_position << 8n) | BigInt(fields.bit_position));
}

export function unpackParallelNonce(value: bigint): Result<ParallelNonceFields> {
  if (value < 0n || value > U256_MAX) return fail(INVALID_PARALLEL_NONCE, `parallel_nonce: not a u256: ${value}`, { field: 'parallel_nonce' });
  if (value >> RESERVED_SHIFT !== 0n) return fail(INVALID_PARALLEL_NONCE, 'parallel_nonce: reserved bits 176-255 must be zero', { field: 'parallel_nonce' });
  const lane = Number((value >> 168n) & 0xffn);
  const bitPosition = Number(value & 0xffn);
  const fields: ParallelNonceFields = { lane, expiry: (value >> 136n) & U32_MAX, word_position: (value >> 8n) & U128_MAX, bit_position: bitPosition };
  const checked = checkFields(fields);
  return checked.ok ? ok(fields) : fail(checked.code, `parallel_nonce: ${checked.message}`, checked.details);
}

/** A position as one number: word_position * 128 + bit_position (the allocator's cursor space). */
export function positionIndex(wordPosition: bigint, bitPosition: number): bigint {
  return wordPosition * BigInt(BITS_PER_WORD) + BigInt(bitPosition);
}

export function positionOfIndex(index: bigint): { word_position: bigint; bit_position: number } {
  return { word_position: index / BigInt(BITS_PER_WORD), bit_position: Number(index % BigInt(BITS_PER_WORD)) };
}
