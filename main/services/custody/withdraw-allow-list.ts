// The withdrawal address allow-list: a hot owner key signs a withdrawal only to a destination the
// trader added here, through the trusted confirmer, at least `delay` before (24 h by default; the
// local sandbox, whose funds are minted for practice, 10 s). A renderer that names any other
// address is refused before anything is signed, and one that adds an address needs the trader's
// confirmation and then waits out the delay, long enough to be noticed (the host's terminal or
// the dialog said so). Kept per network in `withdraw-addresses.json` (JsonStore: schema-checked,
// written to a temporary file and renamed; a damaged file is set aside and the list starts empty,
// which refuses more, never less). Removing an address needs no confirmation: it only tightens.
import { join } from 'node:path';
import { z } from 'zod';
import type { B256 } from '../../../shared/encoding/b256';
import { identityKind, identityValue, type Identity } from '../../../shared/encoding/identity';
import { fail, ok, type Result } from '../../../shared/result';
import { JsonStore } from '../storage/json-store';
import type { NetworkKind } from '../network/networks';

export const DAY_MS = 24 * 3_600_000;
/** Delay before first use of an added address: a day, except on the local sandbox (practice funds). */
export const DEFAULT_ALLOW_DELAY_MS: Readonly<Record<NetworkKind, number>> = { mainnet: DAY_MS, testnet: DAY_MS, devnet: DAY_MS, sandbox: 10_000 };
export const MAX_ALLOWED_ADDRESSES = 64;

export const ALLOW_LIST_CODES = {
  NOT_ALLOWED: 'ADDRESS_NOT_ALLOWED',
  NOT_YET_USABLE: 'ADDRESS_NOT_YET_USABLE',
  ALREADY_ALLOWED: 'ADDRESS_ALREADY_ALLOWED',
  LIST_FULL: 'ADDRESS_LIST_FULL',
} as const;

const entry = z.object({
  kind: z.enum(['Address', 'ContractId']),
  value: z.string().regex(/^0x[0-9a-f]{64}$/),
  label: z.string().max(64),
  addedAt: z.number().int().min(0),
  usableFrom: z.number().int().min(0),
});

const fileSchema = z.object({ version: z.literal(1), networks: z.record(z.string(), z.array(entry)) });

export type AllowedAddress = z.output<typeof entry>;

export class WithdrawAllowList {
  private readonly store: JsonStore<typeof fileSchema>;

  constructor(dataDir: string, log: (line: string) => void) {
    this.store = new JsonStore(join(dataDir, 'withdraw-addresses.json'), fileSchema, () => ({ version: 1 as const, networks: {} }), log);
  }

  list(networkId: string): readonly AllowedAddress[] {
    return this.store.get().networks[networkId] ?? [];
  }

  find(networkId: string, to: Identity): AllowedAddress | null {
    const kind = identityKind(to);
    const value = identityValue(to);
    return this.list(networkId).find((candidate) => candidate.kind === kind && candidate.value === value) ?? null;
  }

  /** Whether a withdrawal to `to` may be signed now; the refusal names the address and when it becomes usable. */
  check(networkId: string, networkName: string, to: Identity, now: number): Result<AllowedAddress> {
    const found = this.find(networkId, to);
    const named = `to.${identityKind(to)}: ${identityValue(to)}`;
    if (!found) {
      return fail(ALLOW_LIST_CODES.NOT_ALLOWED, `${named} is not on the withdrawal allow-list of ${networkName}; add it first (allowWithdrawAddress, confirmed outside the app's window), then wait out the delay before first use`, { field: 'to' });
    }
    if (found.usableFrom > now) {
      const seconds = Math.ceil((found.usableFrom - now) / 1000);
      return fail(ALLOW_LIST_CODES.NOT_YET_USABLE, `${named} was added to the allow-list at ${new Date(found.addedAt).toISOString()} and may be used from ${new Date(found.usableFrom).toISOString()} (in ${seconds} s)`, { field: 'to', usableFrom: found.usableFrom });
    }
    return ok(found);
  }

  /** Validates an addition without storing it (so the confirmation shows exactly what will be stored). */
  prepare(networkId: string, to: Identity, label: string, now: number, delayMs: number): Result<AllowedAddress> {
    if (this.find(networkId, to)) return fail(ALLOW_LIST_CODES.ALREADY_ALLOWED, `to.${identityKind(to)}: ${identityValue(to)} is already on the allow-list`, { field: 'to' });
    if (this.list(networkId).length >= MAX_ALLOWED_ADDRESSES) return fail(ALLOW_LIST_CODES.LIST_FULL, `to: the allow-list holds at most ${MAX_ALLOWED_ADDRESSES} addresses per network; remove one first`, { field: 'to' });
    return ok({ kind: identityKind(to), value: identityValue(to) as B256, label, addedAt: now, usableFrom: now + delayMs });
  }

  add(networkId: string, address: AllowedAddress): Result<readonly AllowedAddress[]> {
    const saved = this.store.update((file) => ({ ...file, networks: { ...file.networks, [networkId]: [...(file.networks[networkId] ?? []).filter((candidate) => !(candidate.kind === address.kind && candidate.value === address.value)), address] } }));
    return saved.ok ? ok(saved.value.networks[networkId] ?? []) : saved;
  }

  remove(networkId: string, to: Identity): Result<readonly AllowedAddress[]> {
    const kind = identityKind(to);
    const value = identityValue(to);
    const saved = this.store.update((file) => ({ ...file, networks: { ...file.networks, [networkId]: (file.networks[networkId] ?? []).filter((candidate) => !(candidate.kind === kind && candidate.value === value)) } }));
    return saved.ok ? ok(saved.value.networks[networkId] ?? []) : saved;
  }
}
