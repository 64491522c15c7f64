// Query-string parsing for the read endpoints. Each helper returns the value or a Refusal
// naming the parameter and what it got (code 1001, HTTP 400).
import { parseB256, parseOwnerB256, type B256 } from '../../shared/encoding/b256';
import { invalid, show, type Refusal } from './errors';

export function optionalB256(query: URLSearchParams, name: string): B256 | undefined | Refusal {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const parsed = parseB256(raw, name);
  return parsed.ok ? parsed.value : invalid(parsed.message);
}

/** An owner id: accepted with or without `0x`, like the owner header. */
export function optionalOwnerB256(query: URLSearchParams, name: string): B256 | undefined | Refusal {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const parsed = parseOwnerB256(raw, name);
  return parsed.ok ? parsed.value : invalid(parsed.message);
}

export function requiredB256(query: URLSearchParams, name: string): B256 | Refusal {
  const value = optionalB256(query, name);
  return value === undefined ? invalid(`${name}: required, got nothing`) : value;
}

export interface IntegerRule {
  readonly min: number;
  readonly max: number;
  readonly fallback?: number;
}

export function integer(query: URLSearchParams, name: string, rule: IntegerRule): number | Refusal {
  const raw = query.get(name);
  if (raw === null || raw === '') {
    return rule.fallback === undefined ? invalid(`${name}: required, got nothing`) : rule.fallback;
  }
  if (!/^-?\d+$/.test(raw)) return invalid(`${name}: expected an integer in [${rule.min}, ${rule.max}], got ${show(raw)}`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < rule.min || value > rule.max) {
    return invalid(`${name}: expected an integer in [${rule.min}, ${rule.max}], got ${show(raw)}`);
  }
  return value;
}

export function optionalInteger(query: URLSearchParams, name: string, rule: IntegerRule): number | undefined | Refusal {
  return query.get(name) === null ? undefined : integer(query, name, rule);
}

/** A non-negative integer string as bigint (timestamps in ns, cursors). */
export function optionalBigInt(query: URLSearchParams, name: string): bigint | undefined | Refusal {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,30}$/.test(raw)) return invalid(`${name}: expected a non-negative integer, got ${show(raw)}`);
  return BigInt(raw);
}

export function boolean(query: URLSearchParams, name: string, fallback: boolean): boolean | Refusal {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return invalid(`${name}: expected true or false, got ${show(raw)}`);
}

export function oneOf<T extends string>(query: URLSearchParams, name: string, values: readonly T[], fallback?: T): T | Refusal {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback === undefined ? invalid(`${name}: required (one of ${values.join(', ')}), got nothing`) : fallback;
  return (values as readonly string[]).includes(raw) ? (raw as T) : invalid(`${name}: expected one of ${values.join(', ')}, got ${show(raw)}`);
}
