// Requests and responses as people carry them: a file's text, or the payloads of its QR codes
// (LTQR1 framing, one per line, any order, repeats allowed). Parsing is strict (shared/offline);
// the QR images are drawn here in main with the `qrcode` package, at the error-correction level
// the framing's part size assumes, and sent to the renderer as data: URLs.
import QRCode from 'qrcode';
import { prettyCanonicalJson } from '../../../shared/offline/canonical-json';
import { parseOfflineDocument, type OfflineDocument } from '../../../shared/offline/documents';
import { decodeQrParts, encodeDocumentQr, parsePayloadJson, QR_ERROR_CORRECTION, QR_PREFIX } from '../../../shared/offline/qr-framing';
import { requestToJson, type OfflineRequest } from '../../../shared/offline/request-format';
import { responseToJson, type OfflineResponse } from '../../../shared/offline/response-format';
import { fail, ok, type Result } from '../../../shared/result';
import { CUSTODY_CODES } from './codes';

type Expected = OfflineDocument['kind'];

const WHAT: Record<Expected, string> = { request: 'a signing request', response: 'a signature response' };

/** Parse pasted text (a JSON document, or QR payloads one per line) into the document expected. */
export function readDocumentText<K extends Expected>(text: string, expected: K, field = 'text'): Result<Extract<OfflineDocument, { kind: K }>> {
  const trimmed = text.trim();
  let value: unknown;
  if (trimmed.startsWith('{')) {
    try {
      value = JSON.parse(trimmed) as unknown;
    } catch (error) {
      return fail(CUSTODY_CODES.NOT_A_DOCUMENT, `${field}: not JSON (${error instanceof Error ? error.message : String(error)}); paste the whole file or the QR payloads`, { field });
    }
  } else {
    const lines = trimmed.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
    if (lines.length === 0 || !lines.every((line) => line.startsWith(`${QR_PREFIX}/`))) {
      return fail(CUSTODY_CODES.NOT_A_DOCUMENT, `${field}: expected ${WHAT[expected]} as a JSON file or as QR payloads (lines starting ${QR_PREFIX}/)`, { field });
    }
    const decoded = decodeQrParts(lines);
    if (!decoded.ok) return decoded;
    const json = parsePayloadJson(decoded.value.payload);
    if (!json.ok) return json;
    value = json.value;
  }
  const document = parseOfflineDocument(value);
  if (!document.ok) return document;
  if (document.value.kind !== expected) {
    return fail(CUSTODY_CODES.WRONG_DOCUMENT, `${field}: this is ${WHAT[document.value.kind]}, but ${WHAT[expected]} was expected here`, { field });
  }
  return ok(document.value as Extract<OfflineDocument, { kind: K }>);
}

export interface CarriedDocument {
  readonly fileText: string;
  readonly qrPayloads: readonly string[];
  readonly qrImages: readonly string[];
}

/** PNG data: URLs of the parts, in order. */
export async function qrImages(parts: readonly string[]): Promise<string[]> {
  return Promise.all(parts.map((part) => QRCode.toDataURL(part, { errorCorrectionLevel: QR_ERROR_CORRECTION, margin: 4, scale: 4 })));
}

/** The file text (indented canonical JSON, same hash as the canonical text), the QR payloads and images. */
export async function carry(document: { kind: 'request'; request: OfflineRequest } | { kind: 'response'; response: OfflineResponse }): Promise<Result<CarriedDocument>> {
  const json = document.kind === 'request' ? requestToJson(document.request) : responseToJson(document.response);
  const parts = encodeDocumentQr(json);
  if (!parts.ok) return parts;
  return ok({ fileText: `${prettyCanonicalJson(json)}\n`, qrPayloads: parts.value, qrImages: await qrImages(parts.value) });
}
