// The read after a request covers the books the request went to: their open orders and the
// balances of their two assets. Every book and asset is read at start, on a reconnect and after
// main's other changes to the account (refresh). Reading them all after every click put about four order pages and four balance
// reads on main's thread per click with five books, beside the trader's next click.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AFTER_REQUEST_READ_MS, TradingService, type TradingServiceDeps } from '../../../../../main/services/trading/trading-service';
import type { Order } from '../../../../../shared/api/market-schemas';
import type { B256 } from '../../../../../shared/encoding/b256';
import { fail, ok } from '../../../../../shared/result';

const ACCOUNT = `0x${'22'.repeat(32)}`;
const id = (byte: string) => `0x${byte.repeat(32)}` as B256;
const ETH = id('e1');
const USDC = id('c1');
const BTC = id('b1');
const USDT = id('d1');
const asset = (assetId: B256, symbol: string) => ({ asset: assetId, symbol, decimals: 9, max_precision: 4 });
const ETH_USDC = { market_id: id('a1'), contract_id: id('a2'), base: asset(ETH, 'ETH'), quote: asset(USDC, 'USDC') };
const BTC_USDT = { market_id: id('b2'), contract_id: id('b3'), base: asset(BTC, 'BTC'), quote: asset(USDT, 'USDT') };
const MARKETS = [ETH_USDC, BTC_USDT];

const resting = (orderId: B256): Order =>
  ({ order_id: orderId, side: 'Buy', order_type: { kind: 'Limit' }, price: 3_000_000_000_000n, quantity: 1_000_000n, quantity_fill: 0n, timestamp: 1_700_000_000n, fills: [] }) as unknown as Order;

/** A REST client that records what main read; answers wait while `holding` is set. */
function service() {
  const reads: string[] = [];
  let holding = false;
  const waiting: (() => void)[] = [];
  const answer = <T>(value: T): Promise<T> => (holding ? new Promise((resolve) => waiting.push(() => resolve(value))) : Promise.resolve(value));
  const exchangeOrders = new Map<string, Order[]>();
  const deps = {
    rest: {
      getOrders: (query: { market_id: string; turbo?: boolean }) => {
        reads.push(`orders ${query.market_id === ETH_USDC.market_id ? 'ETH/USDC' : 'BTC/USDT'}${query.turbo ? ' turbo' : ''}`);
        return answer(ok({ orders: exchangeOrders.get(query.market_id) ?? [] }));
      },
      getOrder: (query: { order_id: string }) => {
        reads.push(`order ${query.order_id.slice(0, 6)}`);
        return answer(fail('TIMEOUT', 'no answer'));
      },
      getBalance: (query: { asset_id: string }) => {
        reads.push(`balance ${[...MARKETS.flatMap((market) => [market.base, market.quote])].find((one) => one.asset === query.asset_id)?.symbol}`);
        return answer(ok({ trading_account_balance: 5n, total_locked: 0n, total_unlocked: 0n, order_books: {} }));
      },
    },
    markets: () => ({
      markets: () => MARKETS,
      turboMarkets: () => [],
      assets: () => MARKETS.flatMap((market) => [market.base, market.quote]).map((one) => ({ assetId: one.asset, symbol: one.symbol, decimals: one.decimals })),
      market: (marketId: string) => {
        const found = MARKETS.find((market) => market.market_id === marketId);
        return found ? ok(found) : fail('UNKNOWN_MARKET', marketId);
      },
    }),
    accounts: {
      accountRecord: () => ({ tradeAccountId: ACCOUNT }),
      tradingIdentity: () => ok({ owner: ACCOUNT, tradeAccountId: ACCOUNT, sessionAddress: ACCOUNT }),
      setFunded: () => undefined,
    },
    submitter: { submit: () => Promise.resolve(ok({ journalId: 'j', txId: 't', orders: [] })) },
    loadSessionKey: () => Promise.resolve(ok(undefined)),
    nowSeconds: () => 1_700_000_000n,
    publishOrders: () => undefined,
    publishBalances: () => undefined,
    publishFill: () => undefined,
    notice: () => undefined,
    log: () => undefined,
  } as unknown as TradingServiceDeps;
  const trading = new TradingService(deps);
  return {
    trading,
    reads,
    exchangeOrders,
    hold: () => (holding = true),
    release: async () => {
      holding = false;
      for (let round = 0; round < 20; round++) {
        while (waiting.length > 0) waiting.shift()!();
        await vi.advanceTimersByTimeAsync(0);
      }
    },
  };
}

