// Positions against a real sandbox: the size and the cash the accounting derives from the fills
// agree with what the exchange's own balances moved by, realized + unrealized is the
// mark-to-market, and flatten closes the position in one signed batch whose orders the exchange
// holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';

interface BalanceBody {
  trading_account_balance: string;
  order_books?: Record<string, { locked: string; unlocked: string }>;
}

describe('positions from the fills, against the sandbox', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  /** Everything the account holds of an asset, on the account and in every book, per the exchange. */
  const holding = async (assetId: string): Promise<bigint> => {
    const body = (await (await fetch(`${harness.base()}/v1/balance?contract=${tradeAccountId}&asset_id=${assetId}`)).json()) as BalanceBody;
    let total = BigInt(body.trading_account_balance);
    for (const book of Object.values(body.order_books ?? {})) total += BigInt(book.locked) + BigInt(book.unlocked);
    return total;
  };

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded());
    // The mark is compared with a later read of the book: a walking maker could move the bid in
    // between (it did under load), so the book holds still at known prices.
    expect(await harness.control('/control/maker', { pinned: true })).toEqual({ pinned: true });
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('has no position before the first fill', async () => {
    const view = value(await harness.terminal.handlers.getPositions({}, caller));
    expect(view.positions).toEqual([]);
    expect(view.problems).toEqual([]);
  });

  it('derives size and cash from the fills exactly as the exchange moved the balances, and flattens in one batch', async () => {
    const h = harness.terminal.handlers;
    const baseBefore = await holding(market.base.asset);
    const quoteBefore = await holding(market.quote.asset);
    const tick = harness.priceTick(market);

    // Two buys that take the ask, then a partial sale into the bid.
    for (let round = 0; round < 2; round++) {
      const inside = await harness.insidePrices(market);
      const taken = value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ((inside.ask * 102n) / 100n / tick) * tick, quantity: harness.sizeFor(market, inside.ask) * 3n }, caller));
      expect(taken.orders[0]!.filled).toBeGreaterThan(0n);
    }
    const inside = await harness.insidePrices(market);
    const sold = value(await h.placeOrder({ marketId: market.market_id, side: 'Sell', orderType: { kind: 'Spot' }, price: ((inside.bid * 98n) / 100n / tick) * tick, quantity: harness.sizeFor(market, inside.bid) }, caller));
    expect(sold.orders[0]!.filled).toBeGreaterThan(0n);
    // Nothing rests: the balances below are settled positions, not locks.
    value(await h.cancelAllOrders({}, caller));

    const view = value(await h.getPositions({}, caller));
    expect(view.problems).toEqual([]);
    const position = view.positions.find((candidate) => candidate.marketId === market.market_id && !candidate.turbo)!;
    expect(position).toBeDefined();
    expect(position.account).toBe(tradeAccountId);
    expect(position.accountKind).toBe('trading');
    expect(position.fills).toBeGreaterThanOrEqual(3);
    // The exchange's balances moved by exactly the position and its cash.
    expect(position.size).toBe((await holding(market.base.asset)) - baseBefore);
    expect(position.size).toBeGreaterThan(0n);
    const cash = (await holding(market.quote.asset)) - quoteBefore;
    // realized + unrealized = cash + mark value of the position (a long marked down at the bid)
    expect(position.markSide).toBe('bid');
    expect(position.mark).toBe((await harness.insidePrices(market)).bid);
    const markValue = (position.size * position.mark!) / 10n ** BigInt(market.base.decimals);
    expect(position.realized + position.unrealized!).toBe(cash + markValue);
    expect(position.averageEntry).toBeGreaterThan(0n);
    expect(position.feesBase).toBeGreaterThan(0n);

    // The close plan the confirmation states: the position floored to the step (the buys paid
    // their fees in base, so the position is finer than the step), and the remainder it leaves.
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    expect(position.size % step).not.toBe(0n);
    expect(position.close).toMatchObject({ side: 'Sell', quantity: (position.size / step) * step, remainder: position.size % step, refusal: null, notClosable: false });
    expect(position.close.remainderReason).toMatch(/^leaves 0\.0000\d+ ETH, below the 0\.0001 ETH size step: no order can close it$/);

    // A confirmation that stated another size than the close main computes now sends nothing.
    const stale = value(await h.flattenPositions({ positions: [{ marketId: market.market_id, turbo: false, account: tradeAccountId, quantity: position.close.quantity - step }] }, caller));
    expect(stale.batches).toBe(0);
    expect(stale.placed).toEqual([]);
    expect(stale.failed[0]!.reason).toMatch(/changed since the confirmation: the close would now be [\d.]+ ETH, not the [\d.]+ ETH confirmed; nothing was sent/);

    // Flatten: one signed batch, a sell of exactly the size the confirmation stated.
    const report = value(await h.flattenPositions({ positions: [{ marketId: market.market_id, turbo: false, account: tradeAccountId, quantity: position.close.quantity }] }, caller));
    expect(report.failed).toEqual([]);
    expect(report.batches).toBe(1);
    expect(report.placed).toHaveLength(1);
    const closeId = report.placed[0]!.orderIds[0]!;
    expect(closeId).toMatch(/^0x[0-9a-f]{64}$/);
    const ledger = await harness.ledgerOrders(market.market_id);
    const close = ledger.find((order) => order.order_id === closeId)!;
    expect(close.side).toBe('Sell');
    expect(BigInt(close.quantity)).toBe(position.close.quantity);
    expect(report.placed[0]!).toMatchObject({ quantity: position.close.quantity, remainder: position.close.remainder });

    const after = await until(async () => {
      const next = value(await h.getPositions({}, caller));
      const row = next.positions.find((candidate) => candidate.marketId === market.market_id && !candidate.turbo);
      return row && row.fills > position.fills ? row : null;
    });
    // What is left on the exchange is exactly the remainder the plan stated; it is still a row,
    // marked as what no order can close.
    expect((await holding(market.base.asset)) - baseBefore).toBe(position.close.remainder);
    expect(after.size).toBe(position.close.remainder);
    expect(after.notClosable).toMatch(/below the 0\.0001 ETH size step: no order can close it$/);
    expect(after.close).toMatchObject({ quantity: 0n, remainder: position.close.remainder, notClosable: true });
    expect(after.realized).not.toBe(position.realized);
    const journal = value(await h.getJournal({ limit: 5 }, caller));
    expect(journal.some((entry) => entry.kind === 'signed' && /Flatten .* Canonical as trading account/.test(entry.description ?? ''))).toBe(true);
  }, 120_000);

  it('refuses to flatten what has no position, naming why', async () => {
    const other = (value(await harness.terminal.handlers.listMarkets({}, caller)).markets as Market[]).find((candidate) => candidate.market_id !== market.market_id)!;
    const report = value(await harness.terminal.handlers.flattenPositions({ positions: [{ marketId: other.market_id, turbo: false, account: tradeAccountId }] }, caller));
    expect(report.batches).toBe(0);
    expect(report.failed).toEqual([{ marketId: other.market_id, turbo: false, account: tradeAccountId, reason: 'no position on this book for this account' }]);
  });
});
