// The P&L display chosen per market (mark source and unit) is a setting main keeps: saved without a
// confirmation (it moves no funds and weakens nothing), pushed to every window, read back after a
// restart, and a settings file written before it existed reads back with the default everywhere.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../../../main/ipc/dispatcher';
import type { Handlers } from '../../../../../main/ipc/dispatcher';
import type { HandlerContext } from '../../../../../main/services/handler-context';
import { settingsHandlers } from '../../../../../main/services/storage/handlers';
import { PreferencesStore } from '../../../../../main/services/storage/preferences';
import { requestNames } from '../../../../../shared/ipc/contract';
import { ok } from '../../../../../shared/result';

const MARKET = `0x${'ab'.repeat(32)}`;

function service(dataDir: string) {
  const asked: unknown[] = [];
  const pushed: unknown[] = [];
  const preferences = new PreferencesStore(dataDir, () => undefined);
  const context = {
    preferences,
    confirmer: { surface: 'dialog', confirm: (request: unknown) => (asked.push(request), Promise.resolve(ok(undefined))) },
    windows: { broadcast: (channel: string, payload: unknown) => pushed.push([channel, payload]) },
    runtime: () => null,
  } as unknown as HandlerContext;
  const handlers = settingsHandlers(context);
  return { asked, pushed, preferences, update: (input: Parameters<typeof handlers.updateSettings>[0]) => handlers.updateSettings(input, { windowId: 'w1', frameUrl: 'app://terminal/index.html' }) };
}

describe('the P&L display setting', () => {
  it('saves a market choice without a confirmation, pushes it to the windows, and keeps it across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-pnl-display-'));
    const first = service(dataDir);
    expect(first.preferences.preferences.get().settings.pnlDisplay).toEqual({});
    const saved = await first.update({ pnlDisplay: { [MARKET]: { mark: 'mid', unit: 'ticks' } } });
    expect(saved).toMatchObject({ ok: true, value: { pnlDisplay: { [MARKET]: { mark: 'mid', unit: 'ticks' } } } });
    expect(first.asked).toEqual([]);
    expect(first.pushed).toEqual([['settings', expect.objectContaining({ pnlDisplay: { [MARKET]: { mark: 'mid', unit: 'ticks' } } })]]);
    expect(service(dataDir).preferences.preferences.get().settings.pnlDisplay).toEqual({ [MARKET]: { mark: 'mid', unit: 'ticks' } });
  });

  it('reads a settings file written before the choice existed with every market on the default', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-pnl-display-'));
    const settings = { confirmOrders: true, maxOrderQuantity: {}, hotkeys: {}, sound: true, desktopNotifications: true, parallelLanes: 0, sessionDays: 7, quantityPresets: {} };
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, networkId: 'sandbox', networks: {}, settings }));
    expect(service(dataDir).preferences.preferences.get().settings.sessionDays).toBe(7);
    expect(service(dataDir).preferences.preferences.get().settings.pnlDisplay).toEqual({});
  });

  it('refuses a mark source or a unit it does not know at the bridge', async () => {
    const received: unknown[] = [];
    const handlers = Object.fromEntries(requestNames.map((name) => [name, (input: unknown) => (received.push(input), ok(null))])) as unknown as Handlers;
    const dispatch = createDispatcher(handlers, { allowedOrigins: ['app://terminal'] });
    const caller = { windowId: 'w1', frameUrl: 'app://terminal/index.html' };
    expect(await dispatch('updateSettings', { pnlDisplay: { [MARKET]: { mark: 'oracle', unit: 'ticks' } } }, caller)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(await dispatch('updateSettings', { pnlDisplay: { [MARKET]: { mark: 'mid', unit: 'pips' } } }, caller)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(received).toEqual([]);
  });
});
