// The markets overview area of the contract: a window asks main to follow every market's ticker and
// 24-hour summary and receives them on the `marketOverview` stream; main reads the exchange only
// while some window follows them (main/services/market-data/market-overview.ts). Merged in ../contract.ts.
import { noInput } from '../inputs';
import { request, stream } from '../spec';
import type { MarketOverviewView } from '../views/overview';

export const overviewRequests = {
  /** Follow the overview in this window: the answer is the latest view, then each new one is pushed. */
  watchMarketOverview: request<MarketOverviewView>()(noInput),
  unwatchMarketOverview: request<null>()(noInput),
} as const;

export const overviewStreams = {
  /** After every read (changed or not), to the windows that follow the overview. */
  marketOverview: stream<MarketOverviewView>(),
} as const;
