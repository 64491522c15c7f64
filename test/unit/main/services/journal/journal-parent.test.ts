// An execution algorithm's child keeps its parent tag in the journal's signed entry (what finds a
// child left signing by a crash); an entry written without one, as every journal before the tag
// was, still reads.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../../main/services/journal/journal';

const signed = (id: string) => ({
  id,
  networkId: 'sandbox',
  account: '0xabc',
  endpoint: 'POST /v1/session/actions',
  nonce: { mode: 'sequential' as const, value: 7n },
  actions: [],
  description: 'Buy 1 ETH',
});

describe('the journal parent tag', () => {
  it('is kept across a reopen, found by its tag, and an entry without one still reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-journal-parent-'));
    const journal = new Journal({ directory: dir, now: () => 1000 });
    journal.appendSigned({ ...signed('plain'), description: 'Buy 1 ETH' });
    journal.appendSigned({ ...signed('child'), description: 'TWAP a3 slice 4/20: Buy 1 ETH', parent: 'twap-a3/c4' });
    journal.appendOutcome({ id: 'child', status: 'accepted', txId: null, orderIds: ['0x01'], code: null, message: null });
    await journal.close();
    const reopened = new Journal({ directory: dir, now: () => 2000 });
    const found = reopened.recordsOfParent('twap-a3/c4');
    expect(found).toHaveLength(1);
    expect(found[0]!.signed.description).toBe('TWAP a3 slice 4/20: Buy 1 ETH');
    expect(found[0]!.outcome?.orderIds).toEqual(['0x01']);
    expect(reopened.list(10).find((entry) => entry.id === 'plain' && entry.kind === 'signed')).toBeDefined();
    expect(reopened.recordsOfParent('twap-a3/c5')).toEqual([]);
    await reopened.close();
  });
});
