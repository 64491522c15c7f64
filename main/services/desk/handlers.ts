// Request handlers of the desk area of the contract.
import type { deskRequests } from '../../../shared/ipc/areas/desk';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { HandlerContext } from '../handler-context';

export function deskHandlers(_context: HandlerContext): AreaHandlers<typeof deskRequests> {
  return {};
}
