// Identity: exactly one of `Address` (a wallet) or `ContractId` (a contract such as a trading account).
// On the wire it is an object with exactly one key; in bytes a u64 discriminant then 32 bytes.
import { fail, ok, type Result } from '../result';
import { showValue } from '../schema';
import { parseB256, type B256 } from './b256';

export type Identity = { readonly Address: B256 } | { readonly ContractId: B256 };
export type IdentityKind = 'Address' | 'ContractId';

export const INVALID_IDENTITY = 'INVALID_IDENTITY';

/** Discriminants of the Identity enum in call data. */
export const IDENTITY_DISCRIMINANT: Readonly<Record<IdentityKind, bigint>> = { Address: 0n, ContractId: 1n };

export function addressIdentity(address: B256): Identity {
  return { Address: address };
}

export function contractIdentity(contractId: B256): Identity {
  return { ContractId: contractId };
}

export function identityKind(identity: Identity): IdentityKind {
  return 'Address' in identity ? 'Address' : 'ContractId';
}

export function identityValue(identity: Identity): B256 {
  return 'Address' in identity ? identity.Address : identity.ContractId;
}

/** Parse the JSON form `{Address: "0x…"}` or `{ContractId: "0x…"}`; any other key set is refused. */
export function parseIdentity(value: unknown, field: string): Result<Identity> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(INVALID_IDENTITY, `${field}: expected {Address} or {ContractId}, got ${showValue(value)}`, { field });
  }
  const keys = Object.keys(value);
  const key = keys[0];
  if (keys.length !== 1 || (key !== 'Address' && key !== 'ContractId')) {
    return fail(INVALID_IDENTITY, `${field}: expected exactly one key, Address or ContractId, got ${showValue(value)}`, { field });
  }
  const id = parseB256((value as Record<string, unknown>)[key], `${field}.${key}`);
  if (!id.ok) return id;
  return ok(key === 'Address' ? { Address: id.value } : { ContractId: id.value });
}

/** A short text for logs and the UI: `Address 0x…` or `ContractId 0x…`. */
export function formatIdentity(identity: Identity): string {
  return `${identityKind(identity)} ${identityValue(identity)}`;
}

/** The JSON form (a fresh plain object, safe to serialise). */
export function identityToJson(identity: Identity): { Address: string } | { ContractId: string } {
  return 'Address' in identity ? { Address: identity.Address } : { ContractId: identity.ContractId };
}

export function identitiesEqual(left: Identity, right: Identity): boolean {
  return identityKind(left) === identityKind(right) && identityValue(left) === identityValue(right);
}
