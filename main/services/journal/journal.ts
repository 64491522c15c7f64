// The journal of signed actions: every signed request is appended and flushed to disk BEFORE it
// is sent, and its outcome is appended after. After a crash, the entries that have no settled
// outcome are exactly the requests whose fate must be reconciled with the exchange before
// anything else is signed; nothing in the journal is ever resent blindly.
//
// Each entry is a framed record with a length and a checksum (journal-format.ts). At start every
// file is read whole: a damaged record is skipped and the reading resumes at the next valid one,
// so no intact entry is lost. A damaged file is copied aside untouched, the damage is recorded
// (journal-damage.ts), and only then is the file rewritten with its valid entries. Until the
// trader has acknowledged the report, nothing that opens a position is signed (JOURNAL_DAMAGED).
import {
  closeSync,
  copyFileSync,
  constants,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { decodeFrame, encodeFrame } from '../../../shared/ipc/codec';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import { DamageReports, type DamageItem, type DamageReport } from './journal-damage';
import { encodeRecord, scanLines, scanRecords, type ByteRange } from './journal-format';
import { ensureDirectory } from '../storage/files';

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
    /**
     * The execution algorithm that signed it as one of its children (`<algorithm id>/<child key>`,
     * main/services/algos); absent for the trader's own requests and in journals written before.
     */
    parent: z.string().max(200).optional(),
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

/** The active file. */
export const ACTIVE_FILE = 'journal.log';
/** The active file of the earlier format (one JSON entry per line), migrated at start. */
export const LEGACY_ACTIVE_FILE = 'journal.jsonl';
/** The next active file while a rotation writes it (see rotate). */
const NEXT_FILE = '.journal.log.next';
export const DAMAGE_REPORTS_FILE = 'damage-reports.json';
/** Archives: `journal-<time>-<seq>.log` (`.jsonl` in the earlier format). */
const ARCHIVE = /^journal-(\d+)-(\d+)\.(log|jsonl)$/;

export const JOURNAL_DAMAGED = 'JOURNAL_DAMAGED';
/** Actions that only take risk off: still signed while a damage report is open. */
const RISK_OFF: ReadonlySet<string> = new Set(['CancelOrder', 'CancelTriggerOrder', 'SettleBalance']);

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

export type { DamageItem, DamageReport } from './journal-damage';

/**
 * How long one durable append took to reach the device, on main's `performance.now()` clock (ms):
 * from the moment its bytes were handed to the file to the moment the flush reported done. Two
 * clock reads per append, always taken, so the order path's floor can be measured per order.
 */
export interface FlushTiming {
  readonly writeStartedAt: number;
  readonly flushedAt: number;
}

function parseEntry(text: string): JournalEntry | null {
  let decoded: unknown;
  try {
    decoded = decodeFrame(text);
  } catch {
    return null;
  }
  const parsed = entrySchema.safeParse(decoded);
  return parsed.success ? parsed.data : null;
}

function syncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Put `data` at `name` atomically and durably: a temporary file, fsync, rename, directory fsync. */
function replaceFile(directory: string, name: string, data: Buffer): void {
  const temporary = join(directory, `.${name}.${process.pid}.tmp`);
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, data, 0, data.length, 0);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, join(directory, name));
  syncDirectory(directory);
}

/** Entries framed one after another, chained from `prevSeq`. */
function frame(entries: readonly JournalEntry[], prevSeq: number | null): { data: Buffer; last: number | null } {
  let last = prevSeq;
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(encodeRecord(encodeFrame(entry), last));
    last = entry.seq;
  }
  return { data: Buffer.concat(parts), last };
}

/** What is still legible in damaged bytes: descriptions and ids of the entries that were there. */
function hintsIn(bytes: Buffer): string[] {
  const text = bytes.toString('utf8');
  const hints = new Set<string>();
  for (const match of text.matchAll(/"description":"((?:[^"\\]|\\.){1,200})"/g)) hints.add(`description "${match[1]}"`);
  for (const match of text.matchAll(/"id":"([^"\\]{1,100})"/g)) hints.add(`id ${match[1]}`);
  return [...hints].slice(0, 12);
}

