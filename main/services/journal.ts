// The journal of signed actions: every signed request is appended and flushed to disk BEFORE it
// is sent, and its outcome is appended after. After a crash, the entries that have no settled
// outcome are exactly the requests whose fate must be reconciled with the exchange before
// anything else is signed; nothing in the journal is ever resent blindly.
import { closeSync, existsSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { decodeFrame, encodeFrame } from '../../shared/ipc/codec';
import { ensureDirectory } from './files';

const nonceSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('sequential'), value: z.bigint() }),
  z.object({ mode: z.literal('parallel'), lane: z.number().int().min(0).max(4), value: z.bigint() }),
  z.object({ mode: z.literal('none') }),
]);

export type JournalNonce = z.output<typeof nonceSchema>;

export const outcomeStatuses = ['accepted', 'refused', 'reverted', 'unknown'] as const;
export const reconciliationStatuses = ['landed', 'not-landed'] as const;

const entrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('signed'),
    seq: z.number().int().nonnegative(),
    at: z.number(),
    id: z.string(),
    networkId: z.string(),
    /** The account the request acts for (trade account, or the owner for account creation). */
    account: z.string(),
    endpoint: z.string(),
    nonce: nonceSchema,
    /** The actions as sent (public order data; never a key or a signature). */
    actions: z.array(z.unknown()),
    /** Free text a person reads in the journal view. */
    description: z.string(),
  }),
  z.object({
    kind: z.literal('outcome'),
    seq: z.number().int().nonnegative(),
    at: z.number(),
    id: z.string(),
    status: z.enum(outcomeStatuses),
    txId: z.string().nullable(),
    orderIds: z.array(z.string()),
    code: z.string().nullable(),
    message: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('reconciled'),
    seq: z.number().int().nonnegative(),
    at: z.number(),
    id: z.string(),
    status: z.enum(reconciliationStatuses),
    detail: z.string(),
  }),
]);

export type JournalEntry = z.output<typeof entrySchema>;
export type SignedEntry = Extract<JournalEntry, { kind: 'signed' }>;
export type OutcomeEntry = Extract<JournalEntry, { kind: 'outcome' }>;
export type ReconciledEntry = Extract<JournalEntry, { kind: 'reconciled' }>;

type Omitted<T> = Omit<T, 'kind' | 'seq' | 'at'>;

/** Zeros kept ahead of the data (see ensureRoom). */
const CHUNK_BYTES = 1024 * 1024;
const ROOM_MARGIN = 64 * 1024;

export interface JournalOptions {
  readonly directory: string;
  readonly now: () => number;
  /** Rotate the active file past this size; unresolved entries are carried into the new file. */
  readonly rotateBytes?: number;
  /** How many recent entries are kept in memory for the journal view. */
  readonly memoryEntries?: number;
  readonly log?: (line: string) => void;
}

export interface JournalRecord {
  readonly signed: SignedEntry;
  readonly outcome: OutcomeEntry | null;
  readonly reconciled: ReconciledEntry | null;
}

export class Journal {
  private readonly path: string;
  private fd: number;
  private seq = 0;
  private bytes = 0;
  /** Size of the file, zeros after the data included. */
  private allocated = 0;
  /** Asynchronous appends not yet flushed (rotation waits for none). */
  private inFlight = 0;
  /** Settles when every append so far has been flushed (or failed). */
  private tail: Promise<void> = Promise.resolve();
  /** Why a flush to the device failed, once one has: the journal can no longer be trusted. */
  private flushFailure: string | null = null;
  private closed = false;
  /** Written entries the listeners have not heard of yet, in order (see `announce`). */
  private readonly unannounced: JournalEntry[] = [];
  private announcing = false;
  private readonly recent: JournalEntry[] = [];
  /** Signed entries whose outcome is missing or unknown and not yet reconciled. */
  private readonly open = new Map<string, JournalRecord>();
  private readonly records = new Map<string, JournalRecord>();
  private readonly listeners = new Set<(entry: JournalEntry) => void>();

  constructor(private readonly options: JournalOptions) {
    ensureDirectory(options.directory);
    this.path = join(options.directory, 'journal.jsonl');
    this.fd = openSync(this.path, existsSync(this.path) ? 'r+' : 'w+', 0o600);
    this.load();
    this.ensureRoom(0);
  }

