import { describe, expect, it } from 'vitest';
import { DEFAULT_HOTKEYS } from '../../shared/hotkeys/keymap';
import { describeEvent, findHotkeyAction, hotkeyConflicts, isTypingTarget, matchesHotkey, parseHotkey } from '../../renderer/src/features/hotkeys/hotkeys';

const key = (key: string, code: string, modifiers: Partial<{ ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean }> = {}) => ({
  key,
  code,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...modifiers,
});

const bindings = { ...DEFAULT_HOTKEYS, cancelLast: 'Escape', cancelAll: 'Ctrl+Shift+X', togglePostOnly: 'P' };

describe('hotkeys', () => {
  it('parses modifiers and names', () => {
    expect(parseHotkey('Shift+b')).toEqual({ ctrl: false, alt: false, shift: true, meta: false, key: 'B' });
    expect(parseHotkey('ctrl+alt+f2')).toEqual({ ctrl: true, alt: true, shift: false, meta: false, key: 'F2' });
    expect(parseHotkey('Space')?.key).toBe('Space');
    expect(parseHotkey('Shift+')).toBeNull();
    expect(parseHotkey('Hyper+B')).toBeNull();
    expect(parseHotkey('Shift')).toBeNull();
  });
  it('matches by physical key for letters, whatever the layout prints', () => {
    const hotkey = parseHotkey('Shift+B')!;
    expect(matchesHotkey(hotkey, key('B', 'KeyB', { shiftKey: true }))).toBe(true);
    // A Cyrillic layout prints "И" on the B key: still Shift+B.
    expect(matchesHotkey(hotkey, key('И', 'KeyB', { shiftKey: true }))).toBe(true);
    expect(matchesHotkey(hotkey, key('b', 'KeyB'))).toBe(false);
    expect(matchesHotkey(hotkey, key('B', 'KeyB', { shiftKey: true, ctrlKey: true }))).toBe(false);
  });
  it('finds the action of an event', () => {
    expect(findHotkeyAction(bindings, key(' ', 'Space'))).toBe('recenter');
    expect(findHotkeyAction(bindings, key('Escape', 'Escape'))).toBe('cancelLast');
    expect(findHotkeyAction(bindings, key('x', 'KeyX', { ctrlKey: true, shiftKey: true }))).toBe('cancelAll');
    expect(findHotkeyAction(bindings, key('q', 'KeyQ'))).toBeNull();
  });
  it('describes a pressed combination for the settings recorder', () => {
    expect(describeEvent(key('K', 'KeyK', { ctrlKey: true, shiftKey: true }))).toBe('Ctrl+Shift+K');
    expect(describeEvent(key('Shift', 'ShiftLeft', { shiftKey: true }))).toBeNull();
    expect(describeEvent(key(' ', 'Space'))).toBe('Space');
  });
  it('never fires while typing in a text field', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
  it('reports two actions bound to the same keys', () => {
    expect(hotkeyConflicts({ ...bindings, togglePostOnly: 'shift+b' })).toEqual([['buyAtBest', 'togglePostOnly']]);
    expect(hotkeyConflicts(bindings)).toEqual([]);
  });
  it('finds the new actions: arm, kill switch, flatten, size presets, the ? overlay', () => {
    expect(findHotkeyAction(bindings, key('A', 'KeyA', { shiftKey: true }))).toBe('toggleArm');
    expect(findHotkeyAction(bindings, key('K', 'KeyK', { shiftKey: true }))).toBe('killSwitch');
    expect(findHotkeyAction(bindings, key('F', 'KeyF', { shiftKey: true }))).toBe('flatten');
    expect(findHotkeyAction(bindings, key('3', 'Digit3'))).toBe('sizePreset3');
    expect(findHotkeyAction(bindings, key('3', 'Numpad3'))).toBe('sizePreset3');
    // Shift+3 prints "#" on a US keyboard: not the preset.
    expect(findHotkeyAction(bindings, key('#', 'Digit3', { shiftKey: true }))).toBeNull();
    expect(findHotkeyAction(bindings, key('?', 'Slash', { shiftKey: true }))).toBe('showHotkeys');
    expect(findHotkeyAction({ ...bindings, toggleArm: '' }, key('A', 'KeyA', { shiftKey: true }))).toBeNull();
  });
  it('finds close half and reverse of the position in view', () => {
    expect(findHotkeyAction(bindings, key('H', 'KeyH', { shiftKey: true }))).toBe('closeHalf');
    expect(findHotkeyAction(bindings, key('R', 'KeyR', { shiftKey: true }))).toBe('reverse');
  });
});
