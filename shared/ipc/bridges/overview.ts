// The markets overview area's bridge methods: one named method per operation, nothing generic.
import type { overviewRequests, overviewStreams } from '../areas/overview';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function overviewBridge(transport: BridgeTransport) {
  return {
    watchMarketOverview: (input) => call(transport, 'watchMarketOverview', input),
    unwatchMarketOverview: (input) => call(transport, 'unwatchMarketOverview', input),
    onMarketOverview: (listener) => on(transport, 'marketOverview', listener),
  } satisfies AreaApi<typeof overviewRequests, typeof overviewStreams>;
}