  /**
   * Read the valid entries. The file is preallocated (zeros after the last entry), so the data ends
   * at the first NUL byte; a torn last line from a crash is dropped, and the bytes of that line are
   * zeroed so a later, shorter entry written over it leaves no garbage behind.
   */
  private load(): void {
    const size = fstatSync(this.fd).size;
    this.allocated = size;
    if (size === 0) return;
    const raw = Buffer.alloc(size);
    readSync(this.fd, raw, 0, size, 0);
    const nul = raw.indexOf(0);
    const dataEnd = nul === -1 ? size : nul;
    const text = raw.subarray(0, dataEnd).toString('utf8');
    let validLength = 0;
    let offset = 0;
    for (const line of text.split('\n')) {
      const lineLength = Buffer.byteLength(line) + 1;
      if (line.trim() === '') {
        offset += lineLength;
        continue;
      }
      let entry: JournalEntry;
      try {
        entry = entrySchema.parse(decodeFrame(line));
      } catch {
        // A torn final line from a crash mid-write: drop it and everything after.
        this.options.log?.(`journal: ignoring an unreadable entry at byte ${offset}`);
        break;
      }
      offset += lineLength;
      validLength = offset;
      this.remember(entry);
    }
    validLength = Math.min(validLength, dataEnd);
    if (validLength < dataEnd) {
      writeSync(this.fd, Buffer.alloc(dataEnd - validLength), 0, dataEnd - validLength, validLength);
      fdatasyncSync(this.fd);
    }
    this.bytes = validLength;
  }

  /**
   * Keep zeros ahead of the write position: an append then changes no file size, so its flush is a
   * data-only fdatasync (the metadata journal of the file system is not involved), which is what
   * keeps the order path fast.
   */
  private ensureRoom(length: number): void {
    if (this.bytes + length + ROOM_MARGIN <= this.allocated) return;
    const grow = Math.max(CHUNK_BYTES, length + ROOM_MARGIN);
    writeSync(this.fd, Buffer.alloc(grow), 0, grow, this.allocated);
    fdatasyncSync(this.fd);
    this.allocated += grow;
  }

  private remember(entry: JournalEntry): void {
    this.seq = Math.max(this.seq, entry.seq + 1);
    this.recent.push(entry);
    const limit = this.options.memoryEntries ?? 2000;
    if (this.recent.length > limit) this.recent.splice(0, this.recent.length - limit);
    if (entry.kind === 'signed') {
      const record = { signed: entry, outcome: null, reconciled: null };
      this.records.set(entry.id, record);
      this.open.set(entry.id, record);
    } else {
      const record = this.records.get(entry.id);
      if (!record) return;
      const next = entry.kind === 'outcome' ? { ...record, outcome: entry } : { ...record, reconciled: entry };
      this.records.set(entry.id, next);
      const settled = next.reconciled !== null || (next.outcome !== null && next.outcome.status !== 'unknown');
      if (settled) this.open.delete(entry.id);
      else this.open.set(entry.id, next);
    }
    // Records of settled requests are only needed for the journal view, which reads `recent`.
    if (this.records.size > (this.options.memoryEntries ?? 2000)) {
      for (const id of this.records.keys()) {
        if (this.records.size <= (this.options.memoryEntries ?? 2000)) break;
        if (!this.open.has(id)) this.records.delete(id);
      }
    }
  }

  /** Claim the bytes of one line at the end of the data, in order. */
  private reserve(entry: JournalEntry): { line: Buffer; offset: number } {
    const line = Buffer.from(`${encodeFrame(entry)}\n`);
    this.ensureRoom(line.length);
    const offset = this.bytes;
    this.bytes += line.length;
    this.remember(entry);
    return { line, offset };
  }

  /**
   * Listeners (the journal view of every window) hear of entries in order, on the next turn of the
   * event loop: telling them is never on the way of a request to the exchange.
   */
  private announce(entry: JournalEntry): void {
    this.unannounced.push(entry);
    if (this.announcing) return;
    this.announcing = true;
    setImmediate(() => {
      this.announcing = false;
      for (const next of this.unannounced.splice(0)) for (const listener of this.listeners) listener(next);
    });
  }

  /** Rotate once the active file is past its limit and no flush is in flight on its descriptor. */
  private rotateIfDue(): void {
    if (this.closed || this.inFlight > 0 || this.bytes <= (this.options.rotateBytes ?? 8 * 1024 * 1024)) return;
    this.rotate();
  }

  /** Write and flush synchronously: when this returns the entry is on disk. */
  private write(entry: JournalEntry): void {
    const { line, offset } = this.reserve(entry);
    writeSync(this.fd, line, 0, line.length, offset);
    this.flushNow();
    this.announce(entry);
    this.rotateIfDue();
  }

  private flushNow(): void {
    try {
      fdatasyncSync(this.fd);
    } catch (error) {
      this.flushFailed(error as NodeJS.ErrnoException);
      throw error;
    }
  }

  private flushFailed(error: NodeJS.ErrnoException): void {
    // After a failed fsync the kernel may have dropped the dirty pages: what is in the file is
    // unknown. Nothing more is sent on the strength of this journal.
    this.flushFailure ??= `${error.code ?? 'EIO'}: ${error.message}`;
    this.options.log?.(`journal: a flush to disk failed (${error.message}); no further request will be sent`);
  }

