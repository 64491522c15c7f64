// Request handlers of the desk area of the contract. The desk service is built here, once per
// terminal, and found again by the Electron entry and the browser host through the terminal's
// window hub (`deskFor(terminal.windows)`), which both hold: they attach the platform that opens
// windows and reads displays, which the terminal's composition does not know about.
import { randomBytes } from 'node:crypto';
import type { deskRequests } from '../../../shared/ipc/areas/desk';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { HandlerContext } from '../handler-context';
import type { WindowHub } from '../window-hub';
import { Desk } from './desk';

const desks = new WeakMap<WindowHub, Desk>();

/** The desk of the terminal whose window hub this is (null before its handlers were built). */
export function deskFor(windows: WindowHub): Desk | null {
  return desks.get(windows) ?? null;
}

export function deskHandlers(context: HandlerContext): AreaHandlers<typeof deskRequests> {
  const desk = new Desk({
    clock: context.clock,
    dataDir: context.dataDir,
    windows: context.windows,
    log: context.log,
    newKey: () => randomBytes(16).toString('hex'),
  });
  desks.set(context.windows, desk);

  return {
    getDesk: (_input, caller) => ok(desk.view(caller.windowId)),
    openPanelWindow: (input, caller) => desk.openPanelWindow(caller.windowId, input),
    dockPanelWindow: ({ windowKey }) => desk.dockPanelWindow(windowKey),
    setWindowMarket: ({ marketId, turbo }, caller) => desk.setWindowMarket(caller.windowId, { marketId, turbo: turbo ?? false }),
    setWindowLinkGroup: ({ windowKey, linkGroup }, caller) => desk.setWindowLinkGroup(caller.windowId, windowKey, linkGroup),
    setWindowBounds: ({ windowKey, bounds }) => desk.setWindowBounds(windowKey, bounds),
    moveWindowToDisplay: ({ windowKey, displayId }) => desk.moveWindowToDisplay(windowKey, displayId),
    saveLayout: ({ name }) => desk.saveLayout(name),
    applyLayout: ({ name }) => desk.applyLayout(name),
    deleteLayout: ({ name }) => desk.deleteLayout(name),
    setSimulatedDisplays: ({ displays }) => desk.setSimulatedDisplays(displays),
    getDeskDiagnostics: () =>
      ok({
        upstream: context.runtime()?.hub.upstreamCount() ?? { depth: 0, trades: 0 },
        connections: context.windows.ids().length,
      }),
  };
}
