// The journal's file format: framed, checksummed records, as write-ahead logs do, so one damaged
// byte costs at most the record it is in. Each record is
//
//   "\x1eLTJ1 " LLLLLLLL " " PPPPPPPPPPPPP " " CCCCCCCC " "  payload  "\n"
//
// 38 header bytes of ASCII: the magic (ASCII record separator, "LTJ", format version 1), the
// payload length (8 hex digits), the previous record's seq + 1 in this file (13 hex digits, 0 for
// the first record), and the CRC-32 of the header up to the checksum, the payload and the final
// newline (8 hex digits); then the payload (an entry as JSON) and a newline. JSON never holds a raw
// control character, so the magic cannot occur inside a payload: after damage, reading resumes at
// the next magic. The chain of previous seqs shows records lost whole (a block overwritten by a
// copy of another one), which checksums alone cannot.
//
// The files are preallocated (zeros ahead of the data, see journal.ts): zeros after the last
// record are free space; any other byte that is not part of a valid record is damage.
import { crc32 } from 'node:zlib';

export const MAGIC = Buffer.from('\x1eLTJ1 ', 'latin1');
const MAGIC_PREFIX = Buffer.from('\x1eLTJ', 'latin1');
export const HEADER_BYTES = 38;
/** Where the checksum field starts: it covers the header bytes before it. */
const CRC_AT = 29;
/** No entry comes near this; a larger length is damage. */
export const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}

function checksum(header: Buffer, payload: Buffer): number {
  return crc32(NEWLINE, crc32(payload, crc32(header.subarray(0, CRC_AT))));
}
const NEWLINE = Buffer.from('\n');

/** One record's bytes. `prevSeq` is the seq of the record before it in the same file, or null. */
export function encodeRecord(payload: string, prevSeq: number | null): Buffer {
  const length = Buffer.byteLength(payload, 'utf8');
  if (length > MAX_PAYLOAD_BYTES) throw new Error(`journal entry of ${length} bytes is over the ${MAX_PAYLOAD_BYTES}-byte limit`);
  // One buffer, written in place: this is on the order path.
  const record = Buffer.allocUnsafe(HEADER_BYTES + length + 1);
  record.write(`\x1eLTJ1 ${hex(length, 8)} ${hex(prevSeq === null ? 0 : prevSeq + 1, 13)} `, 0, 'latin1');
  record.write(payload, HEADER_BYTES, 'utf8');
  record[HEADER_BYTES + length] = 0x0a;
  // The checksum covers the header before it, then the payload and the newline (contiguous).
  const sum = crc32(record.subarray(HEADER_BYTES), crc32(record.subarray(0, CRC_AT)));
  record.write(`${hex(sum, 8)} `, CRC_AT, 'latin1');
  return record;
}

export interface FramedRecord {
  readonly offset: number;
  /** Bytes of the whole record, header and newline included. */
  readonly length: number;
  readonly prevSeq: number | null;
  readonly payload: string;
}

export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

export interface Scan {
  readonly records: readonly FramedRecord[];
  /** Bytes that are neither a valid record nor the free zeros after the last one. */
  readonly damaged: readonly ByteRange[];
}

const HEX8 = /^[0-9a-f]{8}$/;
const HEX13 = /^[0-9a-f]{13}$/;

/** The record starting at `offset`, if one is there whole and its checksum holds. */
function recordAt(raw: Buffer, offset: number): FramedRecord | null {
  if (offset + HEADER_BYTES + 1 > raw.length) return null;
  if (raw.compare(MAGIC, 0, MAGIC.length, offset, offset + MAGIC.length) !== 0) return null;
  const header = raw.subarray(offset, offset + HEADER_BYTES);
  const text = header.toString('latin1');
  if (text[14] !== ' ' || text[28] !== ' ' || text[37] !== ' ') return null;
  const lengthText = text.slice(6, 14);
  const prevText = text.slice(15, 28);
  const crcText = text.slice(29, 37);
  if (!HEX8.test(lengthText) || !HEX13.test(prevText) || !HEX8.test(crcText)) return null;
  const length = Number.parseInt(lengthText, 16);
  if (length > MAX_PAYLOAD_BYTES) return null;
  const end = offset + HEADER_BYTES + length + 1;
  if (end > raw.length || raw[end - 1] !== 0x0a) return null;
  const payload = raw.subarray(offset + HEADER_BYTES, end - 1);
  if (checksum(header, payload) !== Number.parseInt(crcText, 16)) return null;
  const prev = Number.parseInt(prevText, 16);
  return { offset, length: end - offset, prevSeq: prev === 0 ? null : prev - 1, payload: payload.toString('utf8') };
}

/** The last byte in [from, to) that is not zero, or -1. */
function lastNonZero(raw: Buffer, from: number, to: number): number {
  for (let index = to - 1; index >= from; index--) if (raw[index] !== 0) return index;
  return -1;
}

/**
 * Every valid record in the file, in order, and the damaged ranges between them. A range that is
 * not a record is skipped up to the next magic: one damaged record never hides the ones after it.
 * Trailing zeros are free space, not damage.
 */
export function scanRecords(raw: Buffer): Scan {
  const records: FramedRecord[] = [];
  const damaged: ByteRange[] = [];
  let position = 0;
  let damageStart: number | null = null;
  while (position < raw.length) {
    const record = raw[position] === 0x1e ? recordAt(raw, position) : null;
    if (record) {
      if (damageStart !== null) damaged.push({ offset: damageStart, length: position - damageStart });
      damageStart = null;
      records.push(record);
      position += record.length;
      continue;
    }
    damageStart ??= position;
    const next = raw.indexOf(MAGIC_PREFIX, position + 1);
    position = next === -1 ? raw.length : next;
  }
  if (damageStart !== null) {
    const last = lastNonZero(raw, damageStart, raw.length);
    if (last !== -1) damaged.push({ offset: damageStart, length: last + 1 - damageStart });
  }
  return { records, damaged };
}

/**
 * The earlier format (journal.jsonl, up to this version): one JSON entry per line, zeros after the
 * data. Every line is tried on its own, so an unreadable one costs only itself; `check` says
 * whether a line's text is an entry.
 */
export function scanLines(raw: Buffer, check: (text: string) => boolean): { lines: { offset: number; text: string }[]; damaged: ByteRange[] } {
  const lines: { offset: number; text: string }[] = [];
  const damaged: ByteRange[] = [];
  let offset = 0;
  while (offset < raw.length) {
    let end = raw.indexOf(0x0a, offset);
    if (end === -1) end = raw.length;
    const slice = raw.subarray(offset, end);
    const last = lastNonZero(slice, 0, slice.length);
    if (last !== -1) {
      // Leading or trailing zeros on a line are not part of an entry.
      const text = slice.toString('utf8').replace(/^\0+|\0+$/g, '');
      if (text.trim() !== '') {
        if (check(text)) lines.push({ offset, text });
        else damaged.push({ offset, length: last + 1 });
      }
    }
    offset = end + 1;
  }
  return { lines, damaged };
}
