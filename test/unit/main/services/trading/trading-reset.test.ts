// What the trading service holds is forgotten on a reset (the trading account changed, or the
// exchange restarted and forgot it). A read or a request begun before the reset and answered after
// it carries the state before: applied, it put the forgotten account's open orders and balances
// back in lists just emptied, and with the same account set up again (a restarted sandbox gives the
// owner the same trading account id) nothing took them out, as every later read of the open orders
// reads them once by id and keeps an order whose read gets no answer.
import { describe, expect, it } from 'vitest';
import { TradingService, type TradingServiceDeps } from '../../../../../main/services/trading/trading-service';
import type { Order } from '../../../../../shared/api/market-schemas';
import type { BalanceView, OrdersSnapshot } from '../../../../../shared/ipc/views';
import { fail, ok, type Result } from '../../../../../shared/result';

const ACCOUNT = `0x${'22'.repeat(32)}`;
const MARKET = `0x${'a1'.repeat(32)}`;
const USDC = `0x${'11'.repeat(32)}`;

const restingOrder = (id: string): Order =>
  ({
    order_id: id,
    market_id: MARKET,
    owner: { ContractId: ACCOUNT },
    side: 'Sell',
    order_type: { kind: 'Limit' },
    price: 3_003_100_000_000n,
    quantity: 1_100_000n,
    quantity_fill: 0n,
    timestamp: 1_700_000_000n,
    fills: [],
  }) as unknown as Order;

/** A REST client whose answers wait until the test lets them go. */
function held() {
  const waiting: (() => void)[] = [];
  /** The answer is the exchange's state when the request reaches it; it arrives when released. */
  const hold = <T>(answer: T): Promise<T> => new Promise((resolve) => waiting.push(() => resolve(answer)));
  const release = async () => {
    for (let round = 0; round < 20; round++) {
      while (waiting.length > 0) waiting.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { hold, release, pending: () => waiting.length };
}

function service(options: { exchangeOrders: () => Order[]; exchangeBalance: () => bigint; submit?: () => Promise<Result<{ journalId: string; txId: string; orders: unknown[] }>> }) {
  const { hold, release, pending } = held();
  const pushed: OrdersSnapshot[] = [];
  const deps = {
    rest: {
      getOrders: () => hold(ok({ orders: options.exchangeOrders() })),
      getOrder: () => hold(fail('TIMEOUT', 'no answer')),
      getBalance: () => hold(ok({ trading_account_balance: options.exchangeBalance(), total_locked: 0n, total_unlocked: 0n, order_books: {} })),
    },
    markets: () => ({
      markets: () => [{ market_id: MARKET }],
      turboMarkets: () => [],
      assets: () => [{ assetId: USDC, symbol: 'USDC', decimals: 6 }],
      market: () => ok({ market_id: MARKET, base: { symbol: 'ETH', decimals: 9 }, quote: { symbol: 'USDC', decimals: 6 } }),
    }),
    accounts: {
      // The same id before and after: the restarted exchange gave the owner the same account.
      accountRecord: () => ({ tradeAccountId: ACCOUNT }),
      tradingIdentity: () => ok({ owner: ACCOUNT, tradeAccountId: ACCOUNT, sessionAddress: ACCOUNT }),
      setFunded: () => undefined,
    },
    submitter: { submit: options.submit ?? (() => Promise.resolve(fail('NOT_HERE', ''))) },
    loadSessionKey: () => Promise.resolve(ok(undefined)),
    nowSeconds: () => 1_700_000_000n,
    publishOrders: (snapshot: OrdersSnapshot) => pushed.push(snapshot),
    publishBalances: (_: readonly BalanceView[]) => undefined,
    publishFill: () => undefined,
    notice: () => undefined,
    log: () => undefined,
  } as unknown as TradingServiceDeps;
  return { trading: new TradingService(deps), release, pending, pushed };
}

describe('trading service: answers begun before a reset', () => {
  it("a read of the open orders and balances answered after the reset applies nothing of the forgotten exchange's state", async () => {
    let exchange: Order[] = [restingOrder(`0x${'0d'.repeat(32)}`), restingOrder(`0x${'0e'.repeat(32)}`)];
    let funds = 1_000_000_000n;
    const { trading, release, pending, pushed } = service({ exchangeOrders: () => exchange, exchangeBalance: () => funds });
    // The read goes out to the exchange before it restarts: its answer is of the old state…
    const read = trading.refresh();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pending()).toBe(1);
    exchange = [];
    funds = 0n;
    // …the exchange restarts empty and main resets its state before that answer is applied.
    trading.reset();
    await release();
    await read;
    expect(trading.snapshot().open).toEqual([]);
    expect(trading.balancesView()).toEqual([]);
    expect(pushed.at(-1)?.open ?? []).toEqual([]);
    // A read begun after the reset reads the new state as usual.
    const fresh = trading.refresh();
    await release();
    await fresh;
    expect(trading.snapshot().open).toEqual([]);
    expect(trading.balancesView().map((balance) => balance.onAccount)).toEqual([0n]);
  });

  it("a placement answered after the reset does not put its order in the reset list", async () => {
    let answer: (() => void) | null = null;
    const submit = () =>
      new Promise<Result<{ journalId: string; txId: string; orders: unknown[] }>>((resolve) => {
        answer = () => resolve(ok({ journalId: 'j1', txId: '0x01', orders: [restingOrder(`0x${'0f'.repeat(32)}`)] }));
      });
    const { trading, release } = service({ exchangeOrders: () => [], exchangeBalance: () => 0n, submit });
    const placing = trading.placeOrder({ marketId: MARKET, turbo: false, side: 'Sell', orderType: { kind: 'Limit' }, price: 3_003_100_000_000n, quantity: 1_100_000n });
    for (let round = 0; round < 10 && answer === null; round++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(answer).not.toBeNull();
    trading.reset();
    answer!();
    const placed = await placing;
    await release();
    // The trader is told what the exchange answered; the lists are the new state's.
    expect(placed.ok && placed.value.orders.map((view) => view.orderId)).toEqual([`0x${'0f'.repeat(32)}`]);
    expect(trading.snapshot().open).toEqual([]);
    expect(trading.lastPlacedOpen()).toBeNull();
  });
});
