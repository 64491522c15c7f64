// The alerts area's bridge methods: one named method per operation, nothing generic.
import type { alertRequests, alertStreams } from '../areas/alerts';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function alertBridge(transport: BridgeTransport) {
  return {
    createAlert: (input) => call(transport, 'createAlert', input),
    updateAlert: (input) => call(transport, 'updateAlert', input),
    deleteAlert: (input) => call(transport, 'deleteAlert', input),
    listAlerts: (input) => call(transport, 'listAlerts', input),
    onAlerts: (listener) => on(transport, 'alerts', listener),
    onAlertFired: (listener) => on(transport, 'alertFired', listener),
  } satisfies AreaApi<typeof alertRequests, typeof alertStreams>;
}
