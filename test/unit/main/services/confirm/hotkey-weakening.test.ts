// Hotkeys are parsed by main, and a change that makes an accident likelier is a weakened safety
// setting: unbinding the kill switch, or putting an order-sending action (buy, sell, flatten) on a
// single key without a modifier or on Enter or Space, needs the trusted confirmation; tightening
// (a modifier added, the kill switch rebound to another key) and harmless keys apply at once.
// Invisible, bidi and control characters are refused as keys, naming the field and the value.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher, type Handlers } from '../../../../../main/ipc/dispatcher';
import { settingsWeakenings } from '../../../../../main/services/confirm/settings-weakening';
import type { ConfirmationRequest, TrustedConfirmer } from '../../../../../main/services/confirm/trusted-confirmer';
import { trusted } from '../../../../../main/services/confirm/trusted-text';
import type { HandlerContext } from '../../../../../main/services/handler-context';
import { DEFAULT_SETTINGS, PreferencesStore } from '../../../../../main/services/storage/preferences';
import { settingsHandlers } from '../../../../../main/services/storage/handlers';
import { applyKeymapChange, DEFAULT_HOTKEYS, parseHotkeyText, type Keymap } from '../../../../../shared/hotkeys/keymap';
import { requestNames } from '../../../../../shared/ipc/contract';
import type { HotkeyAction } from '../../../../../shared/ipc/views/settings';
import { fail, ok, type Result } from '../../../../../shared/result';

const words = { market: (id: string) => trusted`${id}`, quantity: (_id: string, quantity: bigint) => trusted`${quantity}` };

function weakenings(change: Partial<Record<HotkeyAction, string>>, current: Keymap = DEFAULT_HOTKEYS): string[] {
  const next = applyKeymapChange(current, change);
  if (!next.ok) throw new Error(next.message);
  return settingsWeakenings({ ...DEFAULT_SETTINGS, hotkeys: current }, { hotkeys: next.keymap }, words).map((line) => line.text);
}

