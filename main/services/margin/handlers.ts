// Request handlers of the margin area of the contract.
import type { marginRequests } from '../../../shared/ipc/areas/margin';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { HandlerContext } from '../handler-context';

export function marginHandlers(_context: HandlerContext): AreaHandlers<typeof marginRequests> {
  return {};
}
