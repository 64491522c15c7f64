// Request handlers of the custody area of the contract.
import type { custodyRequests } from '../../../shared/ipc/areas/custody';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { HandlerContext } from '../handler-context';

export function custodyHandlers(_context: HandlerContext): AreaHandlers<typeof custodyRequests> {
  return {};
}
