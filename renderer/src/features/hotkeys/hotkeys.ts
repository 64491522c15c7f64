// Hotkey text and matching. A hotkey is written "Modifier+...+Key": modifiers Ctrl, Alt, Shift,
// Meta in that order, then one key: a letter or digit (matched by its physical key, so it works
// on any keyboard layout), Space, or a KeyboardEvent.key name such as F2, Escape, Delete, ArrowUp.
import { formatHotkey, isModifierName, normaliseKeyName, parseHotkey, type Hotkey } from '../../../../shared/hotkeys/keymap';
import { HOTKEY_ACTIONS, type HotkeyAction } from '../../../../shared/ipc/views/settings';

export interface KeyLike {
  readonly key: string;
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly metaKey: boolean;
}

export type { Hotkey } from '../../../../shared/hotkeys/keymap';
export { formatHotkey, hotkeyConflicts, HOTKEY_LABELS, parseHotkey } from '../../../../shared/hotkeys/keymap';

/** The key name of an event, by physical key for letters and digits. */
export function eventKeyName(event: KeyLike): string {
  const letter = /^Key([A-Z])$/.exec(event.code);
  if (letter) return letter[1]!;
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(event.code);
  if (digit) return digit[1]!;
  if (event.code === 'Space') return 'Space';
  return normaliseKeyName(event.key);
}

/** The hotkey text of an event ("Ctrl+Shift+K"); null for a lone modifier press. */
export function describeEvent(event: KeyLike): string | null {
  const name = eventKeyName(event);
  if (isModifierName(name) || isModifierName(event.key)) return null;
  return formatHotkey({ ctrl: event.ctrlKey, alt: event.altKey, shift: event.shiftKey, meta: event.metaKey, key: name });
}

export function matchesHotkey(hotkey: Hotkey, event: KeyLike): boolean {
  return (
    hotkey.ctrl === event.ctrlKey &&
    hotkey.alt === event.altKey &&
    hotkey.shift === event.shiftKey &&
    hotkey.meta === event.metaKey &&
    hotkey.key === eventKeyName(event)
  );
}

/** The action bound to an event, if any. */
export function findHotkeyAction(bindings: Readonly<Record<HotkeyAction, string>>, event: KeyLike): HotkeyAction | null {
  for (const action of HOTKEY_ACTIONS) {
    const hotkey = parseHotkey(bindings[action] ?? '');
    if (hotkey && matchesHotkey(hotkey, event)) return action;
  }
  return null;
}

export interface TargetLike {
  readonly tagName?: string;
  readonly isContentEditable?: boolean;
  readonly type?: string;
}

const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'color']);

/** True while the trader is typing: a hotkey must never fire into a text field. */
export function isTypingTarget(target: TargetLike | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((target.type ?? 'text').toLowerCase());
  return false;
}
