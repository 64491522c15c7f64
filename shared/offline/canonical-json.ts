// Canonical JSON: object keys sorted by UTF-16 code unit, no whitespace, integers only, and every
// character outside printable ASCII escaped as \uXXXX. One value has exactly one text, so the hash
// of a request is well defined whichever machine serialises it, and the text is plain ASCII, which
// keeps the QR framing and byte conversions free of any text-encoding question.
import { bytesToPrefixedHex } from '../encoding/hex';
import { sha256 } from '../crypto/hashes';
import { BugError } from '../result';

export type CanonicalValue = string | number | boolean | null | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue };

function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function write(value: CanonicalValue, path: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    // Fractions and large numbers have several spellings across serialisers; big values are
    // decimal strings in these formats, so a non-safe-integer here is a bug in the caller.
    if (!Number.isSafeInteger(value)) throw new BugError(`canonical JSON: ${path} is ${value}, only safe integers are allowed`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${(value as readonly CanonicalValue[]).map((item, index) => write(item, `${path}[${index}]`)).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as { readonly [key: string]: CanonicalValue };
    const keys = Object.keys(record).sort();
    return `{${keys
      .map((key) => {
        const item = record[key];
        if (item === undefined) throw new BugError(`canonical JSON: ${path}.${key} is undefined`);
        return `${quote(key)}:${write(item, `${path}.${key}`)}`;
      })
      .join(',')}}`;
  }
  throw new BugError(`canonical JSON: ${path} has type ${typeof value}`);
}

/** The canonical text of `value` (ASCII only). */
export function canonicalJson(value: CanonicalValue): string {
  return write(value, '$');
}

/** The same layout indented for people; parsing it gives the same value, hence the same hash. */
export function prettyCanonicalJson(value: CanonicalValue): string {
  return JSON.stringify(JSON.parse(canonicalJson(value)), null, 2).replace(/[\u007f-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** ASCII text to bytes; a character above 0x7f is a bug (canonical text never has one). */
export function asciiToBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code > 0x7f) throw new BugError(`asciiToBytes: character ${code} at ${index} is not ASCII`);
    bytes[index] = code;
  }
  return bytes;
}

/** Bytes to ASCII text, or null when a byte is above 0x7f (the text was not canonical). */
export function bytesToAscii(bytes: Uint8Array): string | null {
  let text = '';
  for (const byte of bytes) {
    if (byte > 0x7f) return null;
    text += String.fromCharCode(byte);
  }
  return text;
}

/** SHA-256 of the canonical text, 0x-prefixed lowercase hex. */
export function canonicalHash(value: CanonicalValue): string {
  return bytesToPrefixedHex(sha256(asciiToBytes(canonicalJson(value))));
}