  /**
   * Write at once, flush on the I/O thread pool. When this returns the entry is in the file (the
   * OS's page cache): it survives the app dying at any point from here on, and the caller can sign
   * meanwhile. The promise settles once the entry is on the device: a request is sent only after
   * that. A write that fails throws; a flush that fails rejects the promise and marks the whole
   * journal failed (see `failure()`).
   */
  private writeDurably(entry: JournalEntry): Promise<void> {
    const { line, offset } = this.reserve(entry);
    // The bytes go to the file at once (a fast copy into the page cache), so entries are always
    // contiguous and in order even if the process dies now; only the flush to the device is left
    // to the I/O thread pool.
    writeSync(this.fd, line, 0, line.length, offset);
    this.announce(entry);
    this.inFlight++;
    const done = new Promise<void>((resolve, reject) => {
      fdatasync(this.fd, (syncError) => {
        this.inFlight--;
        if (syncError) {
          this.flushFailed(syncError);
          reject(syncError);
          return;
        }
        resolve();
        // Not before the caller has sent its request (that runs first, in the promise's reaction).
        setImmediate(() => this.rotateIfDue());
      });
    });
    this.tail = Promise.all([this.tail, done.catch(() => undefined)]).then(() => undefined);
    return done;
  }

  /** Why the journal failed to reach the disk, or null while it is sound. */
  failure(): string | null {
    return this.flushFailure;
  }

  private rotate(): void {
    // The archive keeps only its data: the preallocated zeros are cut off.
    ftruncateSync(this.fd, this.bytes);
    fdatasyncSync(this.fd);
    closeSync(this.fd);
    const archived = join(this.options.directory, `journal-${this.options.now()}-${this.seq}.jsonl`);
    renameSync(this.path, archived);
    this.fd = openSync(this.path, 'w+', 0o600);
    this.bytes = 0;
    this.allocated = 0;
    // Carry what is still unresolved, so a restart finds it in the active file.
    const carried: Buffer[] = [];
    for (const record of this.open.values()) {
      for (const entry of [record.signed, record.outcome, record.reconciled]) {
        if (entry !== null) carried.push(Buffer.from(`${encodeFrame(entry)}\n`));
      }
    }
    const data = Buffer.concat(carried);
    this.ensureRoom(data.length);
    writeSync(this.fd, data, 0, data.length, 0);
    this.bytes = data.length;
    fdatasyncSync(this.fd);
    this.options.log?.(`journal rotated to ${archived}`);
  }

  appendSigned(entry: Omitted<SignedEntry>): SignedEntry {
    const full: SignedEntry = { kind: 'signed', seq: this.seq, at: this.options.now(), ...entry };
    this.write(full);
    return full;
  }

  /**
   * The order path's append: when this returns, the entry is in the journal (and in
   * `unresolved()`) and in the file, so it outlives a crash of the app; `flushed` settles once it
   * is on the device, and the request may be sent only then (it is signed meanwhile). Throws when
   * the entry could not be written, and `flushed` rejects when it could not be flushed: send
   * nothing in either case.
   */
  appendSignedDurably(entry: Omitted<SignedEntry>): { entry: SignedEntry; flushed: Promise<void> } {
    const full: SignedEntry = { kind: 'signed', seq: this.seq, at: this.options.now(), ...entry };
    return { entry: full, flushed: this.writeDurably(full) };
  }

  /**
   * Outcomes are recorded in order and at once in memory, and flushed without blocking the event
   * loop (the next order may be waiting): if the app dies before the flush, the request simply looks
   * unresolved at the next start and is reconciled, which is safe.
   */
  appendOutcome(entry: Omitted<OutcomeEntry>): OutcomeEntry {
    const full: OutcomeEntry = { kind: 'outcome', seq: this.seq, at: this.options.now(), ...entry };
    try {
      this.writeDurably(full).catch((error: unknown) => this.options.log?.(`journal: an outcome could not be flushed: ${String(error)}`));
    } catch (error) {
      this.options.log?.(`journal: an outcome could not be written: ${String(error)}`);
    }
    return full;
  }

  appendReconciled(entry: Omitted<ReconciledEntry>): ReconciledEntry {
    const full: ReconciledEntry = { kind: 'reconciled', seq: this.seq, at: this.options.now(), ...entry };
    this.write(full);
    return full;
  }

  /** Requests sent (or about to be) whose result is not known: reconcile these first. */
  unresolved(): JournalRecord[] {
    return [...this.open.values()];
  }

  /** Newest first, for the journal view. */
  list(limit: number, beforeSeq?: number): JournalEntry[] {
    const entries = beforeSeq === undefined ? this.recent : this.recent.filter((entry) => entry.seq < beforeSeq);
    return entries.slice(-limit).reverse();
  }

  onEntry(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Bytes of entries in the active file (the file itself is preallocated beyond them). */
  dataBytes(): number {
    return this.bytes;
  }

  /** Resolves once every entry appended so far is on disk. */
  flushed(): Promise<void> {
    return this.tail;
  }

  /** Close after every pending entry is flushed (and the file rotated if it is due). */
  async close(): Promise<void> {
    await this.tail;
    this.rotateIfDue();
    this.closed = true;
    closeSync(this.fd);
  }
}
