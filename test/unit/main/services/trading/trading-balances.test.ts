// The trading account's balances come from two places: the stream pushes changes, REST reads
// rebuild everything (start, reconnect, after each request). A REST read that began before a
// change (the faucet's mint) must not overwrite the stream's newer figure with the old one (the
// ticket's Available would stay 0 and its Buy disabled).
import { describe, expect, it } from 'vitest';
import { TradingService, type TradingServiceDeps } from '../../../../../main/services/trading/trading-service';
import type { BalanceView } from '../../../../../shared/ipc/views/trading';
import { ok } from '../../../../../shared/result';

const USDC = `0x${'11'.repeat(32)}`;
const ACCOUNT = `0x${'22'.repeat(32)}`;

function service() {
  let onExchange = 0n;
  const reads: ((balance: bigint) => void)[] = [];
  const published: (readonly BalanceView[])[] = [];
  const deps = {
    rest: {
      getOrders: async () => ok({ orders: [] }),
      getBalance: () => {
        const seen = onExchange; // the read sees what the exchange holds when it starts
        return new Promise((resolve) => reads.push(() => resolve(ok({ trading_account_balance: seen, total_locked: 0n, total_unlocked: seen, order_books: {} }))));
      },
    },
    markets: () => ({ markets: () => [], turboMarkets: () => [], assets: () => [{ assetId: USDC, symbol: 'USDC', decimals: 6 }] }),
    accounts: { accountRecord: () => ({ tradeAccountId: ACCOUNT }), setFunded: () => undefined },
    publishBalances: (balances: readonly BalanceView[]) => published.push(balances),
    publishOrders: () => undefined,
    log: () => undefined,
  } as unknown as TradingServiceDeps;
  const trading = new TradingService(deps);
  const view = (amount: bigint): BalanceView => ({ assetId: USDC, symbol: 'USDC', decimals: 6, onAccount: amount, locked: 0n, unlocked: amount, books: [] });
  const answerReads = async () => {
    for (let round = 0; round < 10; round++) {
      while (reads.length > 0) reads.shift()!(0n);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { trading, view, answerReads, mint: (amount: bigint) => (onExchange += amount), usdc: () => trading.balancesView().find((balance) => balance.assetId === USDC)?.unlocked };
}

describe('trading account balances: stream and REST reads', () => {
  it('keeps the funds the stream reported when a read begun before the mint answers afterwards', async () => {
    const { trading, view, answerReads, mint, usdc } = service();
    const early = trading.refresh(); // e.g. on the account's creation, before the mint
    await new Promise((resolve) => setTimeout(resolve, 0));
    mint(1_000_000_000n);
    trading.applyBalances([view(1_000_000_000n)]); // the stream's push after the mint
    await answerReads();
    await early;
    expect(usdc()).toBe(1_000_000_000n);
  });

  it('the refresh asked for after the mint reads after it, even while an earlier read is running', async () => {
    const { trading, answerReads, mint, usdc } = service();
    const early = trading.refresh();
    await new Promise((resolve) => setTimeout(resolve, 0));
    mint(1_000_000_000n); // and no stream push at all (the stream was down)
    const afterMint = trading.refresh();
    await answerReads();
    await Promise.all([early, afterMint]);
    expect(usdc()).toBe(1_000_000_000n);
  });

  it('a read begun after the stream update replaces it (REST is then the newer truth)', async () => {
    const { trading, view, answerReads, mint, usdc } = service();
    trading.applyBalances([view(7n)]);
    mint(1_000_000_000n);
    const read = trading.refresh();
    await answerReads();
    await read;
    expect(usdc()).toBe(1_000_000_000n);
  });
});
