// The keymap: which key combination runs which action, parsed and checked the same way in main (at
// the settings boundary) and in every window. A hotkey is written "Modifier+...+Key": modifiers
// Ctrl, Alt, Shift, Meta in that order, then one key: a letter or digit (matched by its physical
// key, so it works on any keyboard layout), Space, a KeyboardEvent.key name such as F2, Escape,
// Delete, ArrowUp, or a printed character ("?", written "Plus" for "+"). An empty binding means
// the action has no key.
import { HOTKEY_ACTIONS, type HotkeyAction } from '../ipc/views/settings';
import { isVisibleText, quotedText } from '../text/visible-text';

export type Keymap = Readonly<Record<HotkeyAction, string>>;

export interface Hotkey {
  readonly ctrl: boolean;
  readonly alt: boolean;
  readonly shift: boolean;
  readonly meta: boolean;
  /** Normalised key name: "B", "7", "Space", "F2", "Escape", "?". */
  readonly key: string;
}

export const DEFAULT_HOTKEYS: Keymap = {
  buyAtBest: 'Shift+B',
  sellAtBest: 'Shift+S',
  cancelLast: 'Shift+Z',
  cancelAll: 'Shift+X',
  recenter: 'Space',
  togglePostOnly: 'Shift+P',
  toggleArm: 'Shift+A',
  killSwitch: 'Shift+K',
  flatten: 'Shift+F',
  closeHalf: 'Shift+H',
  closeHalfByLimit: 'Shift+L',
  reverse: 'Shift+R',
  sizePreset1: '1',
  sizePreset2: '2',
  sizePreset3: '3',
  sizePreset4: '4',
  sizePreset5: '5',
  showHotkeys: 'Shift+?',
};

export const HOTKEY_LABELS: Record<HotkeyAction, string> = {
  buyAtBest: "Buy at best offer, the ladder's Size",
  sellAtBest: "Sell at best bid, the ladder's Size",
  cancelLast: 'Cancel last order',
  cancelAll: 'Cancel all orders and trigger legs in this market',
  recenter: 'Recenter the ladder',
  togglePostOnly: 'Toggle post-only',
  toggleArm: 'Arm / disarm one-action trading',
  killSwitch: 'Kill switch: cancel every order and trigger leg, disarm every window',
  flatten: 'Flatten the position in this market and book',
  closeHalf: 'Close 50 % of the position in this market and book',
  closeHalfByLimit: 'Close 50 % of the position by limit at the best price (post-only at the touch of the closing side)',
  reverse: 'Reverse the position in this market and book (close and open the opposite)',
  sizePreset1: "Size preset 1 into the ladder's Size",
  sizePreset2: "Size preset 2 into the ladder's Size",
  sizePreset3: "Size preset 3 into the ladder's Size",
  sizePreset4: "Size preset 4 into the ladder's Size",
  sizePreset5: "Size preset 5 into the ladder's Size",
  showHotkeys: 'Show the hotkeys',
};

/** The preset number (1-5) of a size-preset action, else null. */
export function sizePresetIndex(action: HotkeyAction): number | null {
  const match = /^sizePreset([1-5])$/.exec(action);
  return match ? Number(match[1]) : null;
}

const MODIFIER_NAMES = new Set(['Control', 'Ctrl', 'Alt', 'Shift', 'Meta', 'AltGraph', 'CapsLock', 'OS', 'Cmd']);

export function normaliseKeyName(name: string): string {
  if (name === ' ' || name.toLowerCase() === 'space' || name.toLowerCase() === 'spacebar') return 'Space';
  if (name.length === 1) return name.toUpperCase();
  const lower = name.toLowerCase();
  if (lower === 'esc') return 'Escape';
  if (lower === 'del') return 'Delete';
  if (/^f[0-9]{1,2}$/.test(lower)) return lower.toUpperCase();
  return name[0]!.toUpperCase() + name.slice(1);
}

export function isModifierName(name: string): boolean {
  return MODIFIER_NAMES.has(name);
}

export type HotkeyParse = { readonly ok: true; readonly hotkey: Hotkey } | { readonly ok: false; readonly reason: string };

/** A part of a hotkey as a reason shows it: quoted, hidden characters as escapes. */
function named(part: string): string {
  return quotedText(part, 40);
}

