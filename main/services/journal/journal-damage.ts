// What the journal found damaged at start, kept until the trader has seen it. A report is written
// (atomically) before the damaged file is repaired, so a crash in between cannot leave a repaired
// journal and no word of what it lost; until every report is acknowledged, nothing that opens a
// position is signed (JOURNAL_DAMAGED).
import { z } from 'zod';
import { decodeFrame, encodeFrame } from '../../../shared/ipc/codec';
import { parseWith } from '../../../shared/schema';
import { readTextIfExists, writeFileAtomic } from '../storage/files';

export const damageKinds = ['unreadable', 'duplicate', 'missing', 'unreadable-report'] as const;

const itemSchema = z.object({
  /** The journal file the damage was found in (its name in the journal directory). */
  file: z.string(),
  /** The untouched copy of that file, kept aside before the repair (null when nothing was copied). */
  copy: z.string().nullable(),
  kind: z.enum(damageKinds),
  /** Byte range in the copy. */
  offset: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
  /** The seq of the last readable entry before the damage and of the first after it. */
  afterSeq: z.number().int().nonnegative().nullable(),
  beforeSeq: z.number().int().nonnegative().nullable(),
  /** What a person reads: what was there and what it means. */
  detail: z.string(),
  /** Descriptions and ids still legible in the damaged bytes (not trusted as entries). */
  hints: z.array(z.string()),
});

const reportSchema = z.object({
  id: z.string(),
  at: z.number(),
  items: z.array(itemSchema),
  acknowledgedAt: z.number().nullable(),
});

const fileSchema = z.object({ reports: z.array(reportSchema) });

export type DamageItem = z.output<typeof itemSchema>;
export type DamageReport = z.output<typeof reportSchema>;

/** Acknowledged reports kept for reference. */
const KEEP_ACKNOWLEDGED = 20;

export class DamageReports {
  private reports: DamageReport[] = [];

  constructor(
    private readonly path: string,
    log: (line: string) => void,
    now: () => number,
  ) {
    const text = readTextIfExists(path);
    if (text === null) return;
    let decoded: unknown;
    try {
      decoded = decodeFrame(text);
    } catch {
      decoded = undefined;
    }
    const parsed = parseWith(fileSchema, decoded, path);
    if (parsed.ok) {
      this.reports = parsed.value.reports;
      return;
    }
    // The record of earlier damage is itself unreadable: what it said is unknown, so it counts as
    // damage the trader has not seen. The file is kept aside, never overwritten.
    const aside = `${path}.damaged-${now()}`;
    writeFileAtomic(aside, text);
    log(`${path} could not be read (${parsed.message}); a copy is at ${aside}`);
    this.reports = [];
    this.add({
      id: `unreadable-report-${now()}`,
      at: now(),
      acknowledgedAt: null,
      items: [
        {
          file: path,
          copy: aside,
          kind: 'unreadable-report',
          offset: 0,
          length: Buffer.byteLength(text),
          afterSeq: null,
          beforeSeq: null,
          detail: 'The record of earlier journal damage could not be read: damage found before may not have been seen.',
          hints: [],
        },
      ],
    });
  }

  /** Reports on record, acknowledged or not. */
  count(): number {
    return this.reports.length;
  }

  /** Reports not yet acknowledged, oldest first. */
  open(): DamageReport[] {
    return this.reports.filter((report) => report.acknowledgedAt === null);
  }

  /** Written to disk before it counts (and before the caller repairs anything). */
  add(report: DamageReport): void {
    this.save([...this.reports, report]);
  }

  /** Acknowledge the named reports; returns the ids that were open and are now acknowledged. */
  acknowledge(ids: readonly string[], at: number): string[] {
    const done: string[] = [];
    const next = this.reports.map((report) => {
      if (report.acknowledgedAt !== null || !ids.includes(report.id)) return report;
      done.push(report.id);
      return { ...report, acknowledgedAt: at };
    });
    if (done.length === 0) return done;
    const acknowledged = next.filter((report) => report.acknowledgedAt !== null);
    const drop = new Set(acknowledged.slice(0, Math.max(0, acknowledged.length - KEEP_ACKNOWLEDGED)).map((report) => report.id));
    this.save(next.filter((report) => !drop.has(report.id)));
    return done;
  }

  /** Throws when the file cannot be written; nothing changes then. */
  private save(reports: DamageReport[]): void {
    writeFileAtomic(this.path, `${encodeFrame({ reports })}\n`);
    this.reports = reports;
  }
}
