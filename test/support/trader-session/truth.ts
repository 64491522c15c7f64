// The exchange's truth, read over the sandbox's public REST API (the same answers any client
// gets), for the oracle to hold the screen to. Money stays bigint; nothing here is formatted.
import type { Market } from '../../../shared/market/market';
import { computeRisk, type MarginSnapshot, type RestingOrders, type RiskReport } from '../../../shared/margin/index';
import { ledgerPosition, type LedgerFill, type LedgerPosition } from './ledger';

export interface TruthOrder {
  readonly orderId: string;
  readonly timestamp: bigint;
  /** The contract that owns it. */
  readonly account: string;
  readonly marketId: string;
  readonly turbo: boolean;
  readonly side: string;
  readonly kind: string;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly filled: bigint;
  readonly averagePrice: bigint;
  readonly status: 'open' | 'partially-filled' | 'filled' | 'cancelled';
  readonly fills: readonly { price: bigint; quantity: bigint; fee: bigint }[];
}

export interface TruthBalance {
  readonly assetId: string;
  readonly onAccount: bigint;
  readonly locked: bigint;
  readonly unlocked: bigint;
  /** Keyed by market id, with `:turbo` for a Turbo book. */
  readonly books: ReadonlyMap<string, { locked: bigint; unlocked: bigint }>;
}

export interface Inside {
  readonly bid: bigint | null;
  readonly ask: bigint | null;
}

/**
 * One consistent margin truth of a Turbo Account: GET /v1/margin/state (session, tier, balances,
 * prices, risk parameters, the pool it embeds, all of one `sequence`), the account's open orders on
 * the Turbo books (read between two reads of the state that carry the same sequence), and the
 * figures the spec's formulas (shared/margin computeRisk, the one implementation of margin-api 2.6)
 * give for that snapshot. The snapshot is built here from the wire, not by the app's code.
 */
export interface MarginTruth {
  readonly sequence: bigint;
  readonly collateralAssetId: string;
  /** Null without a live session. */
  readonly snapshot: MarginSnapshot | null;
  readonly report: RiskReport | null;
  /** Why the formulas gave no report (a snapshot that cannot be valued). */
  readonly problem: string | null;
  readonly cohort: 'Legacy' | 'Turbo' | null;
  readonly poolPaused: boolean;
  /** Non-collateral assets whose oracle price is flagged stale. */
  readonly stalePrices: readonly string[];
  /** `last_session.status` when there is no live session. */
  readonly lastSession: string | null;
}

/** A trade as GET /v1/trades_by_account gives it (docs/protocol.md "One fill source"). */
export interface WireAccountTrade {
  readonly trade_id: string;
  readonly order_id: string;
  readonly account_side: string;
  readonly role: string;
  readonly price: string;
  readonly quantity: string;
  readonly fee: string;
  readonly timestamp: string;
}

/** A Trade of GET /v1/trades: newest first. */
export interface TruthTrade {
  readonly tradeId: string;
  readonly side: string;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly timestamp: bigint;
}

type WireMarginState = {
  sequence?: string;
  session?: { cohort?: 'Legacy' | 'Turbo'; collateral: string; fees: string; quote_drawn: string; expires_at: string; pnl_basis?: string } | null;
  tier?: {
    line: string;
    max_credit_line_bps: string;
    capital: string;
    threshold: string;
    open_buffer: string;
    maintenance: string;
    duration: string;
    turbo?: { max_loss_bps: string[]; rollover_profit_bps: string; max_rollovers: number; term_seconds: string; forfeit_collateral: boolean };
  } | null;
  rollover?: { anchor: string; withdrawn: string; outside: string; rollovers_used: number; max_rollovers: number };
  balances?: Record<string, { on_account: string; received: string; locked: string; settled: string; debt: string }>;
  prices?: Record<string, { bid: string; ask: string; decimals: number; stale?: boolean }>;
  collateral_asset_id?: string;
  collateral_decimals?: number;
  risk_params?: { stress_band_bps?: Record<string, string>; absorption_band_bps?: Record<string, string>; default_stress_band_bps?: string; default_absorption_band_bps?: string };
  pool?: { paused?: boolean; inventory?: Record<string, string> };
  last_session?: { status?: string };
};

const bigints = (record: Record<string, string> | undefined): Record<string, bigint> => Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, BigInt(value)]));

