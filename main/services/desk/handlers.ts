// Request handlers of the desk area of the contract. The desk service is built by the terminal
// (`terminal.desk`); the Electron entry and the browser host attach the platform that opens
// windows and reads displays, which the terminal's composition does not know about.
import type { deskRequests } from '../../../shared/ipc/areas/desk';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { HandlerContext } from '../handler-context';
import type { Desk } from './desk';

export function deskHandlers(context: HandlerContext, desk: Desk): AreaHandlers<typeof deskRequests> {
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
        upstream: context.hub.upstreamCount(),
        connections: context.windows.ids().length,
      }),
  };
}
