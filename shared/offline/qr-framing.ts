// Multi-part QR framing for requests and responses. Each QR code carries one part:
//
//   LTQR1/<part>/<total>/<hash>/<chunk>
//
// <part> 1..<total>, <total> 1..99 (decimal, no leading zeros); <hash> the first 8 bytes of
// SHA-256 of the whole payload as 16 lowercase hex digits, the same in every part of a set;
// <chunk> the part's slice of the payload in base64url without padding. A large payload becomes
// an animated sequence that loops; the reader keeps parts in any order, ignores exact repeats
// (a loop shows every part many times), refuses a part of another set or a part that differs
// from one already read under the same number, and checks the reassembled payload against the
// hash. The hash guards against accidents (a misread, a mixed set); what protects against a
// deliberate change is the recomputation and signature checks on both machines.
//
// Size: 210 payload bytes per part (280 base64url letters) plus a header of at most 29
// characters, at most 309 characters in byte mode: a version-13 QR code (69 x 69 modules) at
// error-correction level M, which a phone or laptop camera reads from a screen at arm's length.
import { sha256 } from '../crypto/hashes';
import { bytesToHex } from '../encoding/hex';
import { fail, ok, type Result } from '../result';
import { asciiToBytes, bytesToAscii, canonicalJson, type CanonicalValue } from './canonical-json';
import { decodeBase64url, encodeBase64url } from './base64url';
import { OFFLINE_CODES } from './codes';

export const QR_PREFIX = 'LTQR1';
export const QR_BYTES_PER_PART = 210;
export const QR_MAX_PARTS = 99;
/** What each part is sized for; test/unit/shared/offline checks every part against it. */
export const QR_ERROR_CORRECTION = 'M';
export const QR_MAX_VERSION = 13;

const PART_PATTERN = /^LTQR1\/([1-9][0-9]?)\/([1-9][0-9]?)\/([0-9a-f]{16})\/([A-Za-z0-9_-]*)$/;

export function payloadHashPrefix(payload: Uint8Array): string {
  return bytesToHex(sha256(payload).subarray(0, 8));
}

/** Split a payload into framed parts. */
export function encodeQrParts(payload: Uint8Array, bytesPerPart = QR_BYTES_PER_PART): Result<string[]> {
  const total = Math.max(1, Math.ceil(payload.length / bytesPerPart));
  if (total > QR_MAX_PARTS) {
    return fail(OFFLINE_CODES.QR_TOO_LARGE, `payload: ${payload.length} bytes need ${total} parts, more than ${QR_MAX_PARTS}`, { field: 'payload' });
  }
  const hash = payloadHashPrefix(payload);
  const parts: string[] = [];
  for (let part = 1; part <= total; part++) {
    const chunk = payload.subarray((part - 1) * bytesPerPart, part * bytesPerPart);
    parts.push(`${QR_PREFIX}/${part}/${total}/${hash}/${encodeBase64url(chunk)}`);
  }
  return ok(parts);
}

/** Frame a request or response document (its canonical text). */
export function encodeDocumentQr(document: CanonicalValue, bytesPerPart = QR_BYTES_PER_PART): Result<string[]> {
  return encodeQrParts(asciiToBytes(canonicalJson(document)), bytesPerPart);
}

export interface QrProgress {
  readonly received: number;
  readonly total: number;
  /** Exact repeats seen so far (normal for an animated loop). */
  readonly duplicates: number;
  readonly complete: boolean;
}

function shorten(text: string): string {
  return JSON.stringify(text.length > 48 ? `${text.slice(0, 48)}…` : text);
}

/** Collects parts as a camera or a person delivers them. */
export class QrAssembler {
  private set: { readonly total: number; readonly hash: string } | null = null;
  private readonly chunks = new Map<number, { readonly text: string; readonly bytes: Uint8Array }>();
  private duplicates = 0;

