// The journal under any damage to its file, property-based. Entries are written by the real
// Journal, then the file is damaged (bytes flipped, cut short, ranges zeroed, blocks copied over
// other bytes or inserted) and opened again. Properties: every record whose bytes are still in the
// file whole is read back (no intact entry is ever lost, wherever the damage is); nothing is read
// back that was not written; no entry is read twice; when damage is reported, a copy of the file
// as it was found is kept byte for byte; and the repaired journal opens clean, with the same
// entries.
import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal, type JournalEntry } from '../../../main/services/journal/journal';
import { scanRecords } from '../../../main/services/journal/journal-format';
import { encodeFrame } from '../../../shared/ipc/codec';
import { checkProperty } from '../../support/property';

// fsync is free on tmpfs: the property runs many journals, each in a folder under one that is
// removed when the file's tests end (tmpfs is memory: a journal is preallocated).
const base = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lt-journal-damage-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

type Write = { kind: 'signed'; description: string } | { kind: 'outcome'; target: number } | { kind: 'reconciled'; target: number };

const writeArbitrary: fc.Arbitrary<Write> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('signed' as const), description: fc.string({ minLength: 4, maxLength: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('outcome' as const), target: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconciled' as const), target: fc.nat() }) },
);

type Damage =
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'zero'; at: number; length: number }
  | { kind: 'copy'; from: number; length: number; to: number }
  | { kind: 'insert'; from: number; length: number; to: number };

/** Positions anywhere in the data (and a little of the zeros after it), taken modulo its length. */
const fraction = fc.nat();
const damageArbitrary: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fraction, xor: fc.integer({ min: 1, max: 255 }) }).map((d) => d as unknown as Damage),
  fc.record({ kind: fc.constant('flip' as const), at: fraction, xor: fc.constantFrom(1, 2, 4, 8, 16, 32, 64, 128) }).map((d) => d as unknown as Damage),
  fc.record({ kind: fc.constant('truncate' as const), at: fraction }).map((d) => d as unknown as Damage),
  fc.record({ kind: fc.constant('zero' as const), at: fraction, length: fc.integer({ min: 1, max: 600 }) }).map((d) => d as unknown as Damage),
  fc.record({ kind: fc.constant('copy' as const), from: fraction, length: fc.integer({ min: 1, max: 900 }), to: fraction }).map((d) => d as unknown as Damage),
  fc.record({ kind: fc.constant('insert' as const), from: fraction, length: fc.integer({ min: 1, max: 900 }), to: fraction }).map((d) => d as unknown as Damage),
);

function damage(file: Buffer, dataLength: number, step: Damage): Buffer {
  const at = (value: number) => Math.min(file.length, value % (dataLength + 64));
  switch (step.kind) {
    case 'flip': {
      const copy = Buffer.from(file);
      const index = at(step.at);
      if (index < copy.length) copy[index]! ^= step.xor;
      return copy;
    }
    case 'truncate':
      return file.subarray(0, at(step.at));
    case 'zero': {
      const copy = Buffer.from(file);
      copy.fill(0, at(step.at), Math.min(copy.length, at(step.at) + step.length));
      return copy;
    }
    case 'copy': {
      const copy = Buffer.from(file);
      const block = Buffer.from(file.subarray(at(step.from), at(step.from) + step.length));
      block.copy(copy, at(step.to));
      return copy;
    }
    case 'insert': {
      const block = file.subarray(at(step.from), at(step.from) + step.length);
      return Buffer.concat([file.subarray(0, at(step.to)), block, file.subarray(at(step.to))]);
    }
  }
}

const key = (entry: JournalEntry) => encodeFrame(entry);

describe('journal under damage', () => {
  it('never loses an intact record and never yields one that was not written', async () => {
    let runs = 0;
    await checkProperty(
      fc.asyncProperty(fc.array(writeArbitrary, { minLength: 1, maxLength: 24 }), fc.array(damageArbitrary, { minLength: 1, maxLength: 3 }), async (writes, damages) => {
        const directory = mkdtempSync(join(base, `run-${++runs}-`));
        const journal = new Journal({ directory, now: () => 1000 });
        const ids: string[] = [];
        for (const write of writes) {
          if (write.kind === 'signed') {
            const id = `order-${ids.length}`;
            ids.push(id);
            journal.appendSigned({ id, networkId: 'sandbox', account: '0xabc', endpoint: 'POST /v1/session/actions', nonce: { mode: 'sequential', value: BigInt(ids.length) }, actions: [{ CreateOrder: { price: '1' } }], description: write.description });
          } else if (ids.length > 0) {
            const id = ids[write.target % ids.length]!;
            if (write.kind === 'outcome') journal.appendOutcome({ id, status: write.target % 2 === 0 ? 'accepted' : 'unknown', txId: null, orderIds: [], code: null, message: null });
            else journal.appendReconciled({ id, status: 'landed', detail: 'found' });
          }
        }
        const written = journal.list(1000);
        await journal.close();
        const path = join(directory, 'journal.log');
        const original = readFileSync(path);
        const records = scanRecords(original).records;
        expect(records).toHaveLength(written.length);
        const dataLength = records.reduce((end, record) => Math.max(end, record.offset + record.length), 0);
        // A little of the preallocated zeros is enough: the rest is the same.
        let file: Buffer = Buffer.from(original.subarray(0, dataLength + 256));
        for (const step of damages) file = damage(file, dataLength, step);
        writeFileSync(path, file);

        const reopened = new Journal({ directory, now: () => 2000 });
        const read = reopened.list(1000);
        const writtenKeys = new Set(written.map(key));
        const readKeys = read.map(key);
        // Nothing that was not written.
        for (const entry of read) expect(writtenKeys.has(key(entry))).toBe(true);
        // Nothing twice.
        expect(new Set(read.map((entry) => entry.seq)).size).toBe(read.length);
        // Every record still in the file whole is read back.
        for (const record of records) {
          if (file.indexOf(original.subarray(record.offset, record.offset + record.length)) === -1) continue;
          const { seq } = JSON.parse(record.payload) as { seq: number };
          expect(readKeys).toContain(key(written.find((entry) => entry.seq === seq)!));
        }
        // Damage reported: the file as found is kept aside, byte for byte.
        for (const report of reopened.damage()) {
          for (const item of report.items) expect(readFileSync(join(directory, item.copy!)).equals(file)).toBe(true);
        }
        // The repaired journal reads the same and clean.
        const reports = reopened.damage().length;
        await reopened.close();
        const again = new Journal({ directory, now: () => 3000 });
        expect(again.list(1000).map(key)).toEqual(readKeys);
        expect(again.damage()).toHaveLength(reports);
        await again.close();
      }),
      { numRuns: 100 },
    );
    // A property over many real journals: on a loaded machine it takes longer than a unit test's 5 s.
  }, 120_000);
});
