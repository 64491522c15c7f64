// Narrowing a JSON body member by member with messages that name the field and the value.
// Used for the small bodies (accounts, faucet, whitelist); the signed bodies are parsed with
// shared/api's schemas.
import { parseB256, type B256 } from '../../shared/encoding/b256';
import { parseIdentity, type Identity } from '../../shared/encoding/identity';
import { invalid, show, type Refusal } from './errors';

export type JsonObject = Readonly<Record<string, unknown>>;

export function bodyObject(body: unknown): JsonObject | Refusal {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid(`body: expected a JSON object, got ${show(body)}`);
  return body as JsonObject;
}

export function b256Field(object: JsonObject, name: string): B256 | Refusal {
  const parsed = parseB256(object[name], name);
  return parsed.ok ? parsed.value : invalid(parsed.message);
}

export function identityField(object: JsonObject, name: string): Identity | Refusal {
  const parsed = parseIdentity(object[name], name);
  return parsed.ok ? parsed.value : invalid(parsed.message);
}

/** Refuse members the endpoint does not know, so a misspelt field is not silently ignored. */
export function onlyFields(object: JsonObject, allowed: readonly string[]): Refusal | undefined {
  const unknown = Object.keys(object).find((key) => !allowed.includes(key));
  return unknown === undefined ? undefined : invalid(`${unknown}: unknown field (expected ${allowed.join(', ')}), got ${show(object[unknown])}`);
}