/**
 * The resting-order sums of margin-api 2.6 (and docs/protocol.md (Margin)) from open orders on
 * books quoted in the collateral: per base asset, the sells' remaining quantity and their quote at
 * the limit, the buys' remaining quantity and the quote they lock.
 */
export function restingSums(orders: readonly { side: string; price: bigint; quantity: bigint; filled: bigint; market: Market }[], collateralAssetId: string): Record<string, RestingOrders> {
  const out: Record<string, { sellQuantity: bigint; sellQuote: bigint; buyQuantity: bigint; buyQuote: bigint }> = {};
  for (const order of orders) {
    if (order.market.quote.asset.toLowerCase() !== collateralAssetId.toLowerCase()) continue;
    const remaining = order.quantity - order.filled;
    if (remaining <= 0n) continue;
    const quote = (order.price * remaining) / 10n ** BigInt(order.market.base.decimals);
    const entry = (out[order.market.base.asset] ??= { sellQuantity: 0n, sellQuote: 0n, buyQuantity: 0n, buyQuote: 0n });
    if (order.side === 'Sell') {
      entry.sellQuantity += remaining;
      entry.sellQuote += quote;
    } else {
      entry.buyQuantity += remaining;
      entry.buyQuote += quote;
    }
  }
  return out;
}

/** The margin truth of one state and the open orders read with it (pure: no reads). */
export function marginTruthOf(state: WireMarginState, openOrders: readonly { side: string; price: bigint; quantity: bigint; filled: bigint; market: Market }[]): MarginTruth {
  const collateralAssetId = state.collateral_asset_id ?? '';
  const stalePrices = Object.entries(state.prices ?? {})
    .filter(([asset, price]) => price.stale === true && asset !== collateralAssetId)
    .map(([asset]) => asset);
  const base = {
    sequence: BigInt(state.sequence ?? '0'),
    collateralAssetId,
    cohort: state.session?.cohort ?? (state.tier ? (state.tier.turbo === undefined ? 'Legacy' : 'Turbo') : null),
    poolPaused: state.pool?.paused ?? false,
    stalePrices,
    lastSession: state.session ? null : (state.last_session?.status ?? null),
  } as const;
  const session = state.session;
  const tier = state.tier;
  if (!session || !tier) return { ...base, snapshot: null, report: null, problem: null };
  const params = state.risk_params ?? {};
  const snapshot: MarginSnapshot = {
    session: {
      ...(session.cohort === undefined ? {} : { cohort: session.cohort }),
      collateral: BigInt(session.collateral),
      fees: BigInt(session.fees),
      quoteDrawn: BigInt(session.quote_drawn),
      expiresAt: BigInt(session.expires_at),
      ...(session.pnl_basis === undefined ? {} : { pnlBasis: BigInt(session.pnl_basis) }),
    },
    tier: {
      line: BigInt(tier.line),
      maxCreditLineBps: BigInt(tier.max_credit_line_bps),
      capital: BigInt(tier.capital),
      threshold: BigInt(tier.threshold),
      openBuffer: BigInt(tier.open_buffer),
      maintenance: BigInt(tier.maintenance),
      duration: BigInt(tier.duration),
      ...(tier.turbo === undefined
        ? {}
        : {
            turbo: {
              maxLossBps: tier.turbo.max_loss_bps.map((bps) => BigInt(bps)),
              rolloverProfitBps: BigInt(tier.turbo.rollover_profit_bps),
              maxRollovers: tier.turbo.max_rollovers,
              termSeconds: BigInt(tier.turbo.term_seconds),
              forfeitCollateral: tier.turbo.forfeit_collateral,
            },
          }),
    },
    ...(state.rollover === undefined
      ? {}
      : {
          rollover: {
            anchor: BigInt(state.rollover.anchor),
            withdrawn: BigInt(state.rollover.withdrawn),
            outside: BigInt(state.rollover.outside),
            rolloversUsed: state.rollover.rollovers_used,
            maxRollovers: state.rollover.max_rollovers,
          },
        }),
    collateralAssetId,
    collateralDecimals: state.collateral_decimals ?? 0,
    balances: Object.fromEntries(
      Object.entries(state.balances ?? {}).map(([asset, balance]) => [
        asset,
        { onAccount: BigInt(balance.on_account), received: BigInt(balance.received), locked: BigInt(balance.locked), settled: BigInt(balance.settled), debt: BigInt(balance.debt) },
      ]),
    ),
    prices: Object.fromEntries(
      Object.entries(state.prices ?? {})
        .filter(([asset]) => asset !== collateralAssetId)
        .map(([asset, price]) => [asset, { bid: BigInt(price.bid), ask: BigInt(price.ask), decimals: price.decimals, stale: price.stale ?? false }]),
    ),
    restingOrders: restingSums(openOrders, collateralAssetId),
    poolInventory: bigints(state.pool?.inventory),
    riskParams: {
      stressBandBps: bigints(params.stress_band_bps),
      absorptionBandBps: bigints(params.absorption_band_bps),
      ...(params.default_stress_band_bps === undefined ? {} : { defaultStressBandBps: BigInt(params.default_stress_band_bps) }),
      ...(params.default_absorption_band_bps === undefined ? {} : { defaultAbsorptionBandBps: BigInt(params.default_absorption_band_bps) }),
    },
  };
  const report = computeRisk(snapshot);
  return { ...base, snapshot, report: report.ok ? report.value : null, problem: report.ok ? null : report.message };
}

