// A small fetch wrapper: a timeout on every request, a bound on the response size, JSON in and out,
// and failures as data. A failure says whether the request can have reached the server
// (`details.stage`): `connect` means it never left (refused, unknown host), `exchange` means it
// may have been received and applied; the REST client reports a lost write of the second kind as
// OUTCOME_UNKNOWN.
import { fail, ok, type Result } from '../../shared/result';

export const NETWORK_ERROR = 'NETWORK_ERROR';
export const TIMEOUT = 'TIMEOUT';
export const BAD_RESPONSE = 'BAD_RESPONSE';

/** Large enough for a 500-level depth or a full market list, small enough to bound memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface HttpResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
  /** Refuse (BAD_RESPONSE) a body larger than this; default DEFAULT_MAX_RESPONSE_BYTES. */
  readonly maxResponseBytes?: number;
}

export type HttpFetch = (request: HttpRequest) => Promise<Result<HttpResponse>>;

/** Where a transport failure happened: before anything was sent, or possibly after. */
export type FailureStage = 'connect' | 'exchange';

// Error codes of Node's fetch (undici) and the OS that mean no byte of the request reached a server.
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

function causeOf(error: unknown): { code: string | null; message: string } {
  if (!(error instanceof Error)) return { code: null, message: String(error) };
  const cause: unknown = error.cause;
  const source = cause instanceof Error ? cause : error;
  const code = (source as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : null, message: source.message };
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

async function readBounded(response: Response, limit: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    return null;
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const fetchJson: HttpFetch = async (request) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  const label = `${request.method} ${pathOf(request.url)}`;
  const limit = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: { accept: 'application/json', ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: controller.signal,
    });
    const text = await readBounded(response, limit);
    if (text === null) return fail(BAD_RESPONSE, `${label}: the server answered HTTP ${response.status} with a body larger than ${limit} bytes`, { status: response.status });
    let body: unknown = null;
    if (text.length > 0) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        return fail(BAD_RESPONSE, `${label}: the server answered HTTP ${response.status} with a body that is not JSON`, { status: response.status });
      }
    }
    return ok({ status: response.status, body });
  } catch (error) {
    if (controller.signal.aborted) {
      return fail(TIMEOUT, `${label}: no answer within ${request.timeoutMs} ms`, { stage: 'exchange' satisfies FailureStage, timeoutMs: request.timeoutMs });
    }
    const cause = causeOf(error);
    const stage: FailureStage = cause.code !== null && CONNECT_FAILURES.has(cause.code) ? 'connect' : 'exchange';
    return fail(NETWORK_ERROR, `${label}: ${cause.message}`, { stage, cause: cause.code });
  } finally {
    clearTimeout(timer);
  }
};