interface FileReading {
  /** Valid entries in file order, duplicates dropped. */
  readonly entries: JournalEntry[];
  readonly items: DamageItem[];
  /** The end of the last valid record (where the next one goes). */
  readonly dataEnd: number;
}

/** One journal file, read whole: every valid entry, and what was damaged around them. */
function readJournalFile(directory: string, name: string): FileReading {
  const raw = readFileSync(join(directory, name));
  const legacy = name.endsWith('.jsonl');
  type Found = { entry: JournalEntry; range: ByteRange; prevSeq: number | null | undefined };
  const found: Found[] = [];
  const damaged: ByteRange[] = [];
  let dataEnd = 0;
  if (legacy) {
    const scan = scanLines(raw, (text) => parseEntry(text) !== null);
    for (const line of scan.lines) {
      const length = Buffer.byteLength(line.text);
      found.push({ entry: parseEntry(line.text)!, range: { offset: line.offset, length }, prevSeq: undefined });
      dataEnd = line.offset + length + 1;
    }
    damaged.push(...scan.damaged);
  } else {
    const scan = scanRecords(raw);
    for (const record of scan.records) {
      const entry = parseEntry(record.payload);
      // A record whose checksum holds but which is no entry (not written by this version).
      if (entry === null) damaged.push({ offset: record.offset, length: record.length });
      else found.push({ entry, range: { offset: record.offset, length: record.length }, prevSeq: record.prevSeq });
      dataEnd = record.offset + record.length;
    }
    damaged.push(...scan.damaged);
  }
  damaged.sort((a, b) => a.offset - b.offset);

  const items: DamageItem[] = [];
  const entries: JournalEntry[] = [];
  const seen = new Set<number>();
  let lastSeq: number | null = null;
  let pending = 0; // index into damaged: ranges before the current entry not yet reported
  const unreadable = (range: ByteRange, beforeSeq: number | null, lostUpTo: number | null | undefined): DamageItem => {
    const lost =
      lostUpTo === undefined
        ? ''
        : lostUpTo === null || (lastSeq !== null && lostUpTo <= lastSeq)
          ? ''
          : ` It held the entries after #${lastSeq ?? 'start'} up to #${lostUpTo}.`;
    return {
      file: name,
      copy: null,
      kind: 'unreadable',
      offset: range.offset,
      length: range.length,
      afterSeq: lastSeq,
      beforeSeq,
      detail: `${range.length} bytes at byte ${range.offset} could not be read${beforeSeq === null ? ' (at the end of the file)' : ''}.${lost}`,
      hints: hintsIn(raw.subarray(range.offset, range.offset + Math.min(range.length, 64 * 1024))),
    };
  };
  for (const item of found) {
    const { entry, range } = item;
    const before: ByteRange[] = [];
    while (pending < damaged.length && damaged[pending]!.offset < range.offset) before.push(damaged[pending++]!);
    if (seen.has(entry.seq)) {
      for (const gap of before) items.push(unreadable(gap, null, undefined));
      items.push({
        file: name,
        copy: null,
        kind: 'duplicate',
        offset: range.offset,
        length: range.length,
        afterSeq: lastSeq,
        beforeSeq: null,
        detail: `A second copy of entry #${entry.seq} at byte ${range.offset} (dropped; the first copy is kept).`,
        hints: [],
      });
      continue;
    }
    before.forEach((gap, index) => items.push(unreadable(gap, entry.seq, index === before.length - 1 ? item.prevSeq : undefined)));
    // The chain: the record written before this one. A break with no unreadable bytes in between
    // means whole records were replaced (by a copy of others).
    if (before.length === 0 && item.prevSeq !== undefined && item.prevSeq !== lastSeq) {
      items.push({
        file: name,
        copy: null,
        kind: 'missing',
        offset: range.offset,
        length: 0,
        afterSeq: lastSeq,
        beforeSeq: entry.seq,
        detail:
          item.prevSeq === null
            ? `Entry #${entry.seq} at byte ${range.offset} was written first in this file, but readable entries precede it.`
            : `Entries after #${lastSeq ?? 'start'} up to #${item.prevSeq} are missing before byte ${range.offset}.`,
        hints: [],
      });
    }
    seen.add(entry.seq);
    entries.push(entry);
    lastSeq = entry.seq;
  }
  for (; pending < damaged.length; pending++) items.push(unreadable(damaged[pending]!, null, undefined));
  return { entries, items, dataEnd };
}

