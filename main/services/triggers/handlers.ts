// Request handlers of the triggers area of the contract.
import type { triggerRequests } from '../../../shared/ipc/areas/triggers';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { HandlerContext } from '../handler-context';

export function triggerHandlers(_context: HandlerContext): AreaHandlers<typeof triggerRequests> {
  return {};
}
