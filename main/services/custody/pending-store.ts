// Owner requests waiting for the offline signer, kept in the data directory so a restart (or a
// crash) between "prepared" and "signature imported" loses nothing: at most one per network,
// owner and kind. The request is stored as its canonical text and parsed strictly when read, so a
// file edited by hand is refused like any other request. Written atomically (JsonStore).
import { join } from 'node:path';
import { z } from 'zod';
import { canonicalJson } from '../../../shared/offline/canonical-json';
import { parseOfflineRequest, requestToJson, type OfflineRequest } from '../../../shared/offline/request-format';
import type { OwnerRequestKind } from '../../../shared/ipc/views/custody';
import { ok, type Result } from '../../../shared/result';
import { JsonStore } from '../storage/json-store';

export type PendingState = 'awaiting-signature' | 'submitting' | 'outcome-unknown';

const entrySchema = z.object({
  networkId: z.string().max(64),
  owner: z.string().max(66),
  kind: z.enum(['withdraw', 'session', 'owner-call']),
  /** Canonical text of the request. */
  request: z.string().max(64 * 1024),
  state: z.enum(['awaiting-signature', 'submitting', 'outcome-unknown']),
  /** The journal entry of the submission, once signed and journaled. */
  journalId: z.string().max(200).nullable(),
  /** Canonical text of the verified signature response, kept once imported (signatures are public). */
  response: z.string().max(4 * 1024).nullable(),
  detail: z.string().max(2_000).nullable(),
  /** For a session: the markets it was asked for (remembered for renewals once it is in force). */
  sessionMarkets: z.array(z.string().max(66)).max(64),
});

const fileSchema = z.object({ version: z.literal(1), requests: z.array(entrySchema).max(256) });

type Entry = z.output<typeof entrySchema>;

export interface PendingRecord {
  readonly networkId: string;
  readonly owner: string;
  readonly kind: OwnerRequestKind;
  readonly request: OfflineRequest;
  readonly state: PendingState;
  readonly journalId: string | null;
  readonly response: string | null;
  readonly detail: string | null;
  readonly sessionMarkets: readonly string[];
}

const same = (entry: Pick<Entry, 'networkId' | 'owner' | 'kind'>, networkId: string, owner: string, kind: OwnerRequestKind) =>
  entry.networkId === networkId && entry.owner === owner && entry.kind === kind;

export class PendingStore {
  private readonly store: JsonStore<typeof fileSchema>;

  constructor(
    dataDir: string,
    private readonly log: (line: string) => void,
  ) {
    this.store = new JsonStore(join(dataDir, 'custody', 'pending-requests.json'), fileSchema, () => ({ version: 1 as const, requests: [] }), log);
  }

  private decode(entry: Entry): PendingRecord | null {
    let value: unknown;
    try {
      value = JSON.parse(entry.request) as unknown;
    } catch {
      value = undefined;
    }
    const request = parseOfflineRequest(value);
    if (!request.ok) {
      this.log(`custody: a stored ${entry.kind} request of ${entry.owner} is unreadable and is ignored: ${request.message}`);
      return null;
    }
    return { ...entry, request: request.value };
  }

  list(networkId: string, owner: string): PendingRecord[] {
    return this.store
      .get()
      .requests.filter((entry) => entry.networkId === networkId && entry.owner === owner)
      .map((entry) => this.decode(entry))
      .filter((record): record is PendingRecord => record !== null);
  }

  /** Every stored record (all networks and owners). */
  all(): PendingRecord[] {
    return this.store
      .get()
      .requests.map((entry) => this.decode(entry))
      .filter((record): record is PendingRecord => record !== null);
  }

  get(networkId: string, owner: string, kind: OwnerRequestKind): PendingRecord | null {
    const entry = this.store.get().requests.find((candidate) => same(candidate, networkId, owner, kind));
    return entry ? this.decode(entry) : null;
  }

  /** Store `record`, replacing the one of the same network, owner and kind. */
  put(record: PendingRecord): Result<void> {
    const entry: Entry = { ...record, sessionMarkets: [...record.sessionMarkets], request: canonicalJson(requestToJson(record.request)) };
    const saved = this.store.update((file) => ({
      ...file,
      requests: [...file.requests.filter((candidate) => !same(candidate, record.networkId, record.owner, record.kind)), entry],
    }));
    return saved.ok ? ok(undefined) : saved;
  }

  update(networkId: string, owner: string, kind: OwnerRequestKind, change: Partial<Pick<PendingRecord, 'state' | 'journalId' | 'response' | 'detail'>>): Result<void> {
    const saved = this.store.update((file) => ({
      ...file,
      requests: file.requests.map((entry) => (same(entry, networkId, owner, kind) ? { ...entry, ...change } : entry)),
    }));
    return saved.ok ? ok(undefined) : saved;
  }

  remove(networkId: string, owner: string, kind: OwnerRequestKind): Result<void> {
    const saved = this.store.update((file) => ({ ...file, requests: file.requests.filter((entry) => !same(entry, networkId, owner, kind)) }));
    return saved.ok ? ok(undefined) : saved;
  }
}
