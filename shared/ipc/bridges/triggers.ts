// The triggers area's bridge methods: one named method per operation, nothing generic.
import type { triggerRequests, triggerStreams } from '../areas/triggers';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function triggerBridge(transport: BridgeTransport) {
  return {
    placeBracketOrder: (input) => call(transport, 'placeBracketOrder', input),
    placeStopOrder: (input) => call(transport, 'placeStopOrder', input),
    placeOcoOrder: (input) => call(transport, 'placeOcoOrder', input),
    cancelTrigger: (input) => call(transport, 'cancelTrigger', input),
    moveTrigger: (input) => call(transport, 'moveTrigger', input),
    getTriggers: (input) => call(transport, 'getTriggers', input),
    onTriggers: (listener) => on(transport, 'triggers', listener),
  } satisfies AreaApi<typeof triggerRequests, typeof triggerStreams>;
}
