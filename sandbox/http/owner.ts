// The `Svc-Owner-Id` header: required on owner-authenticated endpoints, a B256 with or without
// `0x`, and it must name the owner of the account the request acts on.
import { parseOwnerB256, type B256 } from '../../shared/encoding/b256';
import { identityValue } from '../../shared/encoding/identity';
import type { ContractAccount } from '../ledger/accounts';
import { ErrorCode, Refusal, refusal } from './errors';
import { header, type ApiRequest } from './request';

export const OWNER_HEADER = 'Svc-Owner-Id';

export function ownerHeader(request: ApiRequest): B256 | Refusal {
  const raw = header(request, OWNER_HEADER);
  if (raw === undefined) return refusal(ErrorCode.MISSING_OWNER, `${OWNER_HEADER}: required header missing`);
  const parsed = parseOwnerB256(raw.trim(), OWNER_HEADER);
  return parsed.ok ? parsed.value : refusal(ErrorCode.MISSING_OWNER, parsed.message);
}

function checkOwner(owner: B256, account: ContractAccount, ownerOf: (account: ContractAccount) => string): Refusal | undefined {
  if (ownerOf(account) === owner) return undefined;
  return refusal(ErrorCode.OWNER_MISMATCH, `${OWNER_HEADER}: ${owner} is not the owner of trade account ${account.id}`);
}

/** The account an owner-authenticated request acts on: header present, account exists, header names its owner. */
export function ownedAccount(
  request: ApiRequest,
  accounts: ReadonlyMap<string, ContractAccount>,
  id: string,
  // A margin child is owned through its parent (the parent's owner signs for it).
  ownerOf: (account: ContractAccount) => string = (account) => identityValue(account.owner),
): ContractAccount | Refusal {
  const owner = ownerHeader(request);
  if (owner instanceof Refusal) return owner;
  const account = accounts.get(id);
  if (account === undefined) return refusal(ErrorCode.ACCOUNT_NOT_FOUND, 'Account not found', 404);
  return checkOwner(owner, account, ownerOf) ?? account;
}
