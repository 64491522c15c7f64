// The layouts file: saved atomically in the data directory, read back on the next start, names
// matched without regard to case, a damaged file set aside rather than overwritten.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LAYOUTS } from '../../../../../shared/ipc/areas/desk';
import { LayoutStore, TOO_MANY_LAYOUTS, UNKNOWN_LAYOUT, type Layout } from '../../../../../main/services/desk/layout-store';

const market = `0x${'a1'.repeat(32)}`;

function layout(name: string, savedAt = 1000): Layout {
  return {
    name,
    savedAt,
    main: { marketId: market, turbo: false, linkGroup: 'green', bounds: { x: 0, y: 0, width: 1400, height: 900 }, displayId: '1' },
    windows: [{ panel: 'ladder', marketId: market, turbo: false, linkGroup: 'green', bounds: { x: 1950, y: 40, width: 420, height: 800 }, displayId: '2' }],
  };
}

const directory = () => mkdtempSync(join(tmpdir(), 'lt-layouts-'));
const noLog = () => undefined;

describe('LayoutStore', () => {
  it('saves a layout, makes it active and current, and reads it back in a new store', () => {
    const dir = directory();
    const store = new LayoutStore(dir, noLog, () => 0);
    const saved = store.save(layout('Morning'));
    expect(saved.ok && saved.value).toEqual([{ name: 'Morning', savedAt: 1000, panels: ['ladder'] }]);
    const again = new LayoutStore(dir, noLog, () => 0);
    expect(again.active()).toBe('Morning');
    expect(again.find('morning')).toEqual(layout('Morning'));
    expect(again.current()?.name).toBe('Morning');
    // Written whole, then renamed: no temporary file is left behind.
    expect(readdirSync(dir)).toEqual(['layouts.json']);
  });

  it('overwrites a layout of the same name (any case) in its place', () => {
    const store = new LayoutStore(directory(), noLog, () => 0);
    store.save(layout('Morning'));
    store.save(layout('Evening'));
    const saved = store.save(layout('MORNING', 2000));
    expect(saved.ok && saved.value.map((summary) => [summary.name, summary.savedAt])).toEqual([
      ['MORNING', 2000],
      ['Evening', 1000],
    ]);
  });

  it('deletes a layout and forgets it as the active one; an unknown name is refused', () => {
    const store = new LayoutStore(directory(), noLog, () => 0);
    store.save(layout('Morning'));
    const deleted = store.delete('morning');
    expect(deleted.ok && deleted.value).toEqual([]);
    expect(store.active()).toBeNull();
    const refused = store.delete('Morning');
    expect(refused.ok ? null : refused.code).toBe(UNKNOWN_LAYOUT);
  });

  it(`keeps at most ${MAX_LAYOUTS} layouts`, () => {
    const store = new LayoutStore(directory(), noLog, () => 0);
    for (let index = 0; index < MAX_LAYOUTS; index++) expect(store.save(layout(`L${index}`)).ok).toBe(true);
    const refused = store.save(layout('one more'));
    expect(refused.ok ? null : refused.code).toBe(TOO_MANY_LAYOUTS);
    expect(store.save(layout('L3', 5)).ok).toBe(true);
  });

  it('refuses to write a layout its schema rejects, and keeps the old file', () => {
    const dir = directory();
    const store = new LayoutStore(dir, noLog, () => 0);
    store.save(layout('Morning'));
    const before = readFileSync(join(dir, 'layouts.json'), 'utf8');
    const bad = { ...layout('Bad'), windows: [{ ...layout('Bad').windows[0]!, panel: 'Not A Kind' }] };
    expect(store.save(bad).ok).toBe(false);
    expect(readFileSync(join(dir, 'layouts.json'), 'utf8')).toBe(before);
  });

  it('sets a damaged file aside and starts empty, saying so', () => {
    const dir = directory();
    writeFileSync(join(dir, 'layouts.json'), '{"version":1,"layouts":"nope"}');
    const lines: string[] = [];
    const store = new LayoutStore(dir, (line) => lines.push(line), () => 42);
    expect(store.summaries()).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['layouts.json.corrupt-42']);
    expect(lines.join('\n')).toMatch(/could not be read/);
  });
});
