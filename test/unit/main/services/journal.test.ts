import { appendFileSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../main/services/journal';

function directory() {
  return mkdtempSync(join(tmpdir(), 'lt-journal-'));
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
  it('is on disk before the caller goes on, and survives a reopen', () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1000 });
    journal.appendSigned(signed('a'));
    // Read the file directly, without closing the journal: the entry is already there.
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toContain('"id":"a"');
    journal.appendOutcome({ id: 'a', status: 'accepted', txId: '0x1', orderIds: ['0xo'], code: null, message: null });
    journal.appendSigned(signed('b'));
    journal.close();

    const reopened = new Journal({ directory: dir, now: () => 2000 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['b']);
    expect(reopened.unresolved()[0]?.signed.nonce).toEqual({ mode: 'sequential', value: 7n });
    const next = reopened.appendSigned(signed('c'));
    expect(next.seq).toBe(3);
    expect(reopened.list(10).map((entry) => `${entry.kind}:${entry.id}`)).toEqual(['signed:c', 'signed:b', 'outcome:a', 'signed:a']);
  });

  it('keeps an unknown outcome open until it is reconciled', () => {
    const journal = new Journal({ directory: directory(), now: () => 1 });
    journal.appendSigned(signed('x'));
    journal.appendOutcome({ id: 'x', status: 'unknown', txId: null, orderIds: [], code: 'TIMEOUT', message: 'no answer' });
    expect(journal.unresolved()).toHaveLength(1);
    journal.appendReconciled({ id: 'x', status: 'landed', detail: 'order 0xo found open' });
    expect(journal.unresolved()).toHaveLength(0);
  });

  it('drops a torn last line left by a crash mid-write, and keeps the rest', () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 1 });
    journal.appendSigned(signed('a'));
    journal.close();
    appendFileSync(join(dir, 'journal.jsonl'), '{"kind":"signed","seq":1,"at":1,"id":"b","netw');
    const reopened = new Journal({ directory: dir, now: () => 1 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['a']);
    reopened.appendSigned(signed('c'));
    reopened.close();
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => JSON.parse(line) !== null)).toBe(true);
  });

  it('rotates past its size limit and carries unresolved entries into the new file', () => {
    const dir = directory();
    const journal = new Journal({ directory: dir, now: () => 42, rotateBytes: 2000 });
    journal.appendSigned(signed('pending'));
    for (let index = 0; index < 20; index += 1) {
      journal.appendSigned(signed(`done-${index}`));
      journal.appendOutcome({ id: `done-${index}`, status: 'accepted', txId: null, orderIds: [], code: null, message: null });
    }
    journal.close();
    expect(readdirSync(dir).some((name) => /^journal-42-\d+\.jsonl$/.test(name))).toBe(true);
    expect(statSync(join(dir, 'journal.jsonl')).size).toBeLessThan(2000);
    const reopened = new Journal({ directory: dir, now: () => 43 });
    expect(reopened.unresolved().map((record) => record.signed.id)).toEqual(['pending']);
  });

  it('creates its file readable by the owner only', () => {
    const dir = directory();
    new Journal({ directory: dir, now: () => 1 }).close();
    expect(statSync(join(dir, 'journal.jsonl')).mode & 0o777).toBe(0o600);
  });
});
