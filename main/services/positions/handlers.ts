// Request handlers of the positions area of the contract: each delegates to the active network's
// PositionsService (main/services/positions/positions-service.ts); inputs were parsed by the dispatcher.
import type { positionRequests } from '../../../shared/ipc/areas/positions';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import { withRuntime, type HandlerContext } from '../handler-context';

export function positionHandlers(context: HandlerContext): AreaHandlers<typeof positionRequests> {
  return {
    getPositions: () => withRuntime(context, async (runtime) => ok(await runtime.positions.positions())),
    flattenPositions: ({ positions }) => withRuntime(context, (runtime) => runtime.positions.flatten(positions)),
    reversePosition: ({ position }) => withRuntime(context, (runtime) => runtime.positions.flatten([position], 'reverse')),
  };
}
