// The chart's moving averages (kind and length) are a setting main keeps: saved without a
// confirmation (they move no funds and weaken nothing), pushed to every window, read back after a
// restart; a settings file written before they existed reads back with the defaults, and a kind or
// a length out of bounds is refused at the bridge.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../../../main/ipc/dispatcher';
import type { Handlers } from '../../../../../main/ipc/dispatcher';
import type { HandlerContext } from '../../../../../main/services/handler-context';
import { settingsHandlers } from '../../../../../main/services/storage/handlers';
import { PreferencesStore } from '../../../../../main/services/storage/preferences';
import { DEFAULT_CHART_STUDIES } from '../../../../../shared/chart/chart-studies';
import { requestNames } from '../../../../../shared/ipc/contract';
import { ok } from '../../../../../shared/result';

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

const CHOSEN = { averages: [{ kind: 'SMA', length: 9 }, { kind: 'EMA', length: 200 }] } as const;

describe('the chart studies setting', () => {
  it('saves both averages without a confirmation, pushes them to the windows, and keeps them across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-chart-studies-'));
    const first = service(dataDir);
    expect(first.preferences.preferences.get().settings.chartStudies).toEqual(DEFAULT_CHART_STUDIES);
    const saved = await first.update({ chartStudies: { averages: [{ ...CHOSEN.averages[0] }, { ...CHOSEN.averages[1] }] } });
    expect(saved).toMatchObject({ ok: true, value: { chartStudies: CHOSEN } });
    expect(first.asked).toEqual([]);
    expect(first.pushed).toEqual([['settings', expect.objectContaining({ chartStudies: CHOSEN })]]);
    expect(service(dataDir).preferences.preferences.get().settings.chartStudies).toEqual(CHOSEN);
  });

  it('reads a settings file written before the studies existed with the default averages', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lt-chart-studies-'));
    const settings = { confirmOrders: true, maxOrderQuantity: {}, hotkeys: {}, sound: true, desktopNotifications: true, parallelLanes: 0, sessionDays: 7, quantityPresets: {} };
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, networkId: 'sandbox', networks: {}, settings }));
    expect(service(dataDir).preferences.preferences.get().settings.chartStudies).toEqual(DEFAULT_CHART_STUDIES);
  });

  it('refuses an unknown kind, a length out of bounds or not whole, and a third average at the bridge', async () => {
    const received: unknown[] = [];
    const handlers = Object.fromEntries(requestNames.map((name) => [name, (input: unknown) => (received.push(input), ok(null))])) as unknown as Handlers;
    const dispatch = createDispatcher(handlers, { allowedOrigins: ['app://terminal'] });
    const caller = { windowId: 'w1', frameUrl: 'app://terminal/index.html' };
    const ema = { kind: 'EMA', length: 20 };
    for (const averages of [
      [{ kind: 'WMA', length: 20 }, ema],
      [{ kind: 'SMA', length: 1 }, ema],
      [{ kind: 'SMA', length: 501 }, ema],
      [{ kind: 'SMA', length: 2.5 }, ema],
      [ema],
      [ema, ema, ema],
    ]) {
      expect(await dispatch('updateSettings', { chartStudies: { averages } }, caller), JSON.stringify(averages)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    }
    expect(received).toEqual([]);
    expect(await dispatch('updateSettings', { chartStudies: { averages: [ema, ema] } }, caller)).toMatchObject({ ok: true });
  });
});
