// The keymap at the settings boundary: what parses, what collides, what a stored keymap becomes
// when actions were added since it was written.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PreferencesStore } from '../../../../main/services/storage/preferences';
import { applyKeymapChange, canonicalHotkey, completeKeymap, DEFAULT_HOTKEYS, hotkeyConflicts, parseHotkeyText } from '../../../../shared/hotkeys/keymap';
import { inputs } from '../../../../shared/ipc/inputs';
import { HOTKEY_ACTIONS } from '../../../../shared/ipc/views/settings';

describe('keymap parsing', () => {
  it('reads modifiers in any order and case, and writes them canonically', () => {
    expect(canonicalHotkey('shift+ctrl+k')).toBe('Ctrl+Shift+K');
    expect(canonicalHotkey('Cmd+Alt+f5')).toBe('Alt+Meta+F5');
    expect(canonicalHotkey('Shift+?')).toBe('Shift+?');
    expect(canonicalHotkey('Shift+Plus')).toBe('Shift+Plus');
    expect(canonicalHotkey('space')).toBe('Space');
    expect(canonicalHotkey('')).toBe('');
  });
  it('refuses what is no key combination, saying why', () => {
    expect(parseHotkeyText('Shift+')).toEqual({ ok: false, reason: 'an empty part (write the plus key as "Plus")' });
    expect(parseHotkeyText('Hyper+B')).toEqual({ ok: false, reason: '"Hyper" is not a modifier (Ctrl, Alt, Shift, Meta)' });
    expect(parseHotkeyText('Shift')).toMatchObject({ ok: false, reason: expect.stringContaining('a hotkey needs a key') });
    expect(parseHotkeyText('Shift+Shift+B')).toMatchObject({ ok: false, reason: '"Shift" is given twice' });
    expect(parseHotkeyText('Ctrl+Not a key')).toMatchObject({ ok: false, reason: '"Not a key" is not a key name' });
  });
  it('the defaults have every action, and no two on one key', () => {
    expect(Object.keys(DEFAULT_HOTKEYS).sort()).toEqual([...HOTKEY_ACTIONS].sort());
    expect(hotkeyConflicts(DEFAULT_HOTKEYS)).toEqual([]);
    for (const action of HOTKEY_ACTIONS) expect(canonicalHotkey(DEFAULT_HOTKEYS[action]), action).toBe(DEFAULT_HOTKEYS[action]);
  });
});

describe('keymap changes', () => {
  it('rebinds one action, canonically', () => {
    const change = applyKeymapChange(DEFAULT_HOTKEYS, { toggleArm: 'ctrl+shift+a' });
    expect(change).toMatchObject({ ok: true, keymap: { ...DEFAULT_HOTKEYS, toggleArm: 'Ctrl+Shift+A' } });
  });
  it('refuses a key another action holds, naming both, and applies nothing', () => {
    const change = applyKeymapChange(DEFAULT_HOTKEYS, { flatten: 'shift+k', toggleArm: 'F9' });
    expect(change).toEqual({
      ok: false,
      action: 'flatten',
      value: 'Shift+K',
      message: 'Hotkey Shift+K not saved for "Flatten the position in this market and book": it is already the key of "Kill switch: cancel every order and trigger leg, disarm every window". Choose another key, or rebind or clear that one first.',
    });
  });
  it('allows a swap in one change, and a cleared key to be taken', () => {
    expect(applyKeymapChange(DEFAULT_HOTKEYS, { buyAtBest: 'Shift+S', sellAtBest: 'Shift+B' })).toMatchObject({ ok: true, keymap: { buyAtBest: 'Shift+S', sellAtBest: 'Shift+B' } });
    expect(applyKeymapChange(DEFAULT_HOTKEYS, { killSwitch: '', flatten: 'Shift+K' })).toMatchObject({ ok: true, keymap: { killSwitch: '', flatten: 'Shift+K' } });
  });
  it('refuses text that does not parse', () => {
    expect(applyKeymapChange(DEFAULT_HOTKEYS, { recenter: 'Hyper+R' })).toMatchObject({ ok: false, action: 'recenter', message: expect.stringContaining('"Hyper" is not a modifier') });
  });
});

describe('a stored keymap read back', () => {
  it('gives actions added since their default, unless the trader took that key', () => {
    const old = { buyAtBest: 'Shift+B', sellAtBest: 'Shift+S', cancelLast: 'Shift+Z', cancelAll: 'Shift+X', recenter: 'Space', togglePostOnly: 'Shift+A' };
    const keymap = completeKeymap(old);
    expect(keymap.togglePostOnly).toBe('Shift+A');
    expect(keymap.toggleArm).toBe('');
    expect(keymap.killSwitch).toBe('Shift+K');
    expect(hotkeyConflicts(keymap)).toEqual([]);
  });
  it('drops a binding that no longer parses, and a duplicate', () => {
    expect(completeKeymap({ buyAtBest: 'Hyper+B', sellAtBest: 'Shift+S', recenter: 'shift+s' })).toMatchObject({ buyAtBest: '', sellAtBest: 'Shift+S', recenter: '' });
  });
  it('a settings file written before the new actions still loads, completed', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-keymap-'));
    const settings = { confirmOrders: true, maxOrderQuantity: {}, hotkeys: { buyAtBest: 'Shift+B', sellAtBest: 'Shift+S', cancelLast: 'Shift+Z', cancelAll: 'Shift+X', recenter: 'Space', togglePostOnly: 'Shift+P' }, sound: true, desktopNotifications: true, parallelLanes: 0, sessionDays: 30, quantityPresets: {} };
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, networkId: 'sandbox', networks: {}, settings }));
    const lines: string[] = [];
    const store = new PreferencesStore(dataDir, (line) => lines.push(line));
    expect(store.preferences.get().settings.hotkeys).toEqual(DEFAULT_HOTKEYS);
    expect(lines).toEqual([]);
  });
});

describe('the updateSettings input (the IPC boundary)', () => {
  const schema = inputs.updateSettings;
  it('accepts a binding, an empty one (no key), and names the field and value of a bad one', () => {
    expect(schema.safeParse({ hotkeys: { toggleArm: 'Ctrl+Shift+A', flatten: '' } }).success).toBe(true);
    const bad = schema.safeParse({ hotkeys: { killSwitch: 'Shift+' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['hotkeys', 'killSwitch'], message: '"Shift+" is not a key combination: an empty part (write the plus key as "Plus")' });
    expect(schema.safeParse({ hotkeys: { notAnAction: 'B' } }).success).toBe(false);
  });
});
