// Public market data: depth, bars, trades, 24-hour summary, ticker and fees.
import type { SandboxApp } from '../app-types';
import { invalid, Refusal, show } from '../http/errors';
import { integer, oneOf, optionalB256, optionalInteger } from '../http/query';
import { json, refuse } from '../http/reply';
import { marketById, pageParams, paginate, wantsTurbo } from '../http/selectors';
import type { MarketState } from '../ledger/market';
import { tradeId } from '../ledger/trades';
import { RESOLUTIONS } from '../market-data/bars';
import { depthView, fullDepth, levelsJson, turboDepthView } from '../market-data/depth';
import type { TurboLink } from '../turbo/link';
import { isShared } from '../turbo/link';
import { dayStats, percentChange } from '../market-data/stats';
import { tradeView } from '../views/orders';

export const MAX_DEPTH = 500;
export const MAX_TRADES_PAGE = 50;
export const MAX_BARS_PAGE = 5000;

/** `precision`: a power of ten (1, 10, …, 10^18) grouping raw prices; 1 means no grouping. */
export function precisionParam(query: URLSearchParams): bigint | Refusal {
  const raw = query.get('precision');
  if (raw === null || raw === '') return 1n;
  if (!/^10*$/.test(raw) || raw.length > 19) return invalid(`precision: expected a power of ten (1, 10, 100, …), got ${show(raw)}`);
  return BigInt(raw);
}

/** The markets a summary, ticker or fees request covers: one by market_id, or all (Turbo books with turbo=true; markets without one are skipped). */
function selectedMarkets(app: SandboxApp, query: URLSearchParams): MarketState[] | Refusal {
  const id = optionalB256(query, 'market_id');
  if (id instanceof Refusal) return id;
  if (id === undefined) return wantsTurbo(query) ? [...app.ledger.turbo.values()].map((link) => link.turbo) : [...app.ledger.markets.values()];
  const market = marketById(app, query);
  return market instanceof Refusal ? market : [market];
}

