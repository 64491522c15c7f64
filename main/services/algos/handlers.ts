// Request handlers of the execution algorithms area of the contract: each delegates to the active
// network's AlgoService (main/services/algos/algo-service.ts); inputs were parsed by the dispatcher.
import type { algoRequests } from '../../../shared/ipc/areas/algos';
import { fail, ok, type Result } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import { withRuntime, type HandlerContext } from '../handler-context';
import type { NetworkRuntime } from '../network/network-runtime';
import type { AlgoService } from './algo-service';

function withAlgos<T>(context: HandlerContext, work: (algos: AlgoService) => Promise<Result<T>> | Result<T>): Promise<Result<T>> | Result<T> {
  return withRuntime(context, (runtime: NetworkRuntime) => (runtime.algos === null ? fail('NOT_AVAILABLE', 'Execution algorithms are not kept on this terminal (no data directory)') : work(runtime.algos)));
}

export function algoHandlers(context: HandlerContext): AreaHandlers<typeof algoRequests> {
  return {
    previewAlgo: (input) => withAlgos(context, (algos) => algos.preview(input)),
    startAlgo: (input) => withAlgos(context, (algos) => algos.startAlgo(input)),
    pauseAlgo: (input) => withAlgos(context, (algos) => algos.pause(input.id)),
    resumeAlgo: (input) => withAlgos(context, (algos) => algos.resume(input.id)),
    amendAlgoLimit: (input) => withAlgos(context, (algos) => algos.amendLimit(input.id, input.limitPrice)),
    cancelAlgo: (input) => withAlgos(context, (algos) => algos.cancel(input.id)),
    getAlgos: () => withAlgos(context, (algos) => ok(algos.list())),
  };
}
