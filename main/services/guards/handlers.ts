// Request handlers of the risk guards area of the contract: the guards' state as the active
// network's risk watch last read it (main/services/guards/risk-watch.ts).
import type { guardRequests } from '../../../shared/ipc/areas/guards';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import { withRuntime, type HandlerContext } from '../handler-context';

export function guardHandlers(context: HandlerContext): AreaHandlers<typeof guardRequests> {
  return {
    getGuardState: () => withRuntime(context, (runtime) => ok(runtime.riskWatch.state())),
  };
}
