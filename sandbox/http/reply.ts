// What a route hands back: a status and a JSON body. Routes never touch the socket.
import { ERROR_NAMES, type Refusal } from './errors';

export interface Reply {
  readonly status: number;
  readonly body: unknown;
}

export function json(body: unknown, status = 200): Reply {
  return { status, body };
}

export function refuse(r: Refusal): Reply {
  return { status: r.status, body: { code: r.code, name: ERROR_NAMES[r.code], message: r.message } };
}
