// The desk store against a scripted main: first load adopts the restored market, a linked market
// is shown and not sent back, state published while the window's own choice travels does not drag
// it back, detaching opens only the URL main gave, refusals come back as data.
import { createRoot } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type { DeskState, DeskView, DeskWindowView, LinkedMarket } from '../../../shared/ipc/views/desk';
import { fail, ok, type Result } from '../../../shared/result';
import { createDeskStore, type MarketChoice } from '../../../renderer/src/features/desk/desk-store';
import { panelDefinition, panelKinds, registerPanel } from '../../../renderer/src/features/desk/panel-registry';

const key = 'cd'.repeat(16);
const origin = 'http://127.0.0.1:7';
const main = (patch: Partial<DeskWindowView> = {}): DeskWindowView => ({ windowKey: 'main', panel: null, marketId: 'm1', turbo: false, linkGroup: 'green', bounds: null, displayId: '1', state: 'open', url: null, ...patch });
const deskState = (windows: DeskWindowView[]): DeskState => ({ host: 'browser', windows, displays: [], layouts: [], activeLayout: null });

function fakeMain(view: DeskView) {
  const listeners = { desk: new Set<(state: DeskState) => void>(), linked: new Set<(linked: LinkedMarket) => void>() };
  const calls: { name: string; input: unknown }[] = [];
  let settleMarket: (() => void) | null = null;
  const api = {
    getDesk: () => Promise.resolve(ok(view)),
    onDesk: (listener: (state: DeskState) => void) => (listeners.desk.add(listener), () => listeners.desk.delete(listener)),
    onLinkedMarket: (listener: (linked: LinkedMarket) => void) => (listeners.linked.add(listener), () => listeners.linked.delete(listener)),
    setWindowMarket: (input: unknown) => {
      calls.push({ name: 'setWindowMarket', input });
      return new Promise<Result<{ followers: number }>>((resolve) => (settleMarket = () => resolve(ok({ followers: 0 }))));
    },
    openPanelWindow: (input: unknown) => {
      calls.push({ name: 'openPanelWindow', input });
      const panel = (input as { panel: string }).panel;
      if (panel === 'chart') return Promise.resolve(fail('TOO_MANY_WINDOWS', 'at most 16'));
      return Promise.resolve(ok({ windowKey: key, url: panel === 'tape' ? 'https://elsewhere.example/' : `${origin}/?token=t&window=${key}` }));
    },
  } as unknown as TerminalApi;
  return {
    api,
    calls,
    publish: (state: DeskState) => listeners.desk.forEach((listener) => listener(state)),
    link: (linked: LinkedMarket) => listeners.linked.forEach((listener) => listener(linked)),
    settleMarket: () => settleMarket?.(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('desk store', () => {
  it('takes the market main restored for this window, then follows linked choices without echoing them', async () => {
    const fake = fakeMain({ self: { windowKey: 'main', panel: null }, state: deskState([main({ marketId: 'm7' })]) });
    await createRoot(async (dispose) => {
      const desk = createDeskStore(fake.api, { origin, open: () => null });
      const shown: MarketChoice[] = [];
      desk.onMarket((choice) => shown.push(choice));
      await tick();
      expect(desk.self()).toEqual({ windowKey: 'main', panel: null });
      expect(shown).toEqual([{ marketId: 'm7', turbo: false }]);
      fake.link({ linkGroup: 'green', marketId: 'm2', turbo: false, fromWindowKey: key });
      expect(shown.at(-1)).toEqual({ marketId: 'm2', turbo: false });
      expect(fake.calls).toEqual([]);
      dispose();
    });
  });

  it('does not let a state published while its own choice travels drag the window back', async () => {
    const fake = fakeMain({ self: { windowKey: 'main', panel: null }, state: deskState([main({ marketId: 'm1' })]) });
    await createRoot(async (dispose) => {
      const desk = createDeskStore(fake.api, { origin, open: () => null });
      const shown: MarketChoice[] = [];
      await tick();
      desk.onMarket((choice) => shown.push(choice));
      desk.chooseMarket({ marketId: 'm3', turbo: false });
      expect(fake.calls).toEqual([{ name: 'setWindowMarket', input: { marketId: 'm3' } }]);
      // A layout switch elsewhere republishes with an older record of this window.
      fake.publish(deskState([main({ marketId: 'm9' })]));
      expect(shown).toEqual([]);
      fake.settleMarket();
      await tick();
      fake.publish(deskState([main({ marketId: 'm4' })]));
      expect(shown).toEqual([{ marketId: 'm4', turbo: false }]);
      // Choosing what main already has sends nothing.
      desk.chooseMarket({ marketId: 'm4', turbo: false });
      expect(fake.calls).toHaveLength(1);
      dispose();
    });
  });

  it('detaches: asks main with the panel size, opens the URL main gave and no other, reports refusals', async () => {
    // The built-in panels need a DOM to import; stand-ins of the same kinds and sizes will do.
    for (const kind of ['ladder', 'tape', 'chart']) registerPanel({ kind, title: kind, needsMarket: true, size: { width: 440, height: 780 }, render: () => null as never });
    const fake = fakeMain({ self: { windowKey: 'main', panel: null }, state: deskState([main(), main({ windowKey: key, panel: 'ladder', bounds: { x: 10, y: 20, width: 440, height: 780 } })]) });
    await createRoot(async (dispose) => {
      const opened: string[][] = [];
      const desk = createDeskStore(fake.api, { origin, open: (url, target, features) => (opened.push([url, target, features]), {}) });
      await tick();
      const ladder = await desk.detach('ladder', { marketId: 'm1', turbo: false });
      expect(ladder).toEqual({ ok: true, value: key });
      expect(fake.calls[0]).toEqual({ name: 'openPanelWindow', input: { panel: 'ladder', marketId: 'm1', turbo: false, size: { width: 440, height: 780 } } });
      expect(opened).toEqual([[`${origin}/?token=t&window=${key}`, `lt-${key}`, 'popup,left=10,top=20,width=440,height=780']]);
      // A URL that is not the host's own page is never opened.
      await desk.detach('tape', { marketId: 'm1', turbo: false });
      expect(opened).toHaveLength(1);
      const refused = await desk.detach('chart', null);
      expect(refused.ok ? null : refused.code).toBe('TOO_MANY_WINDOWS');
      const unknown = await desk.detach('nonesuch', null);
      expect(unknown.ok ? null : unknown.code).toBe('UNKNOWN_PANEL');
      dispose();
    });
  });
});

describe('panel registry', () => {
  it('takes new kinds, refusing names main would refuse', () => {
    registerPanel({ kind: 'margin', title: 'Margin', needsMarket: true, size: { width: 600, height: 400 }, render: () => null as never });
    expect(panelDefinition('margin')?.title).toBe('Margin');
    expect(panelKinds()).toContain('margin');
    expect(() => registerPanel({ kind: 'Margin Panel', title: 'x', needsMarket: false, size: { width: 1, height: 1 }, render: () => null as never })).toThrow(/not a panel kind/);
  });
});
