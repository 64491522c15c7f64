// The risk guards area's bridge methods: one named method per operation, nothing generic.
import type { guardRequests, guardStreams } from '../areas/guards';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function guardBridge(transport: BridgeTransport) {
  return {
    getGuardState: (input) => call(transport, 'getGuardState', input),
    onGuardState: (listener) => on(transport, 'guardState', listener),
    onGuardDisarm: (listener) => on(transport, 'guardDisarm', listener),
  } satisfies AreaApi<typeof guardRequests, typeof guardStreams>;
}