interface WireOrder {
  order_id: string;
  market_id?: string;
  side: string;
  order_type: Record<string, unknown> | string;
  price: string;
  quantity: string;
  quantity_fill?: string;
  price_fill?: string;
  close?: boolean;
  cancel?: boolean;
  partially_filled?: boolean;
  fills?: { price: string; quantity: string; fee: string; timestamp?: string | number }[];
  timestamp?: string;
}

/**
 * A pending trigger leg (stop, OCO leg, take-profit or stop-loss) as GET /v1/orders/active lists it
 * (docs/protocol.md "Trigger object"): only pending legs are listed; fired and cancelled ones are not.
 */
export interface TruthTrigger {
  readonly triggerId: string;
  /** The contract that owns it. */
  readonly account: string;
  readonly marketId: string;
  readonly turbo: boolean;
  readonly side: string;
  readonly triggerPrice: bigint;
  /** The kind it fires as (`Market`, `MarketBounded`, `Spot`): the key of its `order_type`. */
  readonly kind: string;
  /** Its own quantity, or null when it is sized from its parent. */
  readonly quantity: bigint | null;
  readonly parentOrderId: string | null;
  readonly ocoId: string | null;
}

/** What rests on the exchange for some accounts: open orders and pending trigger legs, every book read. */
export interface RestingState {
  readonly open: readonly TruthOrder[];
  readonly triggers: readonly TruthTrigger[];
}

interface WireTrigger {
  order_id: string;
  market_id?: string;
  side: string;
  trigger_price: string;
  order_type: Record<string, unknown> | string;
  /** `{Quantity: {quantity}}`, or `{ParentOrder: {parent_order_id}}` for a leg sized from its parent. */
  quantity?: { Quantity?: { quantity: string }; ParentOrder?: { parent_order_id: string } } | null;
  state?: string;
  parent_order_id?: string | null;
  oco_order_id?: string | null;
}

type WireActiveEntry = ({ kind: 'order'; order_id: string; order: WireOrder; triggers?: WireTrigger[] }) | ({ kind: 'trigger' } & WireTrigger);

function toTruthTrigger(leg: WireTrigger, marketId: string, turbo: boolean, account: string): TruthTrigger {
  return {
    triggerId: leg.order_id,
    account,
    marketId: leg.market_id ?? marketId,
    turbo,
    side: leg.side,
    triggerPrice: BigInt(leg.trigger_price),
    kind: typeof leg.order_type === 'string' ? leg.order_type : (Object.keys(leg.order_type)[0] ?? '?'),
    quantity: leg.quantity?.Quantity === undefined ? null : BigInt(leg.quantity.Quantity.quantity),
    parentOrderId: leg.parent_order_id ?? null,
    ocoId: leg.oco_order_id ?? null,
  };
}

/** Newest first; equal times by order id, higher first (as the app pages them). */
export function compareTruthOrders(left: TruthOrder, right: TruthOrder): number {
  if (left.timestamp !== right.timestamp) return left.timestamp > right.timestamp ? -1 : 1;
  return left.orderId < right.orderId ? 1 : left.orderId > right.orderId ? -1 : 0;
}

/** How many orders of each source (account and book) the first page of History and Fills reads. */
export const HISTORY_PAGE = 50;

