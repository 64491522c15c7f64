// The margin insights area's bridge methods: one named method per operation, nothing generic.
import type { marginInsightRequests, marginInsightStreams } from '../areas/margin-insights';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function marginInsightBridge(transport: BridgeTransport) {
  return {
    watchMarginInsights: (input) => call(transport, 'watchMarginInsights', input),
    unwatchMarginInsights: (input) => call(transport, 'unwatchMarginInsights', input),
    watchTurboDepth: (input) => call(transport, 'watchTurboDepth', input),
    unwatchTurboDepth: (input) => call(transport, 'unwatchTurboDepth', input),
    onMarginInsights: (listener) => on(transport, 'marginInsights', listener),
    onTurboDepth: (listener) => on(transport, 'turboDepth', listener),
  } satisfies AreaApi<typeof marginInsightRequests, typeof marginInsightStreams>;
}
