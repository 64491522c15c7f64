// The desk area's bridge methods: one named method per operation, nothing generic.
import type { deskRequests, deskStreams } from '../areas/desk';
import type { AreaApi } from '../contract';
import type { BridgeTransport } from './transport';

export function deskBridge(_transport: BridgeTransport) {
  return {} satisfies AreaApi<typeof deskRequests, typeof deskStreams>;
}