export class Truth {
  /**
   * `hidden`: order ids this view of the exchange leaves out of the orders and open orders it
   * reads (the children main signs for execution algorithms, which act on their own clock: the
   * postconditions of the trader's other steps must not count them as that step's doing).
   * `everything()` reads them all (the screen oracle, the algorithms' own checks).
   */
  constructor(
    private readonly base: string,
    private readonly markets: readonly Market[],
    private readonly hidden?: () => Promise<ReadonlySet<string>>,
  ) {}

  /** The same exchange with nothing left out. */
  everything(): Truth {
    return this.hidden === undefined ? this : new Truth(this.base, this.markets);
  }

  private async shown(): Promise<(order: TruthOrder) => boolean> {
    if (this.hidden === undefined) return () => true;
    const hidden = await this.hidden();
    return (order) => !hidden.has(order.orderId);
  }

  private async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.base}${path}`, { signal: AbortSignal.timeout(10_000) });
    const body = (await response.json()) as T;
    if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
    return body;
  }

  /** Whether the exchange knows this trading account (a restarted sandbox forgets everyone). */
  async accountExists(contract: string): Promise<boolean> {
    const body = await this.get<{ trade_account_id: string | null }>(`/v1/accounts?trade_account_id=${contract}`).catch(() => ({ trade_account_id: null }));
    return body.trade_account_id !== null;
  }

  async inside(market: Market, turbo: boolean): Promise<Inside> {
    const tick = 10n ** BigInt(Math.max(0, market.quote.decimals - market.quote.max_precision));
    const body = await this.get<{ view?: { buys: { price: string }[]; sells: { price: string }[] } }>(
      `/v1/depth?market_id=${market.market_id}&precision=${tick}&depth=1${turbo ? '&turbo=true' : ''}`,
    );
    const bid = body.view?.buys[0]?.price;
    const ask = body.view?.sells[0]?.price;
    return { bid: bid === undefined ? null : BigInt(bid), ask: ask === undefined ? null : BigInt(ask) };
  }

  /** The orders of `contracts` on one book, newest first (at most 200, the first page the app reads too). */
  async orders(market: Market, turbo: boolean, contracts: readonly string[], openOnly: boolean, count = 200): Promise<TruthOrder[]> {
    const all: TruthOrder[] = [];
    for (const contract of contracts) {
      const body = await this.get<{ orders: WireOrder[] }>(
        `/v1/orders?market_id=${market.market_id}&contract=${contract}&direction=desc&count=${count}${openOnly ? '&is_open=true' : ''}${turbo ? '&turbo=true' : ''}`,
      ).catch((error: unknown) => {
        // A book the account never used, or a market without a Turbo book.
        if (/HTTP 404/.test(String(error))) return { orders: [] };
        throw error;
      });
      for (const order of body.orders) all.push(toTruthOrder(order, market.market_id, turbo, contract));
    }
    return all.filter(await this.shown());
  }

  /**
   * The newest orders of a market across its sources (each account on each book), as one page:
   * every source's newest HISTORY_PAGE orders, cut where the fullest-reaching source that has more
   * stops (so no order newer than the cut is left out), newest first.
   */
  async historyPage(market: Market, sources: readonly { contract: string; turbo: boolean }[]): Promise<TruthOrder[]> {
    const pages: { orders: TruthOrder[]; more: boolean }[] = [];
    for (const source of sources) {
      const orders = await this.orders(market, source.turbo, [source.contract], false, HISTORY_PAGE);
      pages.push({ orders, more: orders.length >= HISTORY_PAGE });
    }
    let threshold: TruthOrder | undefined;
    for (const page of pages) {
      const last = page.orders.at(-1);
      if (page.more && last !== undefined && (threshold === undefined || compareTruthOrders(last, threshold) < 0)) threshold = last;
    }
    const kept = pages.flatMap((page) => (threshold === undefined ? page.orders : page.orders.filter((order) => compareTruthOrders(order, threshold) <= 0)));
    return kept.sort(compareTruthOrders);
  }

  /**
   * The account's position on every book, from every trade it made there (GET
   * /v1/trades_by_account, newest first, 50 a page, paged to the end: the account's own side, order
   * and fee of each), by the oracle's own model of the accounting (ledger.ts: size, basis, realized
   * P&L and fees, raw). A fill's place in its order is its place among that order's trades, oldest
   * first (docs/protocol.md "One fill source"). Keyed by market id, with `:turbo` for a Turbo book;
   * books with no fill are left out.
   */
  async positions(contract: string, turboMarkets: readonly string[]): Promise<Map<string, LedgerPosition>> {
    const out = new Map<string, LedgerPosition>();
    for (const market of this.markets) {
      for (const turbo of turboMarkets.includes(market.market_id) ? [false, true] : [false]) {
        const trades = await this.accountTrades(market.market_id, contract, turbo);
        const placed = new Map<string, number>();
        const fills: LedgerFill[] = trades.map((trade) => {
          const order = trade.order_id.toLowerCase();
          const index = placed.get(order) ?? 0;
          placed.set(order, index + 1);
          if (trade.account_side !== 'Buy' && trade.account_side !== 'Sell') throw new Error(`trade ${trade.trade_id} has side ${JSON.stringify(trade.account_side)}`);
          return { side: trade.account_side, price: BigInt(trade.price), quantity: BigInt(trade.quantity), fee: BigInt(trade.fee), timestamp: BigInt(trade.timestamp), orderId: order, index };
        });
        if (fills.length > 0) out.set(`${market.market_id}${turbo ? ':turbo' : ''}`, ledgerPosition(fills, market.base.decimals));
      }
    }
    return out;
  }

  /** Every trade of `contract` on one book, oldest first (GET /v1/trades_by_account, paged to the end). */
  async accountTrades(marketId: string, contract: string, turbo: boolean): Promise<WireAccountTrade[]> {
    const trades: WireAccountTrade[] = [];
    let cursor = '';
    for (;;) {
      const body = await this.get<{ trades: WireAccountTrade[] }>(`/v1/trades_by_account?market_id=${marketId}&contract=${contract}&direction=desc&count=50${cursor}${turbo ? '&turbo=true' : ''}`).catch((error: unknown) => {
        if (/HTTP 404/.test(String(error))) return { trades: [] as WireAccountTrade[] };
        throw error;
      });
      const last = body.trades.at(-1);
      const fresh = body.trades.filter((trade) => cursor === '' || !cursor.endsWith(`=${trade.trade_id}`));
      trades.push(...fresh);
      if (body.trades.length < 50 || fresh.length === 0 || last === undefined) break;
      cursor = `&start_timestamp=${last.timestamp}&start_trade_id=${last.trade_id}`;
    }
    return trades.reverse();
  }

  /**
   * A Turbo Account's margin truth: the state, the account's open orders on the Turbo books, and
   * the state again; kept only when both states carry the same sequence (no margin activity, price
   * move included, between the reads), else read again (null after a few tries, or without a state).
   */
  async marginRisk(account: string, turboBooks: readonly Market[]): Promise<MarginTruth | null> {
    const state = () =>
      this.get<WireMarginState>(`/v1/margin/state?account=${account}`).catch((error: unknown) => {
        if (/HTTP 4\d\d/.test(String(error))) return null;
        throw error;
      });
    for (let attempt = 0; attempt < 4; attempt++) {
      const before = await state();
      if (before === null) return null;
      const open: { side: string; price: bigint; quantity: bigint; filled: bigint; market: Market }[] = [];
      for (const market of turboBooks) for (const order of await this.orders(market, true, [account], true)) open.push({ side: order.side, price: order.price, quantity: order.quantity, filled: order.filled, market });
      const after = await state();
      if (after === null) return null;
      if (before.sequence === after.sequence) return marginTruthOf(after, open);
    }
    return null;
  }

  /** The newest trades of a book (GET /v1/trades, one page of 50), newest first. */
  async trades(market: Market, turbo: boolean): Promise<TruthTrade[]> {
    const body = await this.get<{ trades: { trade_id: string | number; side: string; price: string; quantity: string; timestamp: string }[] }>(
      `/v1/trades?market_id=${market.market_id}&direction=desc&count=50${turbo ? '&turbo=true' : ''}`,
    );
    return body.trades.map((trade) => ({ tradeId: String(trade.trade_id), side: trade.side, price: BigInt(trade.price), quantity: BigInt(trade.quantity), timestamp: BigInt(trade.timestamp) }));
  }

  async openOrders(contracts: readonly string[], turboMarkets: readonly string[]): Promise<TruthOrder[]> {
    const all: TruthOrder[] = [];
    for (const market of this.markets) {
      all.push(...(await this.orders(market, false, contracts, true)));
      if (turboMarkets.includes(market.market_id)) all.push(...(await this.orders(market, true, contracts, true)));
    }
    return all;
  }

  /**
   * Open orders and pending trigger legs of `contracts` on every book (or the books of one market),
   * from GET /v1/orders/active: one read per account and book gives both, so an order and the legs
   * bound to it are seen at the same moment.
   */
  async resting(contracts: readonly string[], turboMarkets: readonly string[], onlyMarketId?: string): Promise<RestingState> {
    const open: TruthOrder[] = [];
    const triggers: TruthTrigger[] = [];
    for (const market of this.markets) {
      if (onlyMarketId !== undefined && market.market_id !== onlyMarketId) continue;
      for (const turbo of turboMarkets.includes(market.market_id) ? [false, true] : [false]) {
        for (const contract of contracts) {
          const body = await this.get<{ entries: WireActiveEntry[] }>(`/v1/orders/active?market_id=${market.market_id}&contract=${contract}${turbo ? '&turbo=true' : ''}`).catch((error: unknown) => {
            if (/HTTP 404/.test(String(error))) return { entries: [] as WireActiveEntry[] };
            throw error;
          });
          for (const entry of body.entries) {
            if (entry.kind === 'order') {
              open.push(toTruthOrder(entry.order, market.market_id, turbo, contract));
              for (const leg of entry.triggers ?? []) triggers.push(toTruthTrigger(leg, market.market_id, turbo, contract));
            } else {
              triggers.push(toTruthTrigger(entry, market.market_id, turbo, contract));
            }
          }
        }
      }
    }
    return { open: open.filter(await this.shown()), triggers };
  }

  /** One order by id on one book (any account), or null when the exchange has no such order. */
  async order(marketId: string, turbo: boolean, orderId: string): Promise<TruthOrder | null> {
    const body = await this.get<{ order: WireOrder & { owner?: { ContractId?: string } } }>(`/v1/order?market_id=${marketId}&order_id=${orderId}${turbo ? '&turbo=true' : ''}`).catch((error: unknown) => {
      if (/HTTP 404/.test(String(error))) return null;
      throw error;
    });
    return body === null ? null : toTruthOrder(body.order, marketId, turbo, body.order.owner?.ContractId ?? '');
  }

  async balances(contract: string): Promise<TruthBalance[]> {
    const assets = new Set<string>();
    for (const market of this.markets) {
      assets.add(market.base.asset);
      assets.add(market.quote.asset);
    }
    const turboRows = await this.get<{ markets: { market_id: string; contract_id: string }[] }>('/v1/markets?turbo=true').catch(() => ({ markets: [] }));
    const turboByContract = new Map(turboRows.markets.map((row) => [row.contract_id.toLowerCase(), row.market_id]));
    const balances: TruthBalance[] = [];
    for (const assetId of assets) {
      const body = await this.get<{ trading_account_balance: string; total_locked: string; total_unlocked: string; order_books: Record<string, { locked: string; unlocked: string }> }>(
        `/v1/balance?contract=${contract}&asset_id=${assetId}`,
      );
      const books = new Map<string, { locked: bigint; unlocked: bigint }>();
      for (const [key, book] of Object.entries(body.order_books)) {
        const turboMarket = turboByContract.get(key.toLowerCase());
        books.set(turboMarket ? `${turboMarket}:turbo` : key, { locked: BigInt(book.locked), unlocked: BigInt(book.unlocked) });
      }
      balances.push({ assetId, onAccount: BigInt(body.trading_account_balance), locked: BigInt(body.total_locked), unlocked: BigInt(body.total_unlocked), books });
    }
    return balances;
  }
}

function toTruthOrder(order: WireOrder, marketId: string, turbo: boolean, account: string): TruthOrder {
  const filled = BigInt(order.quantity_fill ?? '0');
  const status = order.cancel === true ? 'cancelled' : order.close === true ? 'filled' : filled > 0n || order.partially_filled === true ? 'partially-filled' : 'open';
  return {
    orderId: order.order_id,
    timestamp: BigInt(order.timestamp ?? '0'),
    account,
    marketId: order.market_id ?? marketId,
    turbo,
    side: order.side,
    kind: typeof order.order_type === 'string' ? order.order_type : (Object.keys(order.order_type)[0] ?? '?'),
    price: BigInt(order.price),
    quantity: BigInt(order.quantity),
    filled,
    averagePrice: BigInt(order.price_fill ?? '0'),
    status,
    fills: (order.fills ?? []).map((fill) => ({ price: BigInt(fill.price), quantity: BigInt(fill.quantity), fee: BigInt(fill.fee) })),
  };
}
