// The triggers area's bridge methods: one named method per operation, nothing generic.
import type { triggerRequests, triggerStreams } from '../areas/triggers';
import type { AreaApi } from '../contract';
import type { BridgeTransport } from './transport';

export function triggerBridge(_transport: BridgeTransport) {
  return {} satisfies AreaApi<typeof triggerRequests, typeof triggerStreams>;
}