export function registerMarketDataRoutes(app: SandboxApp): void {
  const { router } = app;

  router.on('GET', '/v1/depth', (request) => {
    const market = marketById(app, request.query);
    if (market instanceof Refusal) return refuse(market);
    const precision = precisionParam(request.query);
    if (precision instanceof Refusal) return refuse(precision);
    const depth = integer(request.query, 'depth', { min: 1, max: MAX_DEPTH, fallback: MAX_DEPTH });
    if (depth instanceof Refusal) return refuse(depth);
    const level = oneOf(request.query, 'level', ['2', '3'] as const, '2');
    if (level instanceof Refusal) return refuse(level);
    if (market.turbo) {
      // Turbo depth (margin 4.5): `view` executable (shared quotes a Turbo taker can hit) or demand (resting Turbo orders).
      const view = oneOf(request.query, 'view', ['executable', 'demand'] as const, 'executable');
      if (view instanceof Refusal) return refuse(view);
      const link = app.ledger.turbo.get(market.config.market_id) as TurboLink;
      const levels = turboDepthView(link, view, precision, depth);
      return json({ market_id: market.config.market_id, turbo: true, view_kind: view, precision: precision.toString(), level: 2, view: { buys: levelsJson(levels.buys), sells: levelsJson(levels.sells) } });
    }
    if (level === '3') {
      const orders = fullDepth(market, depth);
      const show3 = (entries: typeof orders.buys) => entries.map((entry) => ({ order_id: entry.order_id, price: entry.price.toString(), quantity: entry.quantity.toString() }));
      return json({ market_id: market.config.market_id, level: 3, orders: { buys: show3(orders.buys), sells: show3(orders.sells) } });
    }
    const view = depthView(market, precision, depth);
    return json({ market_id: market.config.market_id, precision: precision.toString(), level: 2, view: { buys: levelsJson(view.buys), sells: levelsJson(view.sells) } });
  });

  router.on('GET', '/v1/bars', (request) => {
    const { query } = request;
    const market = marketById(app, query);
    if (market instanceof Refusal) return refuse(market);
    const resolution = oneOf(query, 'resolution', RESOLUTIONS);
    if (resolution instanceof Refusal) return refuse(resolution);
    const now = app.clock.now();
    const to = optionalInteger(query, 'to', { min: 0, max: Number.MAX_SAFE_INTEGER });
    if (to instanceof Refusal) return refuse(to);
    const from = optionalInteger(query, 'from', { min: 0, max: Number.MAX_SAFE_INTEGER });
    if (from instanceof Refusal) return refuse(from);
    const countBack = optionalInteger(query, 'count_back', { min: 1, max: MAX_BARS_PAGE });
    if (countBack instanceof Refusal) return refuse(countBack);
    if (countBack === undefined && from === undefined) return refuse(invalid('query: from (ms) or count_back is required, got neither'));
    const end = to ?? now + 1;
    if (countBack === undefined && (from as number) > end) return refuse(invalid(`from: must not be after to (${end}), got ${from}`));
    let bars = market.bars.query(resolution, from ?? 0, end, countBack);
    const link = market.turbo ? app.ledger.turbo.get(market.config.market_id) : undefined;
    if (link !== undefined) {
      // History before the Turbo book was attached is the canonical book's (margin 4.5).
      const inherited = link.canonical.bars.query(resolution, from ?? 0, Math.min(end, link.attachedAtMs), countBack).filter((bar) => bar.timestamp < link.attachedAtMs);
      const own = bars.filter((bar) => bar.timestamp >= link.attachedAtMs);
      bars = [...inherited, ...own];
      if (countBack !== undefined) bars = bars.slice(-countBack);
    }
    bars = bars.slice(-MAX_BARS_PAGE);
    return json({
      market_id: market.config.market_id,
      ...(market.turbo ? { turbo: true } : {}),
      resolution,
      bars: bars.map((bar) => ({ timestamp: bar.timestamp, open: bar.open.toString(), high: bar.high.toString(), low: bar.low.toString(), close: bar.close.toString(), volume: bar.volume.toString() })),
    });
  });

  router.on('GET', '/v1/trades', (request) => {
    const market = marketById(app, request.query);
    if (market instanceof Refusal) return refuse(market);
    const page = pageParams(request.query, MAX_TRADES_PAGE, 'start_trade_id', false);
    if (page instanceof Refusal) return refuse(page);
    const trades = paginate(market.trades.all(), page, (trade) => trade.timestamp, (trade) => tradeId(trade));
    return json({ market_id: market.config.market_id, ...(market.turbo ? { turbo: true } : {}), trades: trades.map(tradeView) });
  });

  router.on('GET', '/v1/markets/summary', (request) => {
    const markets = selectedMarkets(app, request.query);
    if (markets instanceof Refusal) return refuse(markets);
    const now = app.clock.now();
    return json(
      markets.map((market) => {
        const stats = dayStats(market, now);
        return {
          market_id: market.config.market_id,
          high_price: (stats.high ?? 0n).toString(),
          low_price: (stats.low ?? 0n).toString(),
          last_price: (stats.last ?? 0n).toString(),
          volume_24h: stats.baseVolume.toString(),
          change_24h: percentChange(stats.open, stats.last),
          ...(market.turbo ? { turbo: true } : {}),
        };
      }),
    );
  });

  router.on('GET', '/v1/markets/ticker', (request) => {
    const markets = selectedMarkets(app, request.query);
    if (markets instanceof Refusal) return refuse(markets);
    const now = app.clock.now();
    return json(markets.map((market) => tickerRow(market, now, market.turbo ? app.ledger.turbo.get(market.config.market_id) : undefined)));
  });

  router.on('GET', '/v1/markets/fees', (request) => {
    const markets = selectedMarkets(app, request.query);
    if (markets instanceof Refusal) return refuse(markets);
    return json(markets.map((market) => ({ market_id: market.config.market_id, maker_fee: market.config.maker_fee.toString(), taker_fee: market.config.taker_fee.toString(), ...(market.turbo ? { turbo: true } : {}) })));
  });
}

export function tickerRow(market: MarketState, now: number, link?: TurboLink): Record<string, unknown> {
  const stats = dayStats(market, now);
  // A Turbo ticker's bid and ask are the best executable shared levels of the canonical book.
  const best = (side: 'Buy' | 'Sell') => {
    if (link === undefined) return market.book.levels(side, 1).next().value;
    const level = (side === 'Buy' ? depthView(link.canonical, 1n, 1, isShared).buys : depthView(link.canonical, 1n, 1, isShared).sells)[0];
    return level === undefined ? undefined : { price: level.price, total: level.quantity };
  };
  const bid = best('Buy');
  const ask = best('Sell');
  const last = stats.last ?? 0n;
  const open = stats.open ?? last;
  return {
    market_id: market.config.market_id,
    high: (stats.high ?? 0n).toString(),
    low: (stats.low ?? 0n).toString(),
    // An empty side leaves its members out (JSON drops undefined).
    bid: bid?.price.toString(),
    bid_volume: bid?.total.toString(),
    ask: ask?.price.toString(),
    ask_volume: ask?.total.toString(),
    open: open.toString(),
    close: last.toString(),
    last: last.toString(),
    change: (last - open).toString(),
    percentage: percentChange(stats.open, stats.last),
    base_volume: stats.baseVolume.toString(),
    quote_volume: stats.quoteVolume.toString(),
    timestamp: now,
    ...(link === undefined ? {} : { turbo: true }),
  };
}
