// Body parsing with a zod schema through shared/schema's parseWith: the refusal names the
// first offending field and its value (code 1001, HTTP 400).
import type { z } from 'zod';
import { parseWith } from '../../shared/schema';
import { ErrorCode, invalid, refusal, show, type Refusal } from './errors';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> | Refusal {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid(`body: expected a JSON object, got ${body === undefined ? 'nothing' : show(body)}`);
  const parsed = parseWith(schema, body, 'body');
  if (parsed.ok) return parsed.value;
  // shared/api names an unknown action kind this way: a stable code of its own (7001).
  if (parsed.message.includes('session action object') || parsed.message.includes('owner action object')) return refusal(ErrorCode.UNKNOWN_ACTION, parsed.message);
  return invalid(parsed.message);
}