  add(part: string): Result<QrProgress> {
    const match = PART_PATTERN.exec(part);
    if (!match) {
      return fail(OFFLINE_CODES.QR_MALFORMED_PART, `QR part ${shorten(part)}: expected ${QR_PREFIX}/<part>/<total>/<16 hex digits>/<base64url>`, { field: 'part' });
    }
    const number = Number(match[1]);
    const total = Number(match[2]);
    const hash = match[3]!;
    const text = match[4]!;
    if (number > total) return fail(OFFLINE_CODES.QR_MALFORMED_PART, `QR part ${shorten(part)}: part ${number} of ${total} is beyond the total`, { field: 'part' });
    if (this.set === null) this.set = { total, hash };
    else if (this.set.total !== total || this.set.hash !== hash) {
      return fail(
        OFFLINE_CODES.QR_MISMATCHED_SET,
        `QR part ${number}/${total} with hash ${hash} belongs to another set than the parts read so far (${this.set.total} parts, hash ${this.set.hash})`,
        { field: 'part' },
      );
    }
    const existing = this.chunks.get(number);
    if (existing) {
      if (existing.text !== text) {
        return fail(OFFLINE_CODES.QR_CONFLICTING_DUPLICATE, `QR part ${number}/${total} arrived twice with different contents: one of them is corrupt`, {
          field: 'part',
        });
      }
      this.duplicates++;
      return ok(this.progress());
    }
    const bytes = decodeBase64url(text, `QR part ${number}/${total}`);
    if (!bytes.ok) return fail(OFFLINE_CODES.QR_MALFORMED_PART, bytes.message, { field: 'part' });
    this.chunks.set(number, { text, bytes: bytes.value });
    return ok(this.progress());
  }

  progress(): QrProgress {
    const total = this.set?.total ?? 0;
    return { received: this.chunks.size, total, duplicates: this.duplicates, complete: total > 0 && this.chunks.size === total };
  }

  /** Part numbers not read yet. */
  missing(): number[] {
    const total = this.set?.total ?? 0;
    return Array.from({ length: total }, (_, index) => index + 1).filter((number) => !this.chunks.has(number));
  }

  /** The payload, once every part is in and the hash matches. */
  finish(): Result<Uint8Array> {
    if (this.set === null) return fail(OFFLINE_CODES.QR_INCOMPLETE, 'no QR parts were read', { field: 'parts' });
    const missing = this.missing();
    if (missing.length > 0) {
      return fail(OFFLINE_CODES.QR_INCOMPLETE, `QR parts missing: ${missing.join(', ')} of ${this.set.total}`, { field: 'parts', missing: missing.join(',') });
    }
    const chunks = Array.from({ length: this.set.total }, (_, index) => this.chunks.get(index + 1)!.bytes);
    const payload = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      payload.set(chunk, offset);
      offset += chunk.length;
    }
    const actual = payloadHashPrefix(payload);
    if (actual !== this.set.hash) {
      return fail(
        OFFLINE_CODES.QR_CORRUPT,
        `the reassembled payload hashes to ${actual}, not to ${this.set.hash} as its parts say: a part was misread or altered; read them again`,
        { field: 'parts' },
      );
    }
    return ok(payload);
  }
}

/** Reassemble parts given all at once (pasted strings), in any order. */
export function decodeQrParts(parts: readonly string[]): Result<{ payload: Uint8Array; duplicates: number }> {
  const assembler = new QrAssembler();
  for (const part of parts) {
    const added = assembler.add(part);
    if (!added.ok) return added;
  }
  const payload = assembler.finish();
  return payload.ok ? ok({ payload: payload.value, duplicates: assembler.progress().duplicates }) : payload;
}

/** A reassembled payload as the JSON value it carries (canonical text is ASCII). */
export function parsePayloadJson(payload: Uint8Array): Result<unknown> {
  const text = bytesToAscii(payload);
  if (text === null) return fail(OFFLINE_CODES.QR_CORRUPT, 'the reassembled payload is not ASCII text', { field: 'payload' });
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (error) {
    return fail(OFFLINE_CODES.QR_CORRUPT, `the reassembled payload is not JSON: ${error instanceof Error ? error.message : String(error)}`, { field: 'payload' });
  }
}
