// The open orders and fills a window shows are a keyed list main pushes whole on every change. The
// store applies each push row by row (applyKeyed) instead of through Solid's reconcile of the whole
// list; it must leave exactly what reconcile leaves: the pushed rows in the pushed order, each key's
// row the same object as before (a row drawn from it, an order held by an amend ticket, follows
// it), its members updated in place. Checked against reconcile itself over random pushes.
import fc from 'fast-check';
import { createRenderEffect, createRoot } from 'solid-js';
import { createStore, produce, reconcile, unwrap } from 'solid-js/store';
import { describe, expect, it } from 'vitest';
import type { JournalEntryView } from '../../shared/ipc/views/journal';
import { addJournalEntry, applyKeyed, MAX_JOURNAL } from '../../renderer/src/stores/terminal-store';
import { checkProperty } from '../support/property';

interface Row {
  readonly id: string;
  readonly filled: bigint;
  readonly status: string;
}

/** One push: rows removed, added, moved and changed, the keys unique (as main sends them). */
const pushes = fc.array(
  fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), filled: fc.bigInt({ min: 0n, max: 3n }), status: fc.constantFrom('open', 'partially-filled') }), { maxLength: 8 }),
  { minLength: 1, maxLength: 12 },
);

const unique = (rows: readonly Row[]): Row[] => rows.filter((row, index) => rows.findIndex((other) => other.id === row.id) === index);

describe('applyKeyed: a pushed keyed list applied row by row', () => {
  it('leaves what reconcile by key leaves, the same object per key and the same rows, push after push', () => {
    checkProperty(
      fc.property(pushes, (sequence) => {
        createRoot((dispose) => {
          const [ours, setOurs] = createStore({ rows: [] as Row[] });
          const [theirs, setTheirs] = createStore({ rows: [] as Row[] });
          for (const push of sequence) {
            const next = unique(push);
            const oursBefore = new Map(unwrap(ours.rows).map((row) => [row.id, row]));
            const theirsBefore = new Map(unwrap(theirs.rows).map((row) => [row.id, row]));
            applyKeyed(setOurs, ours.rows, 'rows', next.map((row) => ({ ...row })), 'id');
            setTheirs('rows', reconcile(next.map((row) => ({ ...row })), { key: 'id' }));
            expect(unwrap(ours.rows).map((row) => ({ ...row }))).toEqual(next);
            expect(unwrap(theirs.rows).map((row) => ({ ...row }))).toEqual(next);
            // A key held before keeps its object, as reconcile keeps it; a new key brings a new one.
            for (const row of unwrap(ours.rows)) expect(row === oursBefore.get(row.id)).toBe(oursBefore.has(row.id));
            for (const row of unwrap(theirs.rows)) expect(row === theirsBefore.get(row.id)).toBe(theirsBefore.has(row.id));
          }
          dispose();
        });
      }),
      { numRuns: 300 },
    );
  });

  it('tells what is drawn from a row about each change of its members, and the list about each row that comes or goes', () => {
    const row = (id: string, filled: bigint): Row => ({ id, filled, status: filled > 0n ? 'partially-filled' : 'open' });
    // Built in a root, changed outside it: inside its first run Solid holds every update until the run ends.
    const desk = createRoot((dispose) => {
      const [state, setState] = createStore({ rows: [] as Row[] });
      applyKeyed(setState, state.rows, 'rows', [row('a', 0n), row('b', 0n)], 'id');
      const b = state.rows[1]!;
      const filledOfB: bigint[] = [];
      const ids: string[] = [];
      createRenderEffect(() => filledOfB.push(b.filled));
      createRenderEffect(() => ids.push(state.rows.map((each) => each.id).join('')));
      return { state, setState, b, filledOfB, ids, dispose };
    });
    const { state, setState, b, filledOfB, ids } = desk;
    // b filled in place, then a placement on top, then a cancel of a and b filled further.
    applyKeyed(setState, state.rows, 'rows', [row('a', 0n), row('b', 2n)], 'id');
    applyKeyed(setState, state.rows, 'rows', [row('c', 0n), row('a', 0n), row('b', 2n)], 'id');
    applyKeyed(setState, state.rows, 'rows', [row('c', 0n), row('b', 3n)], 'id');
    expect(filledOfB).toEqual([0n, 2n, 3n]);
    expect(ids).toEqual(['ab', 'cab', 'cb']);
    expect(state.rows[1]).toBe(b);
    desk.dispose();
  });
});

describe('a journal entry pushed to a window', () => {
  const entry = (seq: number, status: string | null = null): JournalEntryView => ({ seq, at: seq, id: `id-${seq}`, kind: 'signed', networkId: 'sandbox', endpoint: 'PUT /v1/session', nonce: String(seq), description: 'Buy 0.01 ETH', status, detail: null });

  it('lists the newest first, an entry pushed again (the same seq) once and on top, at most MAX_JOURNAL, each kept entry the same object', () => {
    createRoot((dispose) => {
      const [state, setState] = createStore({ journal: [] as JournalEntryView[] });
      const push = (next: JournalEntryView) => setState('journal', produce((journal: JournalEntryView[]) => addJournalEntry(journal, next)));
      for (let seq = 1; seq <= MAX_JOURNAL + 3; seq++) push(entry(seq));
      expect(state.journal).toHaveLength(MAX_JOURNAL);
      expect(state.journal[0]?.seq).toBe(MAX_JOURNAL + 3);
      expect(state.journal.at(-1)?.seq).toBe(4);
      const kept = unwrap(state.journal).find((each) => each.seq === MAX_JOURNAL + 2);
      // The same seq again (its outcome): one entry for it, at the top, the others unchanged.
      push(entry(MAX_JOURNAL + 1, 'accepted'));
      expect(state.journal.map((each) => each.seq).slice(0, 3)).toEqual([MAX_JOURNAL + 1, MAX_JOURNAL + 3, MAX_JOURNAL + 2]);
      expect(state.journal.filter((each) => each.seq === MAX_JOURNAL + 1)).toHaveLength(1);
      expect(state.journal[0]?.status).toBe('accepted');
      expect(state.journal).toHaveLength(MAX_JOURNAL);
      expect(unwrap(state.journal).find((each) => each.seq === MAX_JOURNAL + 2)).toBe(kept);
      dispose();
    });
  });
});
