// The margin area's bridge methods: one named method per operation, nothing generic.
import type { marginRequests, marginStreams } from '../areas/margin';
import type { AreaApi } from '../contract';
import type { BridgeTransport } from './transport';

export function marginBridge(_transport: BridgeTransport) {
  return {} satisfies AreaApi<typeof marginRequests, typeof marginStreams>;
}
