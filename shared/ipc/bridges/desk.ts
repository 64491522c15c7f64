// The desk area's bridge methods: one named method per operation, nothing generic.
import type { deskRequests, deskStreams } from '../areas/desk';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function deskBridge(transport: BridgeTransport) {
  return {
    getDesk: (input) => call(transport, 'getDesk', input),
    openPanelWindow: (input) => call(transport, 'openPanelWindow', input),
    dockPanelWindow: (input) => call(transport, 'dockPanelWindow', input),
    setWindowMarket: (input) => call(transport, 'setWindowMarket', input),
    setWindowLinkGroup: (input) => call(transport, 'setWindowLinkGroup', input),
    setWindowBounds: (input) => call(transport, 'setWindowBounds', input),
    moveWindowToDisplay: (input) => call(transport, 'moveWindowToDisplay', input),
    saveLayout: (input) => call(transport, 'saveLayout', input),
    applyLayout: (input) => call(transport, 'applyLayout', input),
    deleteLayout: (input) => call(transport, 'deleteLayout', input),
    setSimulatedDisplays: (input) => call(transport, 'setSimulatedDisplays', input),
    getDeskDiagnostics: (input) => call(transport, 'getDeskDiagnostics', input),
    onDesk: (listener) => on(transport, 'desk', listener),
    onLinkedMarket: (listener) => on(transport, 'linkedMarket', listener),
  } satisfies AreaApi<typeof deskRequests, typeof deskStreams>;
}
