// The bridge object the renderer calls. It is built from a transport (Electron's ipcRenderer in
// the preload, a token WebSocket in the browser host, an in-memory pair in tests) and has one
// named method per operation, written out per area in ./bridges: no generic invoke, so a script in
// the page can reach only what the contract lists.
import type { TerminalApi } from './contract';
import { alertBridge } from './bridges/alerts';
import { coreBridge } from './bridges/core';
import { custodyBridge } from './bridges/custody';
import { deskBridge } from './bridges/desk';
import { marginBridge } from './bridges/margin';
import { positionBridge } from './bridges/positions';
import { triggerBridge } from './bridges/triggers';
import { protectBridge } from './bridges/protect';
import { algoBridge } from './bridges/algos';
import { guardBridge } from './bridges/guards';
import { overviewBridge } from './bridges/overview';
import { marginInsightBridge } from './bridges/margin-insights';
import { recordsBridge } from './bridges/records';
import type { BridgeTransport } from './bridges/transport';

export type { BridgeTransport } from './bridges/transport';

export function createBridge(transport: BridgeTransport) {
  return Object.freeze({
    ...coreBridge(transport),
    ...marginBridge(transport),
    ...triggerBridge(transport),
    ...protectBridge(transport),
    ...algoBridge(transport),
    ...deskBridge(transport),
    ...custodyBridge(transport),
    ...positionBridge(transport),
    ...alertBridge(transport),
    ...guardBridge(transport),
    ...overviewBridge(transport),
    ...marginInsightBridge(transport),
    ...recordsBridge(transport),
  } satisfies TerminalApi);
}
