// The window registry: prepared windows, pages bound to them, the main window's several tabs, limits.
import { describe, expect, it } from 'vitest';
import { MAX_PANEL_WINDOWS } from '../../../../../shared/ipc/areas/desk';
import { TOO_MANY_WINDOWS, WindowRegistry } from '../../../../../main/services/desk/window-registry';

function keys() {
  let next = 0;
  return () => (++next).toString(16).padStart(32, '0');
}

const ladder = { panel: 'ladder', marketId: 'm1', turbo: false, linkGroup: 'green' as const, bounds: null, displayId: null };

describe('WindowRegistry', () => {
  it('starts with the main window, open, in the green group', () => {
    const registry = new WindowRegistry(keys());
    expect(registry.views()).toEqual([{ windowKey: 'main', panel: null, marketId: null, turbo: false, linkGroup: 'green', bounds: null, displayId: null, state: 'open', url: null }]);
  });

  it('prepares a panel window that is opening until a page binds to it', () => {
    const registry = new WindowRegistry(keys());
    const added = registry.add(ladder);
    if (!added.ok) throw new Error(added.message);
    added.value.url = 'http://127.0.0.1:1/?window=1';
    expect(registry.view(added.value)).toMatchObject({ state: 'opening', url: 'http://127.0.0.1:1/?window=1' });
    expect(registry.bindPage('tab-2', added.value.windowKey)).toBe(true);
    expect(registry.view(added.value)).toMatchObject({ state: 'open', url: null });
    expect(registry.keyOfPage('tab-2')).toBe(added.value.windowKey);
  });

  it('refuses a page that names a window it does not have', () => {
    const registry = new WindowRegistry(keys());
    expect(registry.bindPage('tab-1', 'f'.repeat(32))).toBe(false);
    expect(registry.keyOfPage('tab-1')).toBeNull();
  });

  it('lets several tabs show the main window, and one page a panel window (a reload replaces it)', () => {
    const registry = new WindowRegistry(keys());
    registry.bindPage('tab-1', 'main');
    registry.bindPage('tab-2', 'main');
    expect(registry.pagesOf('main')).toEqual(['tab-1', 'tab-2']);
    const added = registry.add(ladder);
    if (!added.ok) throw new Error(added.message);
    registry.bindPage('tab-3', added.value.windowKey);
    registry.bindPage('tab-4', added.value.windowKey);
    expect(registry.pagesOf(added.value.windowKey)).toEqual(['tab-4']);
    expect(registry.unbindPage('tab-4')).toBe(added.value.windowKey);
    expect(registry.isOpen(added.value.windowKey)).toBe(false);
  });

  it('removes panel windows and their pages, never the main window', () => {
    const registry = new WindowRegistry(keys());
    const added = registry.add(ladder);
    if (!added.ok) throw new Error(added.message);
    registry.bindPage('tab-3', added.value.windowKey);
    expect(registry.remove('main')).toBe(false);
    expect(registry.remove(added.value.windowKey)).toBe(true);
    expect(registry.keyOfPage('tab-3')).toBeNull();
    expect(registry.panels()).toEqual([]);
  });

  it(`holds at most ${MAX_PANEL_WINDOWS} panel windows`, () => {
    const registry = new WindowRegistry(keys());
    for (let index = 0; index < MAX_PANEL_WINDOWS; index++) expect(registry.add(ladder).ok).toBe(true);
    const refused = registry.add(ladder);
    expect(refused.ok ? null : refused.code).toBe(TOO_MANY_WINDOWS);
  });

  it('never hands out a key twice, even when the random source repeats', () => {
    const values = ['a'.repeat(32), 'a'.repeat(32), 'b'.repeat(32)];
    const registry = new WindowRegistry(() => values.shift() ?? 'c'.repeat(32));
    const first = registry.add(ladder);
    const second = registry.add(ladder);
    expect(first.ok && second.ok && first.value.windowKey !== second.value.windowKey).toBe(true);
  });
});
