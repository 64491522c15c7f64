// A partial close and a reverse against a real sandbox: closing 50 % sends one order of exactly
// the share main's plan states (floored to the size step) and leaves the rest as the position; a
// reverse is one signed batch of two orders of the closed size, after which the exchange holds
// the opposite position the plan stated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import type { PositionView } from '../../../shared/ipc/views';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';

interface BalanceBody {
  trading_account_balance: string;
  order_books?: Record<string, { locked: string; unlocked: string }>;
}

describe('partial close and reverse, against the sandbox', () => {
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

  const row = async (after = -1): Promise<PositionView> =>
    until(async () => {
      const view = value(await harness.terminal.handlers.getPositions({}, caller));
      const found = view.positions.find((candidate) => candidate.marketId === market.market_id && !candidate.turbo);
      return found && found.fills > after ? found : null;
    });

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded());
    // Plans are compared with the book read later: the book holds still at known prices.
    expect(await harness.control('/control/maker', { pinned: true })).toEqual({ pinned: true });
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('closes 50 % with one order of the stated share and leaves the rest, then reverses in one batch', async () => {
    const h = harness.terminal.handlers;
    const tick = harness.priceTick(market);
    const inside = await harness.insidePrices(market);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ((inside.ask * 102n) / 100n / tick) * tick, quantity: harness.sizeFor(market, inside.ask) * 4n }, caller));
    value(await h.cancelAllOrders({}, caller));
    const position = await row();
    expect(position.size).toBeGreaterThan(0n);
    const half = position.partials.find((plan) => plan.percent === 50)!;
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    expect(half).toMatchObject({ side: 'Sell', refusal: null, requested: position.size / 2n });
    expect(half.quantity % step).toBe(0n);
    expect(half.quantity + half.remainder).toBe(position.size);

    const baseBefore = await holding(market.base.asset);
    const report = value(await h.flattenPositions({ positions: [{ marketId: market.market_id, turbo: false, account: tradeAccountId, quantity: half.quantity, percent: 50 }] }, caller));
    expect(report.failed).toEqual([]);
    expect(report.batches).toBe(1);
    expect(report.placed[0]).toMatchObject({ quantity: half.quantity, remainder: half.remainder });
    const ledger = await harness.ledgerOrders(market.market_id);
    const sold = ledger.find((order) => order.order_id === report.placed[0]!.orderIds[0])!;
    expect(sold.side).toBe('Sell');
    expect(BigInt(sold.quantity)).toBe(half.quantity);
    const afterHalf = await row(position.fills);
    // The exchange holds exactly the rest the plan stated.
    expect((await holding(market.base.asset)) - baseBefore).toBe(-half.quantity);
    expect(afterHalf.size).toBe(half.remainder);
    const journal = value(await h.getJournal({ limit: 5 }, caller));
    expect(journal.some((entry) => entry.kind === 'signed' && /Close 50 % of .* Canonical as trading account/.test(entry.description ?? ''))).toBe(true);

    // Reverse: the close and an opening sell of the same size, in one signed batch.
    const reverse = afterHalf.reverse;
    expect(reverse).toMatchObject({ side: 'Sell', refusal: null, open: afterHalf.close.quantity });
    const beforeReverse = await holding(market.base.asset);
    const reversed = value(await h.reversePosition({ position: { marketId: market.market_id, turbo: false, account: tradeAccountId, quantity: reverse.close.quantity } }, caller));
    expect(reversed.failed).toEqual([]);
    expect(reversed.batches).toBe(1);
    expect(reversed.placed[0]!.orderIds).toHaveLength(2);
    expect(reversed.placed[0]!.remainder).toBe(reverse.after);
    const orders = (await harness.ledgerOrders(market.market_id)).filter((order) => reversed.placed[0]!.orderIds.includes(order.order_id));
    expect(orders.map((order) => [order.side, BigInt(order.quantity)])).toEqual([
      ['Sell', reverse.close.quantity],
      ['Sell', reverse.open],
    ]);
    const short = await row(afterHalf.fills + 1);
    expect((await holding(market.base.asset)) - beforeReverse).toBe(reverse.after - afterHalf.size);
    expect(short.size).toBe(reverse.after);
    expect(short.size).toBeLessThan(0n);
  }, 180_000);

  it('refuses a confirmation whose stated size is not main’s plan, sending nothing', async () => {
    const position = await row();
    const stale = value(await harness.terminal.handlers.reversePosition({ position: { marketId: market.market_id, turbo: false, account: tradeAccountId, quantity: position.reverse.close.quantity + 1n } }, caller));
    expect(stale.batches).toBe(0);
    expect(stale.failed[0]!.reason).toMatch(/changed since the confirmation/);
  });
});