function archiveOrder(name: string): [number, number] {
  const match = ARCHIVE.exec(name);
  return [Number(match?.[1] ?? 0), Number(match?.[2] ?? 0)];
}

export class Journal {
  private readonly directory: string;
  private readonly path: string;
  private fd = -1;
  private seq = 0;
  private bytes = 0;
  /** Size of the file, zeros after the data included. */
  private allocated = 0;
  /** The seq of the last record in the active file (each record names the one before it). */
  private lastInFile: number | null = null;
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
  private readonly damageListeners = new Set<(reports: DamageReport[]) => void>();
  private readonly reports: DamageReports;

  constructor(private readonly options: JournalOptions) {
    this.directory = options.directory;
    ensureDirectory(this.directory);
    this.path = join(this.directory, ACTIVE_FILE);
    this.reports = new DamageReports(join(this.directory, DAMAGE_REPORTS_FILE), (line) => options.log?.(line), options.now);
    this.load();
    this.ensureRoom(0);
  }

  private log(line: string): void {
    this.options.log?.(`journal: ${line}`);
  }

  /**
   * Read the active file (migrating one of the earlier format) and the archives, then make sure
   * the active file holds every unresolved entry. The active file always does after a clean
   * shutdown or a crash (a rotation carries them over before the old file is archived, and a
   * rotation cut short is finished here), so the archives are read only when they may know more:
   * every archive when the active file was damaged or is being migrated, the newest one when the
   * active file holds nothing. Unresolved entries found there are copied into the active file. A
   * damaged file is copied aside as it is, the damage recorded, and only then is the file
   * rewritten with its valid entries.
   */
  private load(): void {
    const names = readdirSync(this.directory);
    // A rotation that died before its rename left this behind; its entries are all in the active file.
    if (names.includes(NEXT_FILE)) unlinkSync(join(this.directory, NEXT_FILE));
    const archives = names.filter((name) => ARCHIVE.test(name)).sort((a, b) => {
      const [timeA, seqA] = archiveOrder(a);
      const [timeB, seqB] = archiveOrder(b);
      return timeA - timeB || seqA - seqB;
    });
    const items: DamageItem[] = [];
    const stamp = this.options.now();
    const readings = new Map<string, FileReading>();
    const read = (name: string): FileReading => {
      const known = readings.get(name);
      if (known) return known;
      const reading = readJournalFile(this.directory, name);
      readings.set(name, reading);
      if (reading.items.length === 0) return reading;
      const copy = this.freeName(`${name}.damaged-${stamp}`);
      this.copyAside(name, copy);
      this.log(`${name}: ${reading.items.length} damaged range(s); a copy of the file as found is at ${copy}`);
      items.push(...reading.items.map((item) => ({ ...item, copy })));
      return reading;
    };

    let activeEntries: JournalEntry[] = [];
    let dataEnd = 0;
    /** What the active file is rewritten with, if it must be. */
    let rewrite: (() => JournalEntry[]) | null = null;
    const legacy = join(this.directory, LEGACY_ACTIVE_FILE);
    const migrated = existsSync(legacy) ? this.freeName(`${LEGACY_ACTIVE_FILE}.migrated-${stamp}`) : null;
    const migrating = migrated !== null && !existsSync(this.path);
    if (migrating) {
      // The earlier format: its entries are written to the new file, and the old one is kept.
      const reading = readJournalFile(this.directory, LEGACY_ACTIVE_FILE);
      items.push(...reading.items.map((item) => ({ ...item, copy: migrated })));
      activeEntries = reading.entries;
      rewrite = () => activeEntries;
      this.log(`migrating ${LEGACY_ACTIVE_FILE} (${reading.entries.length} entries) to ${ACTIVE_FILE}; the old file is kept as ${migrated}`);
    } else if (existsSync(this.path)) {
      const reading = read(ACTIVE_FILE);
      activeEntries = reading.entries;
      dataEnd = reading.dataEnd;
      if (reading.items.length > 0) rewrite = () => activeEntries;
      // A rotation that died between linking the archive and renaming the new file in: the active
      // file is also the newest archive. It is replaced by a new file of the unresolved entries.
      else if (fstatSync(this.openActive()).nlink > 1) rewrite = () => this.carried();
    }
    // Oldest first, so every outcome comes after its request. An empty active file is normal after
    // a rotation with nothing unresolved, but may also be one that lost its carried entries.
    const wanted = migrating || items.length > 0 ? archives : activeEntries.length === 0 ? archives.slice(-1) : [];
    for (const name of wanted) for (const entry of read(name).entries) this.remember(entry, false);
    for (const entry of activeEntries) this.remember(entry, true);

    // What was found is on disk before anything is repaired.
    if (items.length > 0) {
      this.reports.add({ id: `damage-${stamp}-${this.reports.count() + 1}`, at: stamp, items, acknowledgedAt: null });
      this.log(`damage recorded (${items.length} item(s)); nothing that opens a position is signed until it is acknowledged`);
    }
    for (const name of archives) {
      const reading = readings.get(name);
      if (!reading || reading.items.length === 0) continue;
      const target = name.replace(/\.jsonl$/, '.log');
      replaceFile(this.directory, target, frame(reading.entries, null).data);
      if (target !== name) unlinkSync(join(this.directory, name));
    }
    // Unresolved entries found only in an archive go into the active file, so the next start finds them there.
    const inActive = new Set(activeEntries.map((entry) => entry.seq));
    const missing = (entries: readonly JournalEntry[]) => {
      const present = new Set(entries.map((entry) => entry.seq));
      return this.carried().filter((entry) => !present.has(entry.seq));
    };
    if (rewrite !== null) {
      const entries = rewrite();
      const { data, last } = frame([...entries, ...missing(entries)], null);
      if (this.fd !== -1) closeSync(this.fd);
      this.fd = -1;
      replaceFile(this.directory, ACTIVE_FILE, data);
      this.bytes = data.length;
      this.lastInFile = last;
    } else {
      this.bytes = dataEnd;
      this.lastInFile = activeEntries.at(-1)?.seq ?? null;
    }
    // The old file of the earlier format is kept, under a name that is no longer read.
    if (migrated !== null) renameSync(legacy, join(this.directory, migrated));
    // Only zeros follow the data now: anything else was damage, and the file was rewritten.
    this.allocated = fstatSync(this.openActive()).size;
    if (rewrite === null) {
      const carriedOver = this.carried().filter((entry) => !inActive.has(entry.seq));
      if (carriedOver.length > 0) {
        const { data, last } = frame(carriedOver, this.lastInFile);
        this.ensureRoom(data.length);
        writeSync(this.fd, data, 0, data.length, this.bytes);
        fdatasyncSync(this.fd);
        this.bytes += data.length;
        this.lastInFile = last;
        this.log(`${carriedOver.length} unresolved entr${carriedOver.length === 1 ? 'y' : 'ies'} found only in an archive copied into ${ACTIVE_FILE}`);
      }
    }
  }

