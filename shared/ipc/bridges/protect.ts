// The protective stops area's bridge methods: one named method per operation, nothing generic.
import type { protectRequests, protectStreams } from '../areas/protect';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function protectBridge(transport: BridgeTransport) {
  return {
    armProtectiveStop: (input) => call(transport, 'armProtectiveStop', input),
    disarmProtectiveStop: (input) => call(transport, 'disarmProtectiveStop', input),
    moveStopToBreakEven: (input) => call(transport, 'moveStopToBreakEven', input),
    getProtectiveStops: (input) => call(transport, 'getProtectiveStops', input),
    onProtectiveStops: (listener) => on(transport, 'protectiveStops', listener),
    armPositionBracket: (input) => call(transport, 'armPositionBracket', input),
    disarmPositionBracket: (input) => call(transport, 'disarmPositionBracket', input),
    getPositionBrackets: (input) => call(transport, 'getPositionBrackets', input),
    onPositionBrackets: (listener) => on(transport, 'positionBrackets', listener),
    setAutoBracket: (input) => call(transport, 'setAutoBracket', input),
    clearAutoBracket: (input) => call(transport, 'clearAutoBracket', input),
    getAutoBrackets: (input) => call(transport, 'getAutoBrackets', input),
  } satisfies AreaApi<typeof protectRequests, typeof protectStreams>;
}
