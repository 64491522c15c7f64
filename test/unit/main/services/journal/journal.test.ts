import { closeSync, existsSync, linkSync, mkdtempSync, openSync, readFileSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../../../shared/ipc/codec';
import { Journal, JOURNAL_DAMAGED } from '../../../../../main/services/journal/journal';
import { scanRecords } from '../../../../../main/services/journal/journal-format';

function directory() {
  return mkdtempSync(join(tmpdir(), 'lt-journal-'));
}

const ACTIVE = 'journal.log';

/** The payloads of the valid records of a journal file. */
function payloadsOf(dir: string, name = ACTIVE): string[] {
  return scanRecords(readFileSync(join(dir, name))).records.map((record) => record.payload);
}

/** The end of the data: the file is preallocated, so zeros follow it. */
function dataEnd(dir: string): number {
  const raw = readFileSync(join(dir, ACTIVE));
  let end = raw.length;
  while (end > 0 && raw[end - 1] === 0) end--;
  return end;
}

function patch(dir: string, offset: number, bytes: Buffer | string, name = ACTIVE): void {
  const fd = openSync(join(dir, name), 'r+');
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  writeSync(fd, buffer, 0, buffer.length, offset);
  closeSync(fd);
}

const signed = (id: string) => ({
  id,
  networkId: 'sandbox',
  account: '0xabc',
  endpoint: 'POST /v1/session/actions',
  nonce: { mode: 'sequential' as const, value: 7n },
  actions: [{ CreateOrder: { side: 'Buy', price: '100', quantity: '5', order_type: 'Spot' } }],
  description: `Buy 5 at 100 (${id})`,
});

const accepted = (id: string) => ({ id, status: 'accepted' as const, txId: '0x1', orderIds: [], code: null, message: null });

describe('journal of signed actions', () => {
  it('is on disk before the caller goes on, and survives a reopen', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1000 });
    journal.appendSigned(signed('a'));
    // Read the file directly, without closing the journal: the entry is already there.
    expect(payloadsOf(dir).join()).toContain('"id":"a"');
    journal.appendOutcome({ id: 'a', status: 'accepted', txId: '0x1', orderIds: ['0xo'], code: null, message: null });
    journal.appendSigned(signed('b'));
    await journal.close();

    const reopened = new Journal({ directory: dir, now: () => 2000 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['b']);
    expect(reopened.unresolved()[0]?.signed.nonce).toEqual({ mode: 'sequential', value: 7n });
    const next = reopened.appendSigned(signed('c'));
    expect(next.seq).toBe(3);
    expect(reopened.list(10).map((entry) => `${entry.kind}:${entry.id}`)).toEqual(['signed:c', 'signed:b', 'outcome:a', 'signed:a']);
    expect(reopened.damage()).toEqual([]);
    expect(reopened.damageRefusal(['CreateOrder'])).toBeNull();
  });

  it('keeps an unknown outcome open until it is reconciled', async () => {
    const journal = new Journal({ directory: directory(), now: () => 1 });
    journal.appendSigned(signed('x'));
    journal.appendOutcome({ id: 'x', status: 'unknown', txId: null, orderIds: [], code: 'TIMEOUT', message: 'no answer' });
    expect(journal.unresolved()).toHaveLength(1);
    journal.appendReconciled({ id: 'x', status: 'landed', detail: 'order 0xo found open' });
    expect(journal.unresolved()).toHaveLength(0);
  });

  it('one damaged byte costs only its own entry: every later entry is kept, the file is copied aside first, and trading waits for an acknowledgement', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 5 });
    journal.appendSigned(signed('a'));
    journal.appendSigned(signed('b'));
    journal.appendSigned(signed('c'));
    journal.appendOutcome(accepted('a'));
    await journal.close();
    const before = readFileSync(join(dir, ACTIVE));
    // One byte of b's description.
    const at = before.indexOf('Buy 5 at 100 (b)');
    patch(dir, at, 'X');
    const damagedBytes = readFileSync(join(dir, ACTIVE));

    const reopened = new Journal({ directory: dir, now: () => 6 });
    // c (written after the damage) is still there, unresolved, to reconcile.
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['c']);
    expect(reopened.list(10).map((entry) => `${entry.kind}:${entry.id}`)).toEqual(['outcome:a', 'signed:c', 'signed:a']);
    const [report] = reopened.damage();
    expect(report?.items).toHaveLength(1);
    expect(report?.items[0]).toMatchObject({ file: ACTIVE, kind: 'unreadable', afterSeq: 0, beforeSeq: 2 });
    expect(report?.items[0]?.detail).toMatch(/could not be read/);
    expect(report?.items[0]?.hints).toContain('id b');
    // The file as it was found is kept, byte for byte.
    const copy = report!.items[0]!.copy!;
    expect(readFileSync(join(dir, copy)).equals(damagedBytes)).toBe(true);
    // Opening positions is refused with a stable code; cancelling is not.
    expect(reopened.damageRefusal(['CreateOrder'])).toMatchObject({ ok: false, code: JOURNAL_DAMAGED });
    expect(reopened.damageRefusal(['SettleBalance', 'CancelOrder', 'CreateOrder'])).toMatchObject({ code: JOURNAL_DAMAGED });
    expect(reopened.damageRefusal(null)).toMatchObject({ code: JOURNAL_DAMAGED });
    expect(reopened.damageRefusal(['CancelOrder', 'SettleBalance'])).toBeNull();
    reopened.appendSigned(signed('d'));
    await reopened.close();

    // Not acknowledged: still refused after a restart; the repaired file reads clean.
    const again = new Journal({ directory: dir, now: () => 7 });
    expect(again.damage().map((open) => open.id)).toEqual([report!.id]);
    expect(again.unresolved().map((record) => record.signed.id)).toEqual(['c', 'd']);
    let heard: unknown = null;
    again.onDamageChange((open) => (heard = open));
    expect(again.acknowledgeDamage(['someone-else'])).toMatchObject({ ok: true, value: [expect.objectContaining({ id: report!.id })] });
    expect(again.acknowledgeDamage([report!.id])).toEqual({ ok: true, value: [] });
    expect(heard).toEqual([]);
    expect(again.damageRefusal(['CreateOrder'])).toBeNull();
    await again.close();
    expect(new Journal({ directory: dir, now: () => 8 }).damage()).toEqual([]);
  });

  it('a torn last record from a crash mid-write is reported, and a later shorter entry leaves no garbage behind', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1 });
    journal.appendSigned(signed('a'));
    journal.appendSigned(signed('b'));
    await journal.close();
    // The second record only partly reached the disk: its last 40 bytes are still zeros.
    const end = dataEnd(dir);
    patch(dir, end - 40, Buffer.alloc(40));
    const reopened = new Journal({ directory: dir, now: () => 2 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['a']);
    expect(reopened.damage()[0]?.items[0]).toMatchObject({ kind: 'unreadable', afterSeq: 0, beforeSeq: null });
    reopened.appendSigned({ ...signed('c'), actions: [], description: 'x' });
    await reopened.close();
    const raw = readFileSync(join(dir, ACTIVE));
    expect(scanRecords(raw).damaged).toEqual([]);
    expect(payloadsOf(dir)).toHaveLength(2);
    const again = new Journal({ directory: dir, now: () => 3 });
    expect(again.unresolved().map((record) => record.signed.id)).toEqual(['a', 'c']);
    expect(again.damage()).toHaveLength(1);
  });

  it('a block copied over other records is found by the chain of records', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1 });
    for (const id of ['a', 'b', 'c', 'd']) journal.appendSigned(signed(id));
    await journal.close();
    const scan = scanRecords(readFileSync(join(dir, ACTIVE)));
    // Records have the same length: b's bytes are copied over c's.
    const [, b, c] = scan.records;
    expect(b!.length).toBe(c!.length);
    const raw = readFileSync(join(dir, ACTIVE));
    patch(dir, c!.offset, raw.subarray(b!.offset, b!.offset + b!.length));
    const reopened = new Journal({ directory: dir, now: () => 2 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['a', 'b', 'd']);
    const kinds = reopened.damage()[0]!.items.map((item) => item.kind);
    expect(kinds).toEqual(['duplicate', 'missing']);
    expect(reopened.damage()[0]!.items[1]!.detail).toMatch(/after #1 up to #2 are missing/);
  });

  it('rotates past its size limit crash-safely and carries unresolved entries into the new file', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 42, rotateBytes: 2000 });
    journal.appendSigned(signed('pending'));
    for (let index = 0; index < 20; index += 1) {
      journal.appendSigned(signed(`done-${index}`));
      journal.appendOutcome(accepted(`done-${index}`));
    }
    await journal.close();
    const archives = readdirSync(dir).filter((name) => /^journal-42-\d+\.log$/.test(name));
    expect(archives.length).toBeGreaterThan(0);
    expect(dataEnd(dir)).toBeLessThan(2000);
    expect(readdirSync(dir).some((name) => name.startsWith('.journal'))).toBe(false);
    // The archive keeps only data, no preallocated zeros, and is a file of its own.
    for (const archive of archives) {
      expect(readFileSync(join(dir, archive)).includes(0)).toBe(false);
      expect(statSync(join(dir, archive)).nlink).toBe(1);
    }
    const reopened = new Journal({ directory: dir, now: () => 43 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['pending']);
    expect(reopened.damage()).toEqual([]);
  });

  it('start-up reads unresolved entries from the archives too', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 42, rotateBytes: 1500 });
    journal.appendSigned(signed('pending'));
    for (let index = 0; index < 12; index += 1) {
      journal.appendSigned(signed(`done-${index}`));
      journal.appendOutcome(accepted(`done-${index}`));
    }
    await journal.close();
    expect(readdirSync(dir).some((name) => /^journal-42-\d+\.log$/.test(name))).toBe(true);
    const more = new Journal({ directory: dir, now: () => 43 });
    more.appendSigned(signed('after'));
    await more.close();
    // The copy carried into the active file is lost (its first record zeroed): the archives still have it.
    const first = scanRecords(readFileSync(join(dir, ACTIVE))).records[0]!;
    expect(first.payload).toContain('"id":"pending"');
    patch(dir, first.offset, Buffer.alloc(first.length));
    const reopened = new Journal({ directory: dir, now: () => 44 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['pending', 'after']);
    expect(reopened.damage()[0]?.items).toMatchObject([{ kind: 'unreadable', offset: 0, afterSeq: null }]);
  });

  it('an unresolved entry found only in the newest archive is copied into the active file', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 42, rotateBytes: 1500 });
    journal.appendSigned(signed('pending'));
    for (let index = 0; index < 12; index += 1) {
      journal.appendSigned(signed(`done-${index}`));
      journal.appendOutcome(accepted(`done-${index}`));
    }
    await journal.close();
    // An active file without the carried copy, and no damage (as the earlier rotation could leave it).
    writeFileSync(join(dir, ACTIVE), '');
    const reopened = new Journal({ directory: dir, now: () => 43 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['pending']);
    expect(reopened.damage()).toEqual([]);
    await reopened.close();
    expect(payloadsOf(dir).join()).toContain('"id":"pending"');
    for (const name of readdirSync(dir).filter((file) => file.startsWith('journal-'))) writeFileSync(join(dir, name), '');
    expect(new Journal({ directory: dir, now: () => 44 }).unresolved().map((record) => record.signed.id)).toEqual(['pending']);
  });

  it('finishes a rotation that died after linking the archive: the active file becomes a file of its own', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1 });
    journal.appendSigned(signed('pending'));
    journal.appendSigned(signed('done'));
    journal.appendOutcome(accepted('done'));
    await journal.close();
    // The crash: the archive's link exists, the new active file was never renamed in.
    linkSync(join(dir, ACTIVE), join(dir, 'journal-1-3.log'));
    writeFileSync(join(dir, '.journal.log.next'), 'half a file');
    const reopened = new Journal({ directory: dir, now: () => 2 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['pending']);
    expect(statSync(join(dir, ACTIVE)).nlink).toBe(1);
    expect(existsSync(join(dir, '.journal.log.next'))).toBe(false);
    reopened.appendSigned(signed('later'));
    await reopened.close();
    // The archive did not change with the write.
    expect(payloadsOf(dir, 'journal-1-3.log').join()).not.toContain('later');
    const again = new Journal({ directory: dir, now: () => 3 });
    expect(again.unresolved().map((record) => record.signed.id)).toEqual(['pending', 'later']);
    expect(again.damage()).toEqual([]);
  });

  it('migrates a journal of the earlier format, keeping every readable line and the old file', async () => {
    const dir = directory();
    const line = (entry: object) => `${encodeFrame(entry)}\n`;
    const old =
      line({ kind: 'signed', seq: 0, at: 1, ...signed('a') }) +
      '{"kind":"signed","seq":1,"at":1,"id":"b","netw\u0000rk":1}\n' +
      line({ kind: 'signed', seq: 2, at: 1, ...signed('c') }) +
      line({ kind: 'outcome', seq: 3, at: 1, ...accepted('a') });
    writeFileSync(join(dir, 'journal.jsonl'), Buffer.concat([Buffer.from(old), Buffer.alloc(4096)]));
    writeFileSync(join(dir, 'journal-1-9.jsonl'), line({ kind: 'signed', seq: 9, at: 1, ...signed('archived') }));
    const journal = new Journal({ directory: dir, now: () => 50 });
    expect(journal.unresolved().map((record) => record.signed.id).sort()).toEqual(['archived', 'c']);
    expect(journal.damage()[0]?.items).toMatchObject([{ file: 'journal.jsonl', copy: 'journal.jsonl.migrated-50', kind: 'unreadable', hints: ['id b'] }]);
    expect(existsSync(join(dir, 'journal.jsonl'))).toBe(false);
    expect(readFileSync(join(dir, 'journal.jsonl.migrated-50'), 'utf8')).toContain('"id":"b"');
    expect(journal.appendSigned(signed('d')).seq).toBe(10);
    await journal.close();
    expect(payloadsOf(dir).map((payload) => JSON.parse(payload).id)).toEqual(['a', 'c', 'a', 'archived', 'd']);
  });

  it('a durable append is in the journal at once and on disk when its promise settles', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1 });
    const before = performance.now();
    const { entry, flushed } = journal.appendSignedDurably(signed('d'));
    expect(journal.unresolved().map((record) => record.signed.id)).toEqual(['d']);
    // Its own flush's timing, for the order path's floor: from the write to the flush reported done.
    const timing = await flushed;
    expect(timing.writeStartedAt).toBeGreaterThanOrEqual(before);
    expect(timing.flushedAt).toBeGreaterThanOrEqual(timing.writeStartedAt);
    expect(timing.flushedAt).toBeLessThanOrEqual(performance.now());
    expect(payloadsOf(dir).join()).toContain(`"id":"${entry.id}"`);
    journal.appendOutcome({ id: 'd', status: 'accepted', txId: null, orderIds: [], code: null, message: null });
    await journal.close();
    expect(new Journal({ directory: dir, now: () => 2 }).unresolved()).toEqual([]);
  });

  it('creates its file readable by the owner only, preallocated', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1 });
    journal.appendSigned(signed('a'));
    const size = statSync(join(dir, ACTIVE)).size;
    journal.appendSigned(signed('b'));
    // An append changes no file size (its flush is data-only).
    expect(statSync(join(dir, ACTIVE)).size).toBe(size);
    expect(size).toBeGreaterThanOrEqual(1024 * 1024);
    await journal.close();
    expect(statSync(join(dir, ACTIVE)).mode & 0o777).toBe(0o600);
  });
});