  /** `name`, or `name-2`, `name-3`... : the first that does not exist yet. */
  private freeName(name: string): string {
    let candidate = name;
    for (let index = 2; existsSync(join(this.directory, candidate)); index++) candidate = `${name}-${index}`;
    return candidate;
  }

  /** Opens the active file (creating it) once. */
  private openActive(): number {
    if (this.fd === -1) this.fd = openSync(this.path, existsSync(this.path) ? 'r+' : 'w+', 0o600);
    return this.fd;
  }

  /** An exact copy of a file, on the device, before anything is changed in it. */
  private copyAside(name: string, copy: string): void {
    copyFileSync(join(this.directory, name), join(this.directory, copy), constants.COPYFILE_EXCL);
    const fd = openSync(join(this.directory, copy), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    syncDirectory(this.directory);
  }

  /** Unresolved entries in seq order: what a new file starts with. */
  private carried(): JournalEntry[] {
    const entries: JournalEntry[] = [];
    for (const record of this.open.values()) {
      for (const entry of [record.signed, record.outcome, record.reconciled]) if (entry !== null) entries.push(entry);
    }
    return entries.sort((a, b) => a.seq - b.seq);
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

  /** Fold an entry into the state; `shown` entries are also kept for the journal view. */
  private remember(entry: JournalEntry, shown = true): void {
    this.seq = Math.max(this.seq, entry.seq + 1);
    if (shown) {
      this.recent.push(entry);
      const limit = this.options.memoryEntries ?? 2000;
      if (this.recent.length > limit) this.recent.splice(0, this.recent.length - limit);
    }
    if (entry.kind === 'signed') {
      // A copy carried into a later file by a rotation is the same request.
      if (this.records.has(entry.id)) return;
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

  /**
   * Put the entry's record in the file after the last one: at once, into the OS's page cache (the
   * flush to the device is the caller's). A write that fails gives the bytes back (when nothing was
   * reserved after them), so the chain of records in the file stays unbroken, and throws.
   */
  private put(entry: JournalEntry): void {
    const line = encodeRecord(encodeFrame(entry), this.lastInFile);
    this.ensureRoom(line.length);
    const offset = this.bytes;
    const previous = this.lastInFile;
    this.bytes += line.length;
    this.lastInFile = entry.seq;
    this.remember(entry);
    try {
      writeSync(this.fd, line, 0, line.length, offset);
    } catch (error) {
      if (this.bytes === offset + line.length) {
        this.bytes = offset;
        this.lastInFile = previous;
      }
      throw error;
    }
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
    try {
      this.rotate();
    } catch (error) {
      // The active file is as it was (rotate undoes what it did): appends go on there.
      this.log(`rotation failed (${error instanceof Error ? error.message : String(error)}); the active file is kept`);
    }
  }

  /** Write and flush synchronously: when this returns the entry is on disk. */
  private write(entry: JournalEntry): void {
    this.put(entry);
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
  private writeDurably(entry: JournalEntry): Promise<FlushTiming> {
    // The bytes go to the file at once (a fast copy into the page cache), so entries are always
    // contiguous and in order even if the process dies now; only the flush to the device is left
    // to the I/O thread pool.
    const writeStartedAt = performance.now();
    this.put(entry);
    this.announce(entry);
    this.inFlight++;
    const done = new Promise<FlushTiming>((resolve, reject) => {
      fdatasync(this.fd, (syncError) => {
        this.inFlight--;
        if (syncError) {
          this.flushFailed(syncError);
          reject(syncError);
          return;
        }
        resolve({ writeStartedAt, flushedAt: performance.now() });
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

  /**
   * Crash-safe rotation. The new active file (the unresolved entries, then zeros) is written and
   * flushed under a temporary name; the current file, cut to its data, gets the archive's name as
   * a second link; the new file is renamed over the active one and the directory flushed. A crash
   * at any point leaves an active file with every unresolved entry (start-up finishes a rotation
   * that stopped after the link), and nothing is copied.
   */
  private rotate(): void {
    const archiveName = `journal-${this.options.now()}-${this.seq}.log`;
    const archive = join(this.directory, archiveName);
    const next = join(this.directory, NEXT_FILE);
    const { data, last } = frame(this.carried(), null);
    const room = Math.max(CHUNK_BYTES, data.length + ROOM_MARGIN);
    const fd = openSync(next, 'w', 0o600);
    let linked = false;
    try {
      writeSync(fd, data, 0, data.length, 0);
      writeSync(fd, Buffer.alloc(room), 0, room, data.length);
      fsyncSync(fd);
      // The archive keeps only its data: the preallocated zeros are cut off.
      ftruncateSync(this.fd, this.bytes);
      fdatasyncSync(this.fd);
      this.allocated = this.bytes;
      linkSync(this.path, archive);
      linked = true;
      renameSync(next, this.path);
    } catch (error) {
      closeSync(fd);
      if (existsSync(next)) unlinkSync(next);
      if (linked) unlinkSync(archive);
      throw error;
    }
    try {
      syncDirectory(this.directory);
    } catch (error) {
      this.log(`the directory could not be flushed after a rotation (${error instanceof Error ? error.message : String(error)})`);
    }
    closeSync(this.fd);
    this.fd = fd;
    this.bytes = data.length;
    this.allocated = data.length + room;
    this.lastInFile = last;
    this.log(`rotated to ${archiveName}`);
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
  appendSignedDurably(entry: Omitted<SignedEntry>): { entry: SignedEntry; flushed: Promise<FlushTiming> } {
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

  /**
   * The requests an execution algorithm signed under this parent tag (SubmitRequest.parent), among
   * the open ones and the recent settled ones kept in memory: how a child left signing by a crash
   * is found again.
   */
  recordsOfParent(parent: string): JournalRecord[] {
    return [...this.records.values()].filter((record) => record.signed.parent === parent);
  }

  /** Damage found at start that the trader has not acknowledged yet, oldest first. */
  damage(): DamageReport[] {
    return this.reports.open();
  }

  /**
   * Why a request with these actions may not be signed now, or null. While damage is
   * unacknowledged only actions that take risk off (cancels, settling) are signed; `null` actions
   * (an owner request, a withdrawal) are refused too.
   */
  damageRefusal(actionKinds: readonly string[] | null): Failure | null {
    const open = this.reports.open();
    if (open.length === 0) return null;
    if (actionKinds !== null && actionKinds.length > 0 && actionKinds.every((kind) => RISK_OFF.has(kind))) return null;
    const ranges = open.reduce((sum, report) => sum + report.items.length, 0);
    return fail(
      JOURNAL_DAMAGED,
      `Nothing new is signed: the journal of signed requests was found damaged at start (${ranges} damaged item${ranges === 1 ? '' : 's'}). See what was lost in the notice and acknowledge it first; cancelling orders still works.`,
      { reports: open.map((report) => report.id).join(',') },
    );
  }

  /** The trader has seen these reports. Throws nothing: a report that cannot be saved stays open. */
  acknowledgeDamage(ids: readonly string[]): Result<DamageReport[]> {
    try {
      const done = this.reports.acknowledge(ids, this.options.now());
      if (done.length > 0) {
        this.log(`damage report(s) ${done.join(', ')} acknowledged`);
        const open = this.reports.open();
        for (const listener of this.damageListeners) listener(open);
      }
    } catch (error) {
      return fail('STORAGE_FAILURE', `The acknowledgement could not be saved: ${error instanceof Error ? error.message : String(error)}`);
    }
    return ok(this.reports.open());
  }

  onDamageChange(listener: (open: DamageReport[]) => void): () => void {
    this.damageListeners.add(listener);
    return () => this.damageListeners.delete(listener);
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
