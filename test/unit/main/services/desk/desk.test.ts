// The desk service over the browser host's platform (simulated displays, tabs by URL) with a manual
// clock and recording window sinks: panel windows open and dock, link groups route, a display change
// moves windows on-screen, layouts save, switch and come back at the next start.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../shared/clock';
import type { StreamName } from '../../../../../shared/ipc/contract';
import type { DeskState, DisplayView, LinkedMarket } from '../../../../../shared/ipc/views/desk';
import { Desk } from '../../../../../main/services/desk/desk';
import { WindowHub } from '../../../../../main/services/window-hub';
import { BrowserDeskPlatform, parseDisplaysFlag, RELOAD_GRACE_MS } from '../../../../../main/host/desk-browser';

const m1 = `0x${'a1'.repeat(32)}`;
const m2 = `0x${'a2'.repeat(32)}`;

function displays(flag: string): DisplayView[] {
  const parsed = parseDisplaysFlag(flag);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

function setup(dataDir = mkdtempSync(join(tmpdir(), 'lt-desk-')), flag = '0,0,1280,800;1280,0,2560,1440') {
  const clock = new ManualClock(1_000_000);
  const hub = new WindowHub();
  const pushes = new Map<string, { stream: StreamName; payload: unknown }[]>();
  let next = 0;
  const desk = new Desk({ clock, dataDir, windows: hub, log: () => undefined, newKey: () => (++next).toString(16).padStart(32, '0') });
  const platform = new BrowserDeskPlatform({ pageUrl: (key) => `http://127.0.0.1:9/?token=t&window=${key}`, displays: displays(flag), clock, onGone: (key) => desk.pageGoneFor(key) });
  desk.attachPlatform(platform);
  const connect = (pageId: string, windowKey: string | null) => {
    pushes.set(pageId, []);
    hub.attach(pageId, { send: (stream, payload) => pushes.get(pageId)!.push({ stream, payload }) });
    desk.bindPage(pageId, windowKey);
  };
  const linked = (pageId: string) => pushes.get(pageId)!.filter((push) => push.stream === 'linkedMarket').map((push) => push.payload as LinkedMarket);
  const lastState = (pageId: string) => pushes.get(pageId)!.filter((push) => push.stream === 'desk').at(-1)?.payload as DeskState;
  return { clock, hub, desk, platform, connect, linked, lastState, dataDir };
}

function must<T>(result: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

describe('Desk', () => {
  it('prepares a panel window with the opener market and group, answers its URL, and sees its tab connect', () => {
    const { desk, connect, lastState } = setup();
    connect('tab-1', null);
    must(desk.setWindowMarket('tab-1', { marketId: m1, turbo: false }));
    const opened = must(desk.openPanelWindow('tab-1', { panel: 'ladder', size: { width: 420, height: 760 } }));
    expect(opened.url).toBe(`http://127.0.0.1:9/?token=t&window=${opened.windowKey}`);
    expect(lastState('tab-1').windows.find((window) => window.windowKey === opened.windowKey)).toMatchObject({ panel: 'ladder', marketId: m1, linkGroup: 'green', state: 'opening', displayId: '1' });
    connect('tab-2', opened.windowKey);
    expect(desk.view('tab-2').self).toEqual({ windowKey: opened.windowKey, panel: 'ladder' });
    expect(lastState('tab-1').windows.find((window) => window.windowKey === opened.windowKey)?.state).toBe('open');
  });

  it('docks a panel window: it leaves the desk state, which is what tells its tab to close', () => {
    const { desk, connect, lastState } = setup();
    connect('tab-1', null);
    const opened = must(desk.openPanelWindow('tab-1', { panel: 'tape' }));
    connect('tab-2', opened.windowKey);
    must(desk.dockPanelWindow(opened.windowKey));
    expect(lastState('tab-2').windows.map((window) => window.windowKey)).toEqual(['main']);
    expect(desk.dockPanelWindow('main').ok).toBe(false);
  });

  it('routes a market choice to the windows of the group and not to unlinked ones', () => {
    const { desk, connect, linked } = setup();
    connect('tab-1', null);
    must(desk.setWindowMarket('tab-1', { marketId: m1, turbo: false }));
    const ladder = must(desk.openPanelWindow('tab-1', { panel: 'ladder' }));
    const tape = must(desk.openPanelWindow('tab-1', { panel: 'tape', linkGroup: null }));
    connect('tab-2', ladder.windowKey);
    connect('tab-3', tape.windowKey);
    expect(must(desk.setWindowMarket('tab-2', { marketId: m2, turbo: false }))).toEqual({ followers: 1 });
    expect(linked('tab-1')).toEqual([{ linkGroup: 'green', marketId: m2, turbo: false, fromWindowKey: ladder.windowKey }]);
    expect(linked('tab-2')).toEqual([]);
    expect(linked('tab-3')).toEqual([]);
    // Joining the group brings the group's market to the tape.
    must(desk.setWindowLinkGroup('tab-3', undefined, 'green'));
    expect(linked('tab-3').at(-1)).toMatchObject({ marketId: m2, linkGroup: 'green' });
  });

  it('keeps a closed tab for a reload, then lets its window go', () => {
    const { desk, hub, clock, connect, lastState } = setup();
    connect('tab-1', null);
    const opened = must(desk.openPanelWindow('tab-1', { panel: 'chart' }));
    connect('tab-2', opened.windowKey);
    hub.detach('tab-2');
    clock.advance(RELOAD_GRACE_MS - 1);
    connect('tab-3', opened.windowKey);
    clock.advance(10);
    expect(desk.view('tab-3').self.windowKey).toBe(opened.windowKey);
    hub.detach('tab-3');
    clock.advance(RELOAD_GRACE_MS);
    expect(lastState('tab-1').windows.map((window) => window.panel)).toEqual([null]);
  });

  it('moves a window of a removed display onto the remaining one, clamped to its work area', () => {
    const { desk, platform, connect, lastState } = setup();
    connect('tab-1', null);
    const opened = must(desk.openPanelWindow('tab-1', { panel: 'ladder' }));
    must(desk.setWindowBounds(opened.windowKey, { x: 1400, y: 100, width: 1600, height: 1000 }));
    expect(lastState('tab-1').windows.find((window) => window.windowKey === opened.windowKey)?.displayId).toBe('2');
    platform.setSimulatedDisplays(displays('0,0,1280,800'));
    expect(lastState('tab-1').windows.find((window) => window.windowKey === opened.windowKey)).toMatchObject({ bounds: { x: 0, y: 0, width: 1280, height: 800 }, displayId: '1' });
  });

  it('saves a layout, restores it fitted to the displays of the day, and reopens it at the next start', () => {
    const first = setup();
    first.connect('tab-1', null);
    must(first.desk.setWindowMarket('tab-1', { marketId: m1, turbo: false }));
    const ladder = must(first.desk.openPanelWindow('tab-1', { panel: 'ladder' }));
    must(first.desk.moveWindowToDisplay(ladder.windowKey, '2'));
    must(first.desk.setWindowBounds(ladder.windowKey, { x: 1400, y: 100, width: 1600, height: 1000 }));
    expect(must(first.desk.saveLayout('Two screens')).map((summary) => summary.name)).toEqual(['Two screens']);
    // Another arrangement, then the saved one again, now with the right display gone.
    must(first.desk.dockPanelWindow(ladder.windowKey));
    must(first.desk.openPanelWindow('tab-1', { panel: 'tape' }));
    first.platform.setSimulatedDisplays(displays('0,0,1280,800'));
    must(first.desk.applyLayout('two SCREENS'));
    const windows = first.lastState('tab-1').windows;
    expect(windows.map((window) => window.panel)).toEqual([null, 'ladder']);
    expect(windows[1]).toMatchObject({ bounds: { x: 0, y: 0, width: 1280, height: 800 }, displayId: '1', state: 'opening', marketId: m1 });

    // The next start (same data directory) comes back as it was left, on two displays again.
    const second = setup(first.dataDir);
    second.desk.restore();
    second.connect('tab-9', null);
    const state = second.desk.state();
    expect(state.activeLayout).toBe('Two screens');
    expect(state.windows.map((window) => window.panel)).toEqual([null, 'ladder']);
    expect(state.windows[0]?.marketId).toBe(m1);
  });

  it('switching layouts reuses a window of the same panel and closes the ones the layout lacks', () => {
    const { desk, connect, lastState } = setup();
    connect('tab-1', null);
    const ladder = must(desk.openPanelWindow('tab-1', { panel: 'ladder' }));
    must(desk.saveLayout('Ladder only'));
    must(desk.openPanelWindow('tab-1', { panel: 'chart' }));
    must(desk.applyLayout('Ladder only'));
    expect(lastState('tab-1').windows.map((window) => window.windowKey)).toEqual(['main', ladder.windowKey]);
    expect(desk.applyLayout('Nope').ok).toBe(false);
    expect(must(desk.deleteLayout('ladder only'))).toEqual([]);
  });

  it('refuses what it cannot do: unknown windows and displays, real displays, no platform', () => {
    const { desk, connect } = setup();
    connect('tab-1', null);
    expect(desk.setWindowBounds('f'.repeat(32), { x: 0, y: 0, width: 10, height: 10 }).ok).toBe(false);
    expect(desk.moveWindowToDisplay('main', '9').ok).toBe(false);
    expect(desk.setWindowMarket('tab-unknown', { marketId: m1, turbo: false }).ok).toBe(false);
    const bare = new Desk({ clock: new ManualClock(), dataDir: mkdtempSync(join(tmpdir(), 'lt-desk-')), windows: new WindowHub(), log: () => undefined, newKey: () => '0'.repeat(32) });
    const refused = bare.openPanelWindow('tab-1', { panel: 'ladder' });
    expect(refused.ok ? null : refused.code).toBe('NO_WINDOW_PLATFORM');
    const notSimulated = bare.setSimulatedDisplays(displays('0,0,100,100'));
    expect(notSimulated.ok ? null : notSimulated.code).toBe('NOT_SIMULATED');
  });

  it('keeps the arrangement when the app quits and closes every window', () => {
    const first = setup();
    first.connect('tab-1', null);
    const opened = must(first.desk.openPanelWindow('tab-1', { panel: 'ladder' }));
    first.connect('tab-2', opened.windowKey);
    first.desk.freeze();
    first.hub.detach('tab-2');
    first.desk.windowClosed(opened.windowKey);
    first.clock.advance(RELOAD_GRACE_MS * 2);
    const second = setup(first.dataDir);
    second.desk.restore();
    expect(second.desk.state().windows.map((window) => window.panel)).toEqual([null, 'ladder']);
  });
});

describe('--displays', () => {
  it('reads displays in order, the first primary', () => {
    expect(displays('0,0,1920,1080; 1920,0,1280,1024')).toEqual([
      { id: '1', label: 'Display 1', bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 0, width: 1920, height: 1080 }, primary: true },
      { id: '2', label: 'Display 2', bounds: { x: 1920, y: 0, width: 1280, height: 1024 }, workArea: { x: 1920, y: 0, width: 1280, height: 1024 }, primary: false },
    ]);
    expect(displays('-1280,0,1280,1024')[0]?.bounds.x).toBe(-1280);
  });

  it('names the display and the value it cannot read', () => {
    for (const bad of ['', '0,0,1920', '0,0,0,1080', '0,0,1.5,10', 'a,b,c,d', '0,0,100,100;0,0,100']) {
      const parsed = parseDisplaysFlag(bad);
      expect(parsed.ok).toBe(false);
    }
    const parsed = parseDisplaysFlag('0,0,100,100;0,0,-5,100');
    expect(parsed.ok ? '' : parsed.message).toMatch(/display 2 .*"0,0,-5,100"/);
  });
});
