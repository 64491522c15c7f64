import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../main/services/journal';

function directory() {
  return mkdtempSync(join(tmpdir(), 'lt-journal-'));
}

/** The journal's data: the file is preallocated, so its text ends at the first NUL byte. */
function dataOf(dir: string): string {
  const raw = readFileSync(join(dir, 'journal.jsonl'));
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

const signed = (id: string) => ({
  id,
  networkId: 'sandbox',
  account: '0xabc',
  endpoint: 'POST /v1/session/actions',
  nonce: { mode: 'sequential' as const, value: 7n },
  actions: [{ CreateOrder: { side: 'Buy', price: '100', quantity: '5', order_type: 'Spot' } }],
  description: 'Buy 5 at 100',
});

describe('journal of signed actions', () => {
  it('is on disk before the caller goes on, and survives a reopen', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1000 });
    journal.appendSigned(signed('a'));
    // Read the file directly, without closing the journal: the entry is already there.
    expect(dataOf(dir)).toContain('"id":"a"');
    journal.appendOutcome({ id: 'a', status: 'accepted', txId: '0x1', orderIds: ['0xo'], code: null, message: null });
    journal.appendSigned(signed('b'));
    await journal.close();

    const reopened = new Journal({ directory: dir, now: () => 2000 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['b']);
    expect(reopened.unresolved()[0]?.signed.nonce).toEqual({ mode: 'sequential', value: 7n });
    const next = reopened.appendSigned(signed('c'));
    expect(next.seq).toBe(3);
    expect(reopened.list(10).map((entry) => `${entry.kind}:${entry.id}`)).toEqual(['signed:c', 'signed:b', 'outcome:a', 'signed:a']);
  });

  it('keeps an unknown outcome open until it is reconciled', async () => {
    const journal = new Journal({ directory: directory(), now: () => 1 });
    journal.appendSigned(signed('x'));
    journal.appendOutcome({ id: 'x', status: 'unknown', txId: null, orderIds: [], code: 'TIMEOUT', message: 'no answer' });
    expect(journal.unresolved()).toHaveLength(1);
    journal.appendReconciled({ id: 'x', status: 'landed', detail: 'order 0xo found open' });
    expect(journal.unresolved()).toHaveLength(0);
  });

  it('drops a torn last line left by a crash mid-write, and keeps the rest', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1 });
    journal.appendSigned(signed('a'));
    await journal.close();
    // A crash in the middle of writing the next entry leaves part of it after the data.
    const torn = '{"kind":"signed","seq":1,"at":1,"id":"b","network":"sandbox","account":"0xabc","endpoint":"POST /v1/session/actions","nonce":{"mode":"sequ';
    const fd = openSync(join(dir, 'journal.jsonl'), 'r+');
    writeSync(fd, torn, Buffer.byteLength(dataOf(dir)));
    closeSync(fd);
    const reopened = new Journal({ directory: dir, now: () => 1 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['a']);
    // A shorter entry written over the torn one leaves no garbage behind it.
    reopened.appendSigned({ ...signed('c'), actions: [], description: 'x' });
    await reopened.close();
    const lines = dataOf(dir).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => JSON.parse(line) !== null)).toBe(true);
    const again = new Journal({ directory: dir, now: () => 1 });
    expect(again.unresolved().map((record) => record.signed.id)).toEqual(['a', 'c']);
  });

  it('rotates past its size limit and carries unresolved entries into the new file', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 42, rotateBytes: 2000 });
    journal.appendSigned(signed('pending'));
    for (let index = 0; index < 20; index += 1) {
      journal.appendSigned(signed(`done-${index}`));
      journal.appendOutcome({ id: `done-${index}`, status: 'accepted', txId: null, orderIds: [], code: null, message: null });
    }
    await journal.close();
    expect(readdirSync(dir).some((name) => /^journal-42-\d+\.jsonl$/.test(name))).toBe(true);
    expect(Buffer.byteLength(dataOf(dir))).toBeLessThan(2000);
    // The archive keeps only data, no preallocated zeros.
    const archive = readdirSync(dir).find((name) => /^journal-42-/.test(name))!;
    expect(readFileSync(join(dir, archive)).includes(0)).toBe(false);
    const reopened = new Journal({ directory: dir, now: () => 43 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['pending']);
  });

  it('a durable append is in the journal at once and on disk when its promise settles', async () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1 });
    const { entry, flushed } = journal.appendSignedDurably(signed('d'));
    expect(journal.unresolved().map((record) => record.signed.id)).toEqual(['d']);
    await flushed;
    expect(dataOf(dir)).toContain(`"id":"${entry.id}"`);
    journal.appendOutcome({ id: 'd', status: 'accepted', txId: null, orderIds: [], code: null, message: null });
    await journal.close();
    expect(new Journal({ directory: dir, now: () => 2 }).unresolved()).toEqual([]);
  });

  it('creates its file readable by the owner only', async () => {
    const dir = directory();
    await new Journal({ directory: dir, now: () => 1 }).close();
    expect(statSync(join(dir, 'journal.jsonl')).mode & 0o777).toBe(0o600);
  });
});