/** Past the wait before the read after a request, and through the read. */
const afterTheRead = () => vi.advanceTimersByTimeAsync(AFTER_REQUEST_READ_MS + 50);

describe('trading service: what the read after a request covers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads the open orders of the book the request went to and the balances of its two assets, nothing else', async () => {
    const { trading, reads } = service();
    expect((await trading.settle(ETH_USDC.market_id, false)).ok).toBe(true);
    expect(reads).toEqual([]);
    await afterTheRead();
    expect(reads).toEqual(['orders ETH/USDC', 'balance ETH', 'balance USDC']);
  });

  it('requests on two books answered within the wait share one read of both', async () => {
    const { trading, reads } = service();
    await trading.settle(ETH_USDC.market_id, false);
    await vi.advanceTimersByTimeAsync(AFTER_REQUEST_READ_MS / 2);
    await trading.settle(BTC_USDT.market_id, false);
    await afterTheRead();
    expect([...reads].sort()).toEqual(['balance BTC', 'balance ETH', 'balance USDC', 'balance USDT', 'orders BTC/USDT', 'orders ETH/USDC']);
    reads.length = 0;
    await afterTheRead();
    expect(reads).toEqual([]);
  });

  it('an order held open on another book is not looked up by it; a full read looks it up', async () => {
    const { trading, reads } = service();
    const other = id('0f');
    trading.applyOrder(resting(other), BTC_USDT.market_id, false);
    await trading.settle(ETH_USDC.market_id, false);
    await afterTheRead();
    expect(reads).toEqual(['orders ETH/USDC', 'balance ETH', 'balance USDC']);
    expect(trading.snapshot().open.map((order) => order.orderId)).toEqual([other]);
    reads.length = 0;
    await trading.refresh();
    // The exchange lists no open order on BTC/USDT: the full read asks for the one held open.
    expect(reads).toEqual(['orders ETH/USDC', 'orders BTC/USDT', `order ${other.slice(0, 6)}`, 'balance ETH', 'balance USDC', 'balance BTC', 'balance USDT']);
  });

  it('refresh (start, reconnect, other changes) asked while a narrow read is running gets a read of every book after it', async () => {
    const { trading, reads, hold, release } = service();
    await trading.settle(ETH_USDC.market_id, false);
    hold();
    await afterTheRead(); // the narrow read begins and waits for its answers
    expect(reads).toEqual(['orders ETH/USDC']);
    let refreshed = false;
    const refresh = trading.refresh().then(() => (refreshed = true));
    await release();
    await refresh;
    expect(refreshed).toBe(true);
    expect(reads).toEqual(['orders ETH/USDC', 'balance ETH', 'balance USDC', 'orders ETH/USDC', 'orders BTC/USDT', 'balance ETH', 'balance USDC', 'balance BTC', 'balance USDT']);
  });

  it('a read after a request that was due when a full read was asked for joins it: every book once', async () => {
    const { trading, reads, hold, release } = service();
    hold();
    const first = trading.refresh(); // running, held
    await trading.settle(BTC_USDT.market_id, false);
    await afterTheRead(); // the narrow read is queued behind the running one
    const second = trading.refresh(); // joins the queued read, which now covers everything
    await release();
    await Promise.all([first, second]);
    const all = ['orders ETH/USDC', 'orders BTC/USDT', 'balance ETH', 'balance USDC', 'balance BTC', 'balance USDT'];
    expect(reads).toEqual([...all, ...all]);
  });
});
