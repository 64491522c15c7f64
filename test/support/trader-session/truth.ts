// The exchange's truth, read over the sandbox's public REST API (the same answers any client
// gets), for the oracle to hold the screen to. Money stays bigint; nothing here is formatted.
import type { Market } from '../../../shared/market/market';

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
  fills?: { price: string; quantity: string; fee: string }[];
  timestamp?: string;
}

/** Newest first; equal times by order id, higher first (as the app pages them). */
export function compareTruthOrders(left: TruthOrder, right: TruthOrder): number {
  if (left.timestamp !== right.timestamp) return left.timestamp > right.timestamp ? -1 : 1;
  return left.orderId < right.orderId ? 1 : left.orderId > right.orderId ? -1 : 0;
}

/** How many orders of each source (account and book) the first page of History and Fills reads. */
export const HISTORY_PAGE = 50;

export class Truth {
  constructor(
    private readonly base: string,
    private readonly markets: readonly Market[],
  ) {}

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
    return all;
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
   * The account's position on every book, from every fill of every order it ever placed there
   * (GET /v1/orders, all orders, paged to the end): base received minus base sold, raw. Keyed by market
   * id, with `:turbo` for a Turbo book; books with no fill are left out.
   */
  async positions(contract: string, turboMarkets: readonly string[]): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    for (const market of this.markets) {
      for (const turbo of turboMarkets.includes(market.market_id) ? [false, true] : [false]) {
        let size = 0n;
        let filledAny = false;
        let cursor = '';
        const seen = new Set<string>();
        for (;;) {
          const body = await this.get<{ orders: WireOrder[] }>(
            `/v1/orders?market_id=${market.market_id}&contract=${contract}&direction=desc&count=200${cursor}${turbo ? '&turbo=true' : ''}`,
          ).catch((error: unknown) => {
            if (/HTTP 404/.test(String(error))) return { orders: [] as WireOrder[] };
            throw error;
          });
          let fresh = 0;
          for (const order of body.orders) {
            if (seen.has(order.order_id)) continue;
            seen.add(order.order_id);
            fresh++;
            const fills = order.fills ?? [];
            if (fills.length === 0) continue;
            filledAny = true;
            // As the ledger moves it (docs/protocol.md, "Positions and P&L"): a buy of q with fee f
            // gives q - f base (a buy pays its fee in base); a sale of q gives up q base.
            for (const fill of fills) size += order.side === 'Buy' ? BigInt(fill.quantity) - BigInt(fill.fee) : -BigInt(fill.quantity);
          }
          const last = body.orders.at(-1);
          if (body.orders.length < 200 || fresh === 0 || last === undefined) break;
          cursor = `&start_timestamp=${last.timestamp ?? '0'}&start_order_id=${last.order_id}`;
        }
        if (filledAny) out.set(`${market.market_id}${turbo ? ':turbo' : ''}`, size);
      }
    }
    return out;
  }

  /** A Turbo Account's drawn quote (GET /v1/margin/state), in its collateral asset; null without a session. */
  async marginDrawn(account: string): Promise<{ drawn: bigint; decimals: number; symbol: string } | null> {
    const state = await this.get<{ session?: { quote_drawn?: string } | null; collateral_asset_id?: string }>(`/v1/margin/state?account=${account}`).catch((error: unknown) => {
      if (/HTTP 4\d\d/.test(String(error))) return { session: null };
      throw error;
    });
    if (!state.session || state.session.quote_drawn === undefined) return null;
    const asset = state.collateral_asset_id?.toLowerCase();
    const market = this.markets.find((row) => row.quote.asset.toLowerCase() === asset) ?? this.markets.find((row) => row.base.asset.toLowerCase() === asset);
    const side = market?.quote.asset.toLowerCase() === asset ? market?.quote : market?.base;
    return { drawn: BigInt(state.session.quote_drawn), decimals: side?.decimals ?? 0, symbol: side?.symbol ?? '?' };
  }

  async openOrders(contracts: readonly string[], turboMarkets: readonly string[]): Promise<TruthOrder[]> {
    const all: TruthOrder[] = [];
    for (const market of this.markets) {
      all.push(...(await this.orders(market, false, contracts, true)));
      if (turboMarkets.includes(market.market_id)) all.push(...(await this.orders(market, true, contracts, true)));
    }
    return all;
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