/** Parse "Shift+B"; the reason names what is wrong when it is not a hotkey (the text's hidden characters as escapes). */
export function parseHotkeyText(text: string): HotkeyParse {
  if (text.length > 40) return { ok: false, reason: 'longer than 40 characters' };
  // A key no one can see (a bidi control, a zero-width joiner, a control character, a space other
  // than Space) would show as nothing, or reorder the text around it, wherever the keymap is listed.
  if (!isVisibleText(text)) return { ok: false, reason: `${named(text)} holds an invisible, control or bidi character, which is no key` };
  const parts = text.split('+').map((part) => part.trim());
  // "Shift++" would be the plus key: written "Shift+Plus" instead, so an empty part is an error.
  if (parts.some((part) => part === '')) return { ok: false, reason: 'an empty part (write the plus key as "Plus")' };
  const key = parts.pop()!;
  const modifiers = new Set<string>();
  for (const part of parts) {
    const modifier = part.toLowerCase();
    if (!['ctrl', 'control', 'alt', 'shift', 'meta', 'cmd'].includes(modifier)) return { ok: false, reason: `${named(part)} is not a modifier (Ctrl, Alt, Shift, Meta)` };
    const canonical = modifier === 'control' ? 'ctrl' : modifier === 'cmd' ? 'meta' : modifier;
    if (modifiers.has(canonical)) return { ok: false, reason: `${named(part)} is given twice` };
    modifiers.add(canonical);
  }
  const name = normaliseKeyName(key === 'Plus' ? '+' : key);
  if (isModifierName(name)) return { ok: false, reason: `it ends in the modifier ${named(key)}: a hotkey needs a key` };
  if (name.length > 1 && !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) return { ok: false, reason: `${named(key)} is not a key name` };
  return { ok: true, hotkey: { ctrl: modifiers.has('ctrl'), alt: modifiers.has('alt'), shift: modifiers.has('shift'), meta: modifiers.has('meta'), key: name } };
}

/** Parse "Shift+B" into a Hotkey; null when the text is not a hotkey (or is empty: unbound). */
export function parseHotkey(text: string): Hotkey | null {
  if (text === '') return null;
  const parsed = parseHotkeyText(text);
  return parsed.ok ? parsed.hotkey : null;
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

/** The canonical text of a binding ("shift+b" → "Shift+B"; "" stays ""), or null when it does not parse. */
export function canonicalHotkey(text: string): string | null {
  if (text === '') return '';
  const hotkey = parseHotkey(text);
  return hotkey ? formatHotkey(hotkey) : null;
}

/** Actions whose hotkeys collide (same key combination). */
export function hotkeyConflicts(bindings: Keymap): HotkeyAction[][] {
  const byText = new Map<string, HotkeyAction[]>();
  for (const action of HOTKEY_ACTIONS) {
    const hotkey = parseHotkey(bindings[action] ?? '');
    if (!hotkey) continue;
    const canonical = formatHotkey(hotkey);
    byText.set(canonical, [...(byText.get(canonical) ?? []), action]);
  }
  return [...byText.values()].filter((actions) => actions.length > 1);
}

export type KeymapChange = { readonly ok: true; readonly keymap: Keymap } | { readonly ok: false; readonly action: HotkeyAction; readonly value: string; readonly message: string };

/**
 * Apply a change (some actions rebound; "" unbinds) to a keymap: every new binding must parse and
 * the result must have no two actions on one key. Several actions may be rebound at once (a swap).
 * On refusal nothing is applied, and the message names the key and both actions.
 */
export function applyKeymapChange(current: Keymap, change: Partial<Record<HotkeyAction, string>>): KeymapChange {
  const next: Record<HotkeyAction, string> = { ...current };
  for (const action of HOTKEY_ACTIONS) {
    const value = change[action];
    if (value === undefined) continue;
    // Only plain spaces are trimmed: an invisible character must reach the parser and be refused, not vanish into an unbinding.
    const text = value.replace(/^ +| +$/g, '');
    const canonical = canonicalHotkey(text);
    if (canonical === null) {
      const parsed = parseHotkeyText(text);
      return { ok: false, action, value, message: `Hotkey for "${HOTKEY_LABELS[action]}" not saved: ${named(value)} is not a key combination (${parsed.ok ? 'unreadable' : parsed.reason}).` };
    }
    next[action] = canonical;
  }
  for (const actions of hotkeyConflicts(next)) {
    // Name the action being changed first, and what already holds the key.
    const changed = actions.find((action) => change[action] !== undefined) ?? actions[0]!;
    const holder = actions.find((action) => action !== changed)!;
    return {
      ok: false,
      action: changed,
      value: next[changed],
      message: `Hotkey ${next[changed]} not saved for "${HOTKEY_LABELS[changed]}": it is already the key of "${HOTKEY_LABELS[holder]}". Choose another key, or rebind or clear that one first.`,
    };
  }
  return { ok: true, keymap: next };
}

/**
 * A stored keymap read back: every action gets its saved key, an action the file does not know
 * (added since) gets its default unless that key is already taken, then it stays unbound; a
 * binding that no longer parses is unbound.
 */
export function completeKeymap(saved: Partial<Record<string, string>>): Keymap {
  const next = {} as Record<HotkeyAction, string>;
  const taken = new Set<string>();
  for (const action of HOTKEY_ACTIONS) {
    const value = saved[action];
    if (value === undefined) continue;
    const canonical = canonicalHotkey(value) ?? '';
    next[action] = canonical !== '' && taken.has(canonical) ? '' : canonical;
    if (next[action] !== '') taken.add(next[action]);
  }
  for (const action of HOTKEY_ACTIONS) {
    if (next[action] !== undefined) continue;
    const fallback = DEFAULT_HOTKEYS[action];
    next[action] = taken.has(fallback) ? '' : fallback;
    if (next[action] !== '') taken.add(fallback);
  }
  return next;
}
