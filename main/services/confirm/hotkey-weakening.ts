// Which hotkey changes make an accident likelier, and so need the trusted confirmation like the
// other weakened safety settings: unbinding the kill switch (the one key that stops everything),
// and putting an action that sends an order on a key pressed by habit or by accident: a single
// key with no modifier, or Enter or Space (pressed to confirm and to scroll elsewhere), with or
// without one. Rebinding the kill switch to another key, adding a modifier, unbinding an order
// action and every other action's key apply at once.
import { HOTKEY_LABELS, parseHotkey, type Keymap } from '../../../shared/hotkeys/keymap';
import { HOTKEY_ACTIONS, type HotkeyAction } from '../../../shared/ipc/views/settings';
import { quoted, trusted, type TrustedText } from './trusted-text';

/** Actions whose hotkey sends an order (while one-action trading is armed). */
export const ORDER_HOTKEY_ACTIONS: ReadonlySet<HotkeyAction> = new Set(['buyAtBest', 'sellAtBest', 'flatten', 'closeHalf', 'closeHalfByLimit', 'reverse']);
/** Keys pressed to confirm a dialog, submit a form or scroll a page. */
const HABIT_KEYS: ReadonlySet<string> = new Set(['Enter', 'Space']);

/** Why a binding is easy to press by accident, or null when it is not. */
export function accidentalKey(text: string): string | null {
  const hotkey = parseHotkey(text);
  if (!hotkey) return null;
  if (HABIT_KEYS.has(hotkey.key)) return 'Enter and Space are pressed to confirm and to scroll elsewhere';
  if (!hotkey.ctrl && !hotkey.alt && !hotkey.shift && !hotkey.meta) return 'a single key with no modifier';
  return null;
}

/** One line per weakened binding, in the order the keymap lists its actions. */
export function hotkeyWeakenings(current: Keymap, next: Keymap): TrustedText[] {
  const lines: TrustedText[] = [];
  const before = (action: HotkeyAction) => current[action] || 'no key';
  for (const action of HOTKEY_ACTIONS) {
    if (next[action] === current[action]) continue;
    const label = quoted(HOTKEY_LABELS[action]);
    if (action === 'killSwitch' && next[action] === '') {
      lines.push(trusted`Hotkey of ${label}: ${before(action)} → no key (the kill switch is then only a button in the top bar)`);
      continue;
    }
    const reason = ORDER_HOTKEY_ACTIONS.has(action) ? accidentalKey(next[action]) : null;
    if (reason !== null) lines.push(trusted`Hotkey of ${label}: ${before(action)} → ${next[action]} (${reason}; once armed, one press sends an order)`);
  }
  return lines;
}
