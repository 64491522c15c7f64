// Request handlers of the execution algorithms area of the contract (placeholder of the branch that
// builds main/services/algos: every request answers NOT_AVAILABLE until the engine lands).
import type { algoRequests } from '../../../shared/ipc/areas/algos';
import { fail } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { HandlerContext } from '../handler-context';

export function algoHandlers(_context: HandlerContext): AreaHandlers<typeof algoRequests> {
  const missing = () => fail('NOT_AVAILABLE', 'Execution algorithms are not built yet');
  return {
    previewAlgo: missing,
    startAlgo: missing,
    pauseAlgo: missing,
    resumeAlgo: missing,
    amendAlgoLimit: missing,
    cancelAlgo: missing,
    getAlgos: missing,
  };
}
