// The execution algorithms area's bridge methods: one named method per operation, nothing generic.
import type { algoRequests, algoStreams } from '../areas/algos';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function algoBridge(transport: BridgeTransport) {
  return {
    previewAlgo: (input) => call(transport, 'previewAlgo', input),
    startAlgo: (input) => call(transport, 'startAlgo', input),
    pauseAlgo: (input) => call(transport, 'pauseAlgo', input),
    resumeAlgo: (input) => call(transport, 'resumeAlgo', input),
    amendAlgoLimit: (input) => call(transport, 'amendAlgoLimit', input),
    cancelAlgo: (input) => call(transport, 'cancelAlgo', input),
    getAlgos: (input) => call(transport, 'getAlgos', input),
    onAlgos: (listener) => on(transport, 'algos', listener),
  } satisfies AreaApi<typeof algoRequests, typeof algoStreams>;
}
