// Hotkey text and matching. A hotkey is written "Modifier+...+Key": modifiers Ctrl, Alt, Shift,
// Meta in that order, then one key: a letter or digit (matched by its physical key, so it works
// on any keyboard layout), Space, or a KeyboardEvent.key name such as F2, Escape, Delete, ArrowUp.
import type { HotkeyAction } from '../../../../shared/ipc/views/settings';

export interface KeyLike {
  readonly key: string;
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly metaKey: boolean;
}

export interface Hotkey {
  readonly ctrl: boolean;
  readonly alt: boolean;
  readonly shift: boolean;
  readonly meta: boolean;
  /** Normalised key name: "B", "7", "Space", "F2", "Escape". */
  readonly key: string;
}

export const HOTKEY_LABELS: Record<HotkeyAction, string> = {
  buyAtBest: 'Buy at best offer',
  sellAtBest: 'Sell at best bid',
  cancelLast: 'Cancel last order',
  cancelAll: 'Cancel all orders in this market',
  recenter: 'Recenter the ladder',
  togglePostOnly: 'Toggle post-only',
};

const MODIFIER_KEYS = new Set(['Control', 'Alt', 'Shift', 'Meta', 'AltGraph', 'CapsLock', 'OS']);

function normaliseKeyName(name: string): string {
  if (name === ' ' || name.toLowerCase() === 'space' || name.toLowerCase() === 'spacebar') return 'Space';
  if (name.length === 1) return name.toUpperCase();
  const lower = name.toLowerCase();
  if (lower === 'esc') return 'Escape';
  if (lower === 'del') return 'Delete';
  if (/^f[0-9]{1,2}$/.test(lower)) return lower.toUpperCase();
  return name[0]!.toUpperCase() + name.slice(1);
}

/** Parse "Shift+B" into a Hotkey; null when the text is not a hotkey. */
export function parseHotkey(text: string): Hotkey | null {
  const parts = text.split('+').map((part) => part.trim());
  // "Shift++" would be the plus key: written "Shift+Plus" instead, so an empty part is an error.
  if (parts.some((part) => part === '')) return null;
  const key = parts.pop();
  if (key === undefined) return null;
  const modifiers = new Set(parts.map((part) => part.toLowerCase()));
  for (const modifier of modifiers) if (!['ctrl', 'control', 'alt', 'shift', 'meta', 'cmd'].includes(modifier)) return null;
  const name = normaliseKeyName(key === 'Plus' ? '+' : key);
  if (MODIFIER_KEYS.has(name)) return null;
  return {
    ctrl: modifiers.has('ctrl') || modifiers.has('control'),
    alt: modifiers.has('alt'),
    shift: modifiers.has('shift'),
    meta: modifiers.has('meta') || modifiers.has('cmd'),
    key: name,
  };
}

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
  if (MODIFIER_KEYS.has(name) || MODIFIER_KEYS.has(event.key)) return null;
  return formatHotkey({ ctrl: event.ctrlKey, alt: event.altKey, shift: event.shiftKey, meta: event.metaKey, key: name });
}

export function formatHotkey(hotkey: Hotkey): string {
  const parts: string[] = [];
  if (hotkey.ctrl) parts.push('Ctrl');
  if (hotkey.alt) parts.push('Alt');
  if (hotkey.shift) parts.push('Shift');
  if (hotkey.meta) parts.push('Meta');
  parts.push(hotkey.key === '+' ? 'Plus' : hotkey.key);
  return parts.join('+');
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
  for (const [action, text] of Object.entries(bindings) as [HotkeyAction, string][]) {
    const hotkey = parseHotkey(text);
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

/** Actions whose hotkeys collide (same key combination), for the settings form. */
export function hotkeyConflicts(bindings: Readonly<Record<HotkeyAction, string>>): HotkeyAction[][] {
  const byText = new Map<string, HotkeyAction[]>();
  for (const [action, text] of Object.entries(bindings) as [HotkeyAction, string][]) {
    const hotkey = parseHotkey(text);
    if (!hotkey) continue;
    const canonical = formatHotkey(hotkey);
    byText.set(canonical, [...(byText.get(canonical) ?? []), action]);
  }
  return [...byText.values()].filter((actions) => actions.length > 1);
}
