// What the offline signer returns: which request it answers (id and hash of its canonical text),
// the 64-byte signature in the spec 5.4 layout (r ‖ s, low s, recovery id in the top bit of
// byte 32), and the address of the key that signed. Signatures are public; the file needs no
// protection, only the verification in verify-response.ts before use.
import { z } from 'zod';
import type { B256 } from '../encoding/b256';
import { ok, type Result } from '../result';
import { parseWith } from '../schema';
import { canonicalHash, type CanonicalValue } from './canonical-json';
import { OFFLINE_CODES } from './codes';
import { checkFormatAndVersion, REQUEST_ID_PATTERN } from './request-format';

export const RESPONSE_FORMAT = 'ledger-terminal/offline-signature';
export const RESPONSE_VERSION = 1;

export interface OfflineResponse {
  readonly version: typeof RESPONSE_VERSION;
  readonly request_id: string;
  /** requestHash() of the request that was shown and signed. */
  readonly request_hash: string;
  /** 0x + 128 lowercase hex digits. */
  readonly signature: string;
  readonly signer: B256;
}

const responseSchema = z.strictObject({
  format: z.literal(RESPONSE_FORMAT),
  version: z.literal(RESPONSE_VERSION),
  request_id: z.string().regex(REQUEST_ID_PATTERN, 'expected 32 lowercase hex digits'),
  request_hash: z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x followed by 64 lowercase hex digits'),
  signature: z.string().regex(/^0x[0-9a-f]{128}$/, 'expected 0x followed by 128 lowercase hex digits (64 bytes)'),
  signer: z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x followed by 64 lowercase hex digits'),
});

export function parseOfflineResponse(value: unknown, root = 'response'): Result<OfflineResponse> {
  const header = checkFormatAndVersion(value, RESPONSE_FORMAT, RESPONSE_VERSION, root);
  if (!header.ok) return header;
  const parsed = parseWith(responseSchema, value, root, OFFLINE_CODES.MALFORMED);
  if (!parsed.ok) return parsed;
  const json = parsed.value;
  return ok({ version: RESPONSE_VERSION, request_id: json.request_id, request_hash: json.request_hash, signature: json.signature, signer: json.signer as B256 });
}

export function responseToJson(response: OfflineResponse): CanonicalValue {
  return {
    format: RESPONSE_FORMAT,
    version: RESPONSE_VERSION,
    request_id: response.request_id,
    request_hash: response.request_hash,
    signature: response.signature,
    signer: response.signer,
  };
}

export function responseHash(response: OfflineResponse): string {
  return canonicalHash(responseToJson(response));
}
