// One parsed HTTP request as routes see it: method, path, query, headers, client IP and the
// body as `unknown` (a route narrows it with a schema before use).

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly ip: string;
  /** Parsed JSON body; undefined when the request had none. */
  readonly body: unknown;
}

export function header(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
