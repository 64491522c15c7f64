// Request handlers of the margin insights area: a window watches the margin reads (and one Turbo
// Account's activity) or the Turbo depth overlay of its ladder, or stops; inputs were parsed by the
// dispatcher.
import type { marginInsightRequests } from '../../../shared/ipc/areas/margin-insights';
import type { B256 } from '../../../shared/encoding/b256';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { TurboDepthOverlay } from '../market-data/turbo-depth-overlay';
import type { MarginInsights } from './margin-insights';

export function marginInsightHandlers(insights: MarginInsights, depth: TurboDepthOverlay): AreaHandlers<typeof marginInsightRequests> {
  return {
    watchMarginInsights: ({ marginAccountId }, caller) => ok(insights.watch(caller.windowId, marginAccountId === null ? null : (marginAccountId as B256))),
    unwatchMarginInsights: (_input, caller) => {
      insights.unwatch(caller.windowId);
      return ok(null);
    },
    watchTurboDepth: ({ marketId, step }, caller) => ok(depth.watch(caller.windowId, marketId, step)),
    unwatchTurboDepth: (_input, caller) => {
      depth.unwatch(caller.windowId);
      return ok(null);
    },
  };
}
