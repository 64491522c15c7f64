import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PendingStore, type PendingRecord } from '../../../../../main/services/custody/pending-store';
import { OWNER, sessionRequest, withdrawRequest, DESTINATION } from '../../../../support/main/custody/fixtures';

function record(overrides: Partial<PendingRecord> = {}): PendingRecord {
  return { networkId: 'devnet', owner: OWNER, kind: 'withdraw', request: withdrawRequest(), state: 'awaiting-signature', journalId: null, response: null, detail: null, sessionMarkets: [], ...overrides };
}

describe('pending owner requests on disk', () => {
  it('keeps one per network, owner and kind, and survives a restart', () => {
    const directory = mkdtempSync(join(tmpdir(), 'lt-pending-'));
    const store = new PendingStore(directory, () => undefined);
    const withdraw = record();
    const session = record({ kind: 'session', request: sessionRequest(DESTINATION), sessionMarkets: ['m1'] });
    expect(store.put(withdraw).ok).toBe(true);
    expect(store.put(session).ok).toBe(true);
    const replacement = record({ request: withdrawRequest({ amount: 1n }) });
    expect(store.put(replacement).ok).toBe(true);
    expect(store.update('devnet', OWNER, 'session', { state: 'outcome-unknown', journalId: 'j1', detail: 'lost' }).ok).toBe(true);

    const restarted = new PendingStore(directory, () => undefined);
    const listed = restarted.list('devnet', OWNER);
    expect(listed.map((entry) => entry.kind).sort()).toEqual(['session', 'withdraw']);
    expect(restarted.get('devnet', OWNER, 'withdraw')?.request).toEqual(replacement.request);
    expect(restarted.get('devnet', OWNER, 'session')).toMatchObject({ state: 'outcome-unknown', journalId: 'j1', detail: 'lost', sessionMarkets: ['m1'] });
    expect(restarted.list('testnet', OWNER)).toEqual([]);
    expect(restarted.remove('devnet', OWNER, 'withdraw').ok).toBe(true);
    expect(new PendingStore(directory, () => undefined).get('devnet', OWNER, 'withdraw')).toBeNull();
  });

  it('ignores, with a log line, a stored request that no longer parses strictly', () => {
    const directory = mkdtempSync(join(tmpdir(), 'lt-pending-'));
    new PendingStore(directory, () => undefined).put(record());
    const path = join(directory, 'custody', 'pending-requests.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('\\"kind\\":\\"withdraw\\"', '\\"kind\\":\\"withdraw\\",\\"extra\\":1'));
    const lines: string[] = [];
    const store = new PendingStore(directory, (line) => lines.push(line));
    expect(store.list('devnet', OWNER)).toEqual([]);
    expect(lines.join('\n')).toMatch(/unreadable and is ignored/);
  });
});
