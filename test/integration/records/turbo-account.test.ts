// Records of a Turbo Account against the sandbox: after the selected Turbo Account bought and sold
// on a Turbo book, the daily summary has its own row for that book (its account named, its trades
// the ones GET /v1/trades_by_account lists for it), the fills export holds one row per such trade
// with the Turbo Account's id in the account column and the same raw figures, their realized P&L
// adds up to the Turbo Account's Positions row, and the orders export lists its orders with its id.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { parseCsv } from '../../../shared/records/csv';
import { ACCEPTING_DIALOG, caller, startOnboarded, openTurboSession, turboSetup, value, type Harness } from '../../support/terminal-harness';
import type { WireAccountTrade } from '../../support/trader-session/truth';

describe.sequential("records of a Turbo Account's Turbo book", () => {
  let harness: Harness;
  let market: Market;
  let child: string;
  let tradeAccountId: string;
  const placed: string[] = [];

  const childTrades = async (): Promise<WireAccountTrade[]> => {
    const body = (await (await fetch(`${harness.base()}/v1/trades_by_account?market_id=${market.market_id}&contract=${child}&turbo=true&direction=desc&count=50`)).json()) as { trades: WireAccountTrade[] };
    return body.trades.reverse();
  };

  const rowsOf = async (path: string) => {
    const [header, ...rows] = parseCsv(await readFile(path, 'utf8'));
    return rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]!])));
  };

  beforeAll(async () => {
    const onboarded = await startOnboarded({ confirmer: ACCEPTING_DIALOG });
    ({ harness, tradeAccountId } = onboarded);
    const h = harness.terminal.handlers;
    // A held book: the trades are the test's, not the house maker's luck.
    await harness.control('/control/maker', { pinned: true });
    ({ market, child } = await turboSetup(harness, onboarded.markets));
    value(await h.selectMarginAccount({ marginAccountId: child }, caller));
    await openTurboSession(harness, child);
    const { ask, bid } = await harness.insidePrices(market);
    // The Turbo book's minimum order value is above the canonical book's: five canonical units clear it.
    const unit = harness.sizeFor(market, ask) * 5n;
    const bought = value(await h.placeOrder({ marketId: market.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: ask, quantity: unit * 2n }, caller));
    expect(bought.orders[0]?.account).toBe(child);
    expect(bought.orders[0]!.filled).toBeGreaterThan(0n);
    placed.push(bought.orders[0]!.orderId);
    const sold = value(await h.placeOrder({ marketId: market.market_id, turbo: true, side: 'Sell', orderType: { kind: 'Market' }, price: bid, quantity: unit }, caller));
    expect(sold.orders[0]!.filled).toBeGreaterThan(0n);
    placed.push(sold.orders[0]!.orderId);
  }, 180_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it("has the Turbo Account's own day row, and a fills export whose rows name it, one per exchange trade, adding up to its position", async () => {
    const trades = await childTrades();
    expect(trades.length).toBeGreaterThanOrEqual(2);
    const view = value(await harness.terminal.handlers.getRecords({ marketId: market.market_id }, caller));
    expect(view.problems).toEqual([]);
    const days = view.days.filter((day) => day.account === child);
    expect(days.map((day) => [day.accountKind, day.turbo])).toEqual(days.map(() => ['turbo-account', true]));
    expect(days.reduce((total, day) => total + day.trades, 0)).toBe(trades.length);
    expect(days.reduce((total, day) => total + day.volumeBase, 0n)).toBe(trades.reduce((total, trade) => total + BigInt(trade.quantity), 0n));
    // The trading account made no trade: no row of it, and no Turbo Account trade counted as its.
    expect(view.days.filter((day) => day.account === tradeAccountId)).toEqual([]);

    const position = value(await harness.terminal.handlers.getPositions({}, caller)).positions.find((row) => row.account === child && row.marketId === market.market_id && row.turbo)!;
    expect(days.reduce((total, day) => total + day.realized, 0n)).toBe(position.realized);

    const report = value(await harness.terminal.handlers.exportRecords({ kind: 'fills', marketId: market.market_id }, caller));
    const rows = await rowsOf(report.path!);
    expect(rows.map((row) => [row.account, row.book, row.trade_id, row.order_id, row.side, row.price_raw, row.quantity_raw, row.fee_raw, row.confirmed])).toEqual(
      trades.map((trade) => [child, 'Turbo', trade.trade_id, trade.order_id.toLowerCase(), trade.account_side, trade.price, trade.quantity, trade.fee, 'yes']),
    );
    expect(rows.reduce((total, row) => total + BigInt(row.realized_raw!), 0n)).toBe(position.realized);

    const daily = await rowsOf(value(await harness.terminal.handlers.exportRecords({ kind: 'daily', marketId: market.market_id }, caller)).path!);
    expect(daily.map((row) => [row.day, row.account, row.book, row.trades, row.realized_raw])).toEqual(days.map((day) => [day.day, child, 'Turbo', String(day.trades), String(day.realized)]));
  });

  it("exports the Turbo Account's orders with its id", async () => {
    const report = value(await harness.terminal.handlers.exportRecords({ kind: 'orders', marketId: market.market_id }, caller));
    const rows = await rowsOf(report.path!);
    for (const orderId of placed) expect(rows.filter((row) => row.order_id === orderId).map((row) => [row.account, row.book])).toEqual([[child, 'Turbo']]);
  });
});
