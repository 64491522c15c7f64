// A small fetch wrapper: a timeout on every request, JSON in and out, and failures as data.
import { fail, ok, type Result } from '../../shared/result';

export const NETWORK_ERROR = 'NETWORK_ERROR';
export const TIMEOUT = 'TIMEOUT';
export const BAD_RESPONSE = 'BAD_RESPONSE';

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
}

export type HttpFetch = (request: HttpRequest) => Promise<Result<HttpResponse>>;

export const fetchJson: HttpFetch = async (request) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: { accept: 'application/json', ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: controller.signal,
    });
    const text = await response.text();
    let body: unknown = null;
    if (text.length > 0) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        return fail(BAD_RESPONSE, `${request.method} ${new URL(request.url).pathname}: the server answered HTTP ${response.status} with a body that is not JSON`);
      }
    }
    return ok({ status: response.status, body });
  } catch (error) {
    if (controller.signal.aborted) {
      return fail(TIMEOUT, `${request.method} ${new URL(request.url).pathname}: no answer within ${request.timeoutMs} ms`);
    }
    return fail(NETWORK_ERROR, `${request.method} ${new URL(request.url).pathname}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
};
