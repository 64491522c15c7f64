// The custody area's bridge methods: one named method per operation, nothing generic.
import type { custodyRequests, custodyStreams } from '../areas/custody';
import type { AreaApi } from '../contract';
import type { BridgeTransport } from './transport';

export function custodyBridge(_transport: BridgeTransport) {
  return {} satisfies AreaApi<typeof custodyRequests, typeof custodyStreams>;
}
