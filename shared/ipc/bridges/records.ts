// The records area's bridge methods: one named method per operation, nothing generic.
import type { recordsRequests, recordsStreams } from '../areas/records';
import type { AreaApi } from '../contract';
import { call, type BridgeTransport } from './transport';

export function recordsBridge(transport: BridgeTransport) {
  return {
    getRecords: (input) => call(transport, 'getRecords', input),
    exportRecords: (input) => call(transport, 'exportRecords', input),
  } satisfies AreaApi<typeof recordsRequests, typeof recordsStreams>;
}
