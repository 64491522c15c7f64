// Base64url without padding (RFC 4648 section 5), strict on input: only the 64 letters of the
// alphabet, no padding, no whitespace, and unused trailing bits zero, so each byte string has
// exactly one text. Written here because shared/ has neither Buffer nor atob.
import { fail, ok, type Result } from '../result';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES = new Map<string, number>(Array.from(ALPHABET, (letter, index) => [letter, index]));

export const INVALID_BASE64URL = 'INVALID_BASE64URL';

export function encodeBase64url(bytes: Uint8Array): string {
  let out = '';
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const triple = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!;
    out += ALPHABET[triple >> 18]! + ALPHABET[(triple >> 12) & 63]! + ALPHABET[(triple >> 6) & 63]! + ALPHABET[triple & 63]!;
  }
  const rest = bytes.length - index;
  if (rest === 1) {
    const value = bytes[index]!;
    out += ALPHABET[value >> 2]! + ALPHABET[(value & 3) << 4]!;
  } else if (rest === 2) {
    const value = (bytes[index]! << 8) | bytes[index + 1]!;
    out += ALPHABET[value >> 10]! + ALPHABET[(value >> 4) & 63]! + ALPHABET[(value & 15) << 2]!;
  }
  return out;
}

export function decodeBase64url(text: string, field: string): Result<Uint8Array> {
  if (text.length % 4 === 1) return fail(INVALID_BASE64URL, `${field}: base64url text cannot have length ${text.length} (a multiple of 4 plus 1)`, { field });
  const values: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const value = VALUES.get(text[index]!);
    if (value === undefined) return fail(INVALID_BASE64URL, `${field}: ${JSON.stringify(text[index])} at position ${index} is not a base64url letter`, { field });
    values.push(value);
  }
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let written = 0;
  let index = 0;
  for (; index + 3 < values.length; index += 4) {
    const quad = (values[index]! << 18) | (values[index + 1]! << 12) | (values[index + 2]! << 6) | values[index + 3]!;
    out[written++] = quad >> 16;
    out[written++] = (quad >> 8) & 255;
    out[written++] = quad & 255;
  }
  const rest = values.length - index;
  if (rest === 2) {
    if ((values[index + 1]! & 15) !== 0) return fail(INVALID_BASE64URL, `${field}: the last letter has non-zero unused bits`, { field });
    out[written] = (values[index]! << 2) | (values[index + 1]! >> 4);
  } else if (rest === 3) {
    if ((values[index + 2]! & 3) !== 0) return fail(INVALID_BASE64URL, `${field}: the last letter has non-zero unused bits`, { field });
    const value = (values[index]! << 10) | (values[index + 1]! << 4) | (values[index + 2]! >> 2);
    out[written] = value >> 8;
    out[written + 1] = value & 255;
  }
  return ok(out);
}
