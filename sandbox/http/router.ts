// Exact-path routing: the API has no path parameters, so a map from "METHOD path" to a
// handler is enough, and an unknown path or a wrong method is answered with a stable code.
import { ErrorCode, refusal, show } from './errors';
import { refuse, type Reply } from './reply';
import type { ApiRequest } from './request';

export type Handler = (request: ApiRequest) => Reply | Promise<Reply>;

export class Router {
  private readonly routes = new Map<string, Map<string, Handler>>();

  on(method: string, path: string, handler: Handler): this {
    let byMethod = this.routes.get(path);
    if (!byMethod) {
      byMethod = new Map();
      this.routes.set(path, byMethod);
    }
    if (byMethod.has(method)) throw new Error(`route ${method} ${path} registered twice`);
    byMethod.set(method, handler);
    return this;
  }

  has(path: string): boolean {
    return this.routes.has(path);
  }

  dispatch(request: ApiRequest): Reply | Promise<Reply> {
    const byMethod = this.routes.get(request.path);
    if (!byMethod) return refuse(refusal(ErrorCode.NOT_FOUND, `path: no such endpoint, got ${show(request.path)}`, 404));
    const handler = byMethod.get(request.method);
    if (!handler) {
      const allowed = [...byMethod.keys()].join(', ');
      return refuse(refusal(ErrorCode.METHOD_NOT_ALLOWED, `method: ${request.path} accepts ${allowed}, got ${show(request.method)}`, 405));
    }
    return handler(request);
  }
}
