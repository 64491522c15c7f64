// A file or a reassembled QR payload holds either a request or a response; tell them apart by
// their `format` and parse strictly.
import { fail, type Result, ok } from '../result';
import { showValue } from '../schema';
import { OFFLINE_CODES } from './codes';
import { parseOfflineRequest, REQUEST_FORMAT, type OfflineRequest } from './request-format';
import { parseOfflineResponse, RESPONSE_FORMAT, type OfflineResponse } from './response-format';

export type OfflineDocument = { readonly kind: 'request'; readonly request: OfflineRequest } | { readonly kind: 'response'; readonly response: OfflineResponse };

export function parseOfflineDocument(value: unknown): Result<OfflineDocument> {
  const format = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).format : undefined;
  if (format === REQUEST_FORMAT) {
    const request = parseOfflineRequest(value);
    return request.ok ? ok({ kind: 'request', request: request.value }) : request;
  }
  if (format === RESPONSE_FORMAT) {
    const response = parseOfflineResponse(value);
    return response.ok ? ok({ kind: 'response', response: response.value }) : response;
  }
  return fail(OFFLINE_CODES.UNKNOWN_FORMAT, `format: expected "${REQUEST_FORMAT}" or "${RESPONSE_FORMAT}", got ${showValue(format)}`, { field: 'format' });
}
