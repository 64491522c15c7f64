// Body parsing with a zod schema through shared/schema's parseWith: the refusal names the
// first offending field and its value (code 1001, HTTP 400).
import type { z } from 'zod';
import { parseWith } from '../../shared/schema';
import { invalid, type Refusal } from './errors';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> | Refusal {
  if (body === undefined) return invalid('body: expected a JSON object, got nothing');
  const parsed = parseWith(schema, body, 'body');
  return parsed.ok ? parsed.value : invalid(parsed.message);
}
