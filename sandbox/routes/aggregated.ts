// Aggregator feeds (spec 4.1), served under /v1/aggregated/ and its alias /v1/agg/. Their
// shapes are not in the spec; ours follow the common aggregator conventions (docs/sandbox.md)
// with prices and volumes in display units as decimal strings (never floats). A market is
// chosen by market_id or market_pair BASE_QUOTE (see http/selectors.ts for the duplicate rule).
import { formatUnits } from '../../shared/encoding/units';
import type { SandboxApp } from '../app-types';
import { Refusal } from '../http/errors';
import { integer } from '../http/query';
import { json, refuse, type Reply } from '../http/reply';
import type { ApiRequest } from '../http/request';
import { marketByIdOrPair, pageParams, paginate } from '../http/selectors';
import type { MarketState } from '../ledger/market';
import { tradeId, tradeTotal } from '../ledger/trades';
import { depthView } from '../market-data/depth';
import { dayStats, percentChange } from '../market-data/stats';

const PREFIXES = ['/v1/aggregated', '/v1/agg'];

function pairOf(market: MarketState): string {
  return `${market.config.base.symbol}_${market.config.quote.symbol}`;
}

function price(market: MarketState, raw: bigint | undefined): string {
  return raw === undefined ? '0' : formatUnits(raw, market.config.quote.decimals);
}

function base(market: MarketState, raw: bigint): string {
  return formatUnits(raw, market.config.base.decimals);
}

function quote(market: MarketState, raw: bigint): string {
  return formatUnits(raw, market.config.quote.decimals);
}

function marketsFor(app: SandboxApp, query: URLSearchParams): MarketState[] | Refusal {
  const one = marketByIdOrPair(app, query, false);
  if (one instanceof Refusal) return one;
  return one === undefined ? [...app.ledger.markets.values()] : [one];
}

function bookSides(market: MarketState, depth: number): { bids: string[][]; asks: string[][] } {
  const view = depthView(market, 1n, depth);
  const pairs = (levels: typeof view.buys) => levels.map((level) => [price(market, level.price), base(market, level.quantity)]);
  return { bids: pairs(view.buys), asks: pairs(view.sells) };
}

export function registerAggregatedRoutes(app: SandboxApp): void {
  const feeds: Record<string, (request: ApiRequest) => Reply> = {
    assets: () =>
      json(
        Object.fromEntries(
          app.network.assets.map((asset) => [asset.key, { asset_id: asset.id, symbol: asset.symbol, decimals: asset.decimals, can_withdraw: true, can_deposit: true }]),
        ),
      ),
    orderbook: (request) => {
      const market = marketByIdOrPair(app, request.query);
      if (market instanceof Refusal || market === undefined) return refuse(market as Refusal);
      const depth = integer(request.query, 'depth', { min: 1, max: 500, fallback: 100 });
      if (depth instanceof Refusal) return refuse(depth);
      return json({ market_id: market.config.market_id, ticker_id: pairOf(market), timestamp: app.clock.now(), ...bookSides(market, depth) });
    },
    summary: (request) => {
      const markets = marketsFor(app, request.query);
      if (markets instanceof Refusal) return refuse(markets);
      const now = app.clock.now();
      return json(
        markets.map((market) => {
          const stats = dayStats(market, now);
          return {
            market_id: market.config.market_id,
            trading_pairs: pairOf(market),
            base_currency: market.config.base.symbol,
            quote_currency: market.config.quote.symbol,
            last_price: price(market, stats.last),
            lowest_ask: price(market, market.book.bestAsk()),
            highest_bid: price(market, market.book.bestBid()),
            base_volume: base(market, stats.baseVolume),
            quote_volume: quote(market, stats.quoteVolume),
            price_change_percent_24h: percentChange(stats.open, stats.last),
            highest_price_24h: price(market, stats.high),
            lowest_price_24h: price(market, stats.low),
          };
        }),
      );
    },
    ticker: (request) => {
      const markets = marketsFor(app, request.query);
      if (markets instanceof Refusal) return refuse(markets);
      const now = app.clock.now();
      return json(
        markets.map((market) => {
          const stats = dayStats(market, now);
          return {
            market_id: market.config.market_id,
            ticker_id: pairOf(market),
            base_id: market.config.base.asset,
            quote_id: market.config.quote.asset,
            last_price: price(market, stats.last),
            base_volume: base(market, stats.baseVolume),
            quote_volume: quote(market, stats.quoteVolume),
            isFrozen: 0,
          };
        }),
      );
    },
    trades: (request) => {
      const market = marketByIdOrPair(app, request.query);
      if (market instanceof Refusal || market === undefined) return refuse(market as Refusal);
      const page = pageParams(request.query, 50, 'start_trade_id', false);
      if (page instanceof Refusal) return refuse(page);
      const trades = paginate(market.trades.all(), page, (trade) => trade.timestamp, (trade) => tradeId(trade));
      return json(
        trades.map((trade) => ({
          trade_id: tradeId(trade),
          price: price(market, trade.price),
          base_volume: base(market, trade.quantity),
          quote_volume: quote(market, tradeTotal(trade)),
          timestamp: Number(trade.timestamp / 1_000_000n),
          type: trade.side === 'Buy' ? 'buy' : 'sell',
        })),
      );
    },
    'coingecko/tickers': (request) => {
      const markets = marketsFor(app, request.query);
      if (markets instanceof Refusal) return refuse(markets);
      const now = app.clock.now();
      return json(
        markets.map((market) => {
          const stats = dayStats(market, now);
          return {
            ticker_id: pairOf(market),
            base_currency: market.config.base.symbol,
            target_currency: market.config.quote.symbol,
            pool_id: market.config.market_id,
            last_price: price(market, stats.last),
            base_volume: base(market, stats.baseVolume),
            target_volume: quote(market, stats.quoteVolume),
            bid: price(market, market.book.bestBid()),
            ask: price(market, market.book.bestAsk()),
            high: price(market, stats.high),
            low: price(market, stats.low),
          };
        }),
      );
    },
    'coingecko/orderbook': (request) => {
      const market = marketByIdOrPair(app, request.query);
      if (market instanceof Refusal || market === undefined) return refuse(market as Refusal);
      const depth = integer(request.query, 'depth', { min: 0, max: 500, fallback: 100 });
      if (depth instanceof Refusal) return refuse(depth);
      // CoinGecko's depth counts both sides together: half on each.
      const perSide = depth === 0 ? 500 : Math.max(1, Math.ceil(depth / 2));
      return json({ ticker_id: pairOf(market), pool_id: market.config.market_id, timestamp: app.clock.now(), ...bookSides(market, perSide) });
    },
  };
  for (const prefix of PREFIXES) for (const [feed, handler] of Object.entries(feeds)) app.router.on('GET', `${prefix}/${feed}`, handler);
}
