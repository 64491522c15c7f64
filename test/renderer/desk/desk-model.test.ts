// The desk's rules in the renderer: placeholders, market adoption on a change of main's record, the
// only URL a window may be opened on, popup features, self-closing.
import { describe, expect, it } from 'vitest';
import type { DeskState, DeskWindowView } from '../../../shared/ipc/views/desk';
import { detachedKinds, displayLabel, isOwnPage, marketChange, ownWindow, pendingWindows, popupFeatures, shouldClose, windowOfKind } from '../../../renderer/src/features/desk/desk-model';

const key = 'ab'.repeat(16);
const window = (patch: Partial<DeskWindowView>): DeskWindowView => ({ windowKey: 'main', panel: null, marketId: 'm1', turbo: false, linkGroup: 'green', bounds: null, displayId: '1', state: 'open', url: null, ...patch });
const state = (windows: DeskWindowView[]): DeskState => ({
  host: 'browser',
  windows,
  displays: [{ id: '1', label: 'Display 1', bounds: { x: 0, y: 0, width: 1, height: 1 }, workArea: { x: 0, y: 0, width: 1, height: 1 }, primary: true }],
  layouts: [],
  activeLayout: null,
});

describe('desk model', () => {
  const desk = state([window({}), window({ windowKey: key, panel: 'ladder', state: 'opening', url: `http://127.0.0.1:5/?token=t&window=${key}` })]);

  it('knows which panels have a window of their own, and which wait for a tab', () => {
    expect([...detachedKinds(desk)]).toEqual(['ladder']);
    expect(detachedKinds(null).size).toBe(0);
    expect(windowOfKind(desk, 'ladder')?.windowKey).toBe(key);
    expect(windowOfKind(desk, 'chart')).toBeNull();
    expect(pendingWindows(desk).map((item) => item.panel)).toEqual(['ladder']);
    expect(ownWindow(desk, 'main')?.panel).toBeNull();
  });

  it('takes a market from main only when main changes its record of the window', () => {
    expect(marketChange(null, window({ marketId: 'm1' }))).toEqual({ marketId: 'm1', turbo: false });
    expect(marketChange(window({ marketId: 'm1' }), window({ marketId: 'm1' }))).toBeNull();
    expect(marketChange(window({ marketId: 'm1' }), window({ marketId: 'm2' }))).toEqual({ marketId: 'm2', turbo: false });
    expect(marketChange(window({ marketId: 'm1' }), window({ marketId: 'm1', turbo: true }))).toEqual({ marketId: 'm1', turbo: true });
    expect(marketChange(window({ marketId: 'm1' }), window({ marketId: null }))).toBeNull();
  });

  it('opens only the host page of a prepared window, nothing else', () => {
    const origin = 'http://127.0.0.1:5';
    expect(isOwnPage(`${origin}/?token=t&window=${key}`, origin)).toBe(true);
    expect(isOwnPage(`http://127.0.0.1:6/?token=t&window=${key}`, origin)).toBe(false);
    expect(isOwnPage(`https://evil.example/?window=${key}`, origin)).toBe(false);
    expect(isOwnPage(`${origin}/other?window=${key}`, origin)).toBe(false);
    expect(isOwnPage(`${origin}/?token=t`, origin)).toBe(false);
    expect(isOwnPage('javascript:alert(1)', origin)).toBe(false);
    expect(isOwnPage('not a url', origin)).toBe(false);
  });

  it('asks for a popup at the window bounds', () => {
    expect(popupFeatures({ x: -1280, y: 20, width: 400, height: 300 })).toBe('popup,left=-1280,top=20,width=400,height=300');
    expect(popupFeatures(null)).toBe('popup');
  });

  it('closes a panel window once main stops listing it, not before it was ever listed', () => {
    expect(shouldClose(state([window({})]), key, false)).toBe(false);
    expect(shouldClose(state([window({})]), key, true)).toBe(true);
    expect(shouldClose(desk, key, true)).toBe(false);
    expect(shouldClose(null, key, true)).toBe(false);
  });

  it('names displays', () => {
    expect(displayLabel(desk, '1')).toBe('Display 1');
    expect(displayLabel(desk, '7')).toBe('display 7');
    expect(displayLabel(desk, null)).toBe('off-screen');
  });
});