describe('hotkey changes that weaken safety', () => {
  it('unbinding the kill switch', () => {
    expect(weakenings({ killSwitch: '' })).toEqual([expect.stringMatching(/^Hotkey of "Kill switch.*": Shift\+K → no key/)]);
  });
  it('buy, sell or flatten on a single key without a modifier', () => {
    expect(weakenings({ buyAtBest: 'B' })).toEqual([expect.stringMatching(/^Hotkey of "Buy at best offer.*": Shift\+B → B \(a single key with no modifier/)]);
    expect(weakenings({ sellAtBest: 'F2' })).toEqual([expect.stringContaining('Shift+S → F2')]);
    expect(weakenings({ flatten: 'F' })).toEqual([expect.stringContaining('Shift+F → F')]);
  });
  it('buy or sell on Enter or Space, with or without a modifier', () => {
    expect(weakenings({ buyAtBest: 'Enter' })).toEqual([expect.stringContaining('Shift+B → Enter')]);
    expect(weakenings({ recenter: '', sellAtBest: 'Shift+Space' })).toEqual([expect.stringContaining('Shift+S → Shift+Space (Enter and Space')]);
    expect(weakenings({ buyAtBest: 'Ctrl+Enter' })).toHaveLength(1);
  });
  it('tightening and harmless changes need nothing', () => {
    expect(weakenings({ buyAtBest: 'Ctrl+Shift+B' })).toEqual([]);
    expect(weakenings({ killSwitch: 'Ctrl+K' })).toEqual([]);
    expect(weakenings({ killSwitch: 'K' })).toEqual([]);
    expect(weakenings({ buyAtBest: '' })).toEqual([]);
    expect(weakenings({ cancelAll: 'X', toggleArm: 'A', sizePreset1: '9' })).toEqual([]);
    // Already on a bare key (an older settings file): moving it to a modifier is free, keeping it asks nothing.
    const bare = { ...DEFAULT_HOTKEYS, buyAtBest: 'B' };
    expect(weakenings({ buyAtBest: 'Shift+B' }, bare)).toEqual([]);
    expect(weakenings({ buyAtBest: 'B' }, bare)).toEqual([]);
    expect(weakenings({ killSwitch: '' }, { ...DEFAULT_HOTKEYS, killSwitch: '' })).toEqual([]);
  });
});

describe('hotkey keys main refuses', () => {
  it('invisible, bidi and control characters are no keys, and the reason shows them as escapes', () => {
    for (const [text, named] of [
      ['\u202E', '\\u{202E}'],
      ['Shift+\u200D', '\\u{200D}'],
      ['Ctrl+\u200B', '\\u{200B}'],
      ['\u2066', '\\u{2066}'],
      ['\x1b', '\\x1b'],
      ['Alt+\x7f', '\\x7f'],
      ['\u00A0', '\\xa0'],
      ['\uFEFF', '\\u{FEFF}'],
      ['\u0301', '\\u{301}'],
    ] as const) {
      const parsed = parseHotkeyText(text);
      expect(parsed, JSON.stringify(text)).toMatchObject({ ok: false });
      expect(!parsed.ok && parsed.reason, JSON.stringify(text)).toContain(named);
      expect(!parsed.ok && /[\p{Cc}\p{Cf}]/u.test(parsed.reason), JSON.stringify(text)).toBe(false);
    }
    for (const text of ['B', 'Shift+?', 'Ctrl+7', 'Alt+Ä', 'Space', 'F12']) expect(parseHotkeyText(text), text).toMatchObject({ ok: true });
  });

  it('at the bridge: refused naming the field and the value, before the handler runs', async () => {
    const received: unknown[] = [];
    const handlers = Object.fromEntries(requestNames.map((name) => [name, (input: unknown) => (received.push(input), ok(null))])) as unknown as Handlers;
    const dispatch = createDispatcher(handlers, { allowedOrigins: ['app://terminal'] });
    const refused = await dispatch('updateSettings', { hotkeys: { killSwitch: '\u202E' } }, { windowId: 'w1', frameUrl: 'app://terminal/index.html' });
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_INPUT', details: { field: 'updateSettings.hotkeys.killSwitch' } });
    expect(!refused.ok && refused.message).toContain('\\u{202E}');
    expect(!refused.ok && /[\p{Cc}\p{Cf}]/u.test(refused.message)).toBe(false);
    expect(received).toEqual([]);
  });
});

describe('updateSettings with a weakening hotkey change', () => {
  function settingsService(answer: () => Result<void>) {
    const asked: ConfirmationRequest[] = [];
    const confirmer: TrustedConfirmer = {
      surface: 'dialog',
      confirm: (request) => {
        asked.push(request);
        return Promise.resolve(answer());
      },
    };
    const preferences = new PreferencesStore(mkdtempSync(join(tmpdir(), 'lt-hotkeys-')), () => undefined);
    const context = { preferences, confirmer, windows: { broadcast: () => undefined }, runtime: () => null } as unknown as HandlerContext;
    const handlers = settingsHandlers(context);
    const caller = { windowId: 'w1', frameUrl: 'app://terminal/index.html' };
    return { asked, preferences, update: (input: Parameters<typeof handlers.updateSettings>[0]) => handlers.updateSettings(input, caller) };
  }

  it('asks the trusted confirmer, and applies nothing when declined', async () => {
    const service = settingsService(() => fail('CONFIRMATION_DECLINED', 'declined'));
    expect(await service.update({ hotkeys: { killSwitch: '', buyAtBest: 'Enter' }, sound: false })).toMatchObject({ ok: false, code: 'CONFIRMATION_DECLINED' });
    expect(service.asked).toHaveLength(1);
    expect(service.asked[0]!.lines.map((line) => line.text)).toEqual([expect.stringContaining('Shift+B → Enter'), expect.stringContaining('Shift+K → no key')]);
    expect(service.preferences.preferences.get().settings).toMatchObject({ hotkeys: DEFAULT_HOTKEYS, sound: true });
  });

  it('applies a confirmed change; a tightening one asks nothing', async () => {
    const service = settingsService(() => ok(undefined));
    expect(await service.update({ hotkeys: { buyAtBest: 'B' } })).toMatchObject({ ok: true, value: { hotkeys: { buyAtBest: 'B' } } });
    expect(service.asked).toHaveLength(1);
    expect(await service.update({ hotkeys: { buyAtBest: 'Ctrl+B' } })).toMatchObject({ ok: true, value: { hotkeys: { buyAtBest: 'Ctrl+B' } } });
    expect(service.asked).toHaveLength(1);
  });
});
