// The positions area's bridge methods: one named method per operation, nothing generic.
import type { positionRequests, positionStreams } from '../areas/positions';
import type { AreaApi } from '../contract';
import { call, type BridgeTransport } from './transport';

export function positionBridge(transport: BridgeTransport) {
  return {
    getPositions: (input) => call(transport, 'getPositions', input),
    flattenPositions: (input) => call(transport, 'flattenPositions', input),
    reversePosition: (input) => call(transport, 'reversePosition', input),
  } satisfies AreaApi<typeof positionRequests, typeof positionStreams>;
}
