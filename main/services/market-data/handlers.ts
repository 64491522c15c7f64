// Request handlers of market data: the markets of the active network, and the windows' book, trade
// and bar subscriptions. Subscriptions are the hub's, not a network's: they are accepted during a
// switch and served by whichever network is active (their frames say when nothing is live).
import type { overviewRequests } from '../../../shared/ipc/areas/overview';
import type { MarketsView } from '../../../shared/ipc/views';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { MarketOverview } from './market-overview';
import { fail, ok } from '../../../shared/result';
import { NOT_CONNECTED, withRuntime, type CoreHandlers, type HandlerContext } from '../handler-context';

type MarketDataRequest = 'listMarkets' | 'subscribeBook' | 'updateBookView' | 'subscribeTrades' | 'subscribeBars' | 'unsubscribe' | 'setWindowVisible';

export function marketDataHandlers(context: HandlerContext): CoreHandlers<MarketDataRequest> {
  const hub = context.hub;
  return {
    listMarkets: () =>
      withRuntime(context, async (current) => {
        const index = current.markets ?? (await current.loadMarkets().then((loaded) => (loaded.ok ? loaded.value : null)));
        if (!index) return fail(NOT_CONNECTED, `The markets of ${context.network()?.name ?? 'the network'} could not be loaded: ${current.marketsProblem ?? 'no answer'}`);
        const view: MarketsView = { networkId: context.network()?.id ?? '', chainId: index.chainId, markets: index.markets(), turboMarkets: index.turboMarkets() };
        return ok(view);
      }),
    subscribeBook: (input, caller) => {
      const market = context.runtime()?.markets?.market(input.marketId, input.turbo ?? false);
      if (market && !market.ok) return market;
      const subscribed = hub.subscribeBook(caller.windowId, { marketId: input.marketId, turbo: input.turbo ?? false, precision: input.precision, levels: input.levels, ...(input.flowWindow === undefined ? {} : { flowWindow: input.flowWindow }) });
      return subscribed.ok ? ok({ subscriptionId: subscribed.value }) : subscribed;
    },
    updateBookView: ({ subscriptionId, levels, flowWindow }, caller) => hub.updateBookView(caller.windowId, subscriptionId, levels, flowWindow),
    subscribeTrades: (input, caller) => {
      const subscribed = hub.subscribeTrades(caller.windowId, { marketId: input.marketId, turbo: input.turbo ?? false });
      return subscribed.ok ? ok({ subscriptionId: subscribed.value }) : subscribed;
    },
    subscribeBars: async (input, caller) => {
      const subscribed = await hub.subscribeBars(caller.windowId, { marketId: input.marketId, turbo: input.turbo ?? false, resolution: input.resolution, countBack: input.countBack });
      return subscribed.ok ? ok({ subscriptionId: subscribed.value }) : subscribed;
    },
    unsubscribe: ({ subscriptionId }, caller) => hub.unsubscribe(caller.windowId, subscriptionId),
    setWindowVisible: ({ visible }, caller) => {
      hub.setVisible(caller.windowId, visible);
      return ok(null);
    },
  };
}

/** The markets overview area: a window follows the overview main reads, or stops. */
export function overviewHandlers(overview: MarketOverview): AreaHandlers<typeof overviewRequests> {
  return {
    watchMarketOverview: (_input, caller) => ok(overview.watch(caller.windowId)),
    unwatchMarketOverview: (_input, caller) => {
      overview.unwatch(caller.windowId);
      return ok(null);
    },
  };
}
