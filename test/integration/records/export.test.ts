// Records against the sandbox: after several fills, the fills export main writes (into the data
// directory's exports folder, as the browser host does) holds one row per trade of the account that
// GET /v1/trades_by_account lists, with the same raw figures; the daily summary and the daily export
// add up to the same trades, fees and volume; the orders export lists the orders placed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { parseCsv } from '../../../shared/records/csv';
import { caller, startOnboarded, value, type Harness } from '../../support/terminal-harness';
import type { WireAccountTrade } from '../../support/trader-session/truth';

describe.sequential('records export', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;
  const placed: string[] = [];

  const exchangeTrades = async (): Promise<WireAccountTrade[]> => {
    const body = (await (await fetch(`${harness.base()}/v1/trades_by_account?market_id=${market.market_id}&contract=${tradeAccountId}&direction=desc&count=50`)).json()) as { trades: WireAccountTrade[] };
    return body.trades.reverse();
  };

  const rowsOf = async (path: string) => {
    const [header, ...rows] = parseCsv(await readFile(path, 'utf8'));
    return rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]!])));
  };

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded());
    expect(await harness.control('/control/maker', { pinned: true })).toEqual({ pinned: true });
    const h = harness.terminal.handlers;
    const tick = harness.priceTick(market);
    for (const side of ['Buy', 'Buy', 'Sell'] as const) {
      const inside = await harness.insidePrices(market);
      const price = side === 'Buy' ? ((inside.ask * 102n) / 100n / tick) * tick : ((inside.bid * 98n) / 100n / tick) * tick;
      const answer = value(await h.placeOrder({ marketId: market.market_id, side, orderType: { kind: 'Spot' }, price, quantity: harness.sizeFor(market, price) * (side === 'Buy' ? 2n : 1n) }, caller));
      placed.push(answer.orders[0]!.orderId);
    }
    value(await harness.terminal.handlers.cancelAllOrders({}, caller));
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('writes one fills row per exchange trade of the account, raw and display units, into the exports folder', async () => {
    const trades = await exchangeTrades();
    expect(trades.length).toBeGreaterThanOrEqual(3);
    const report = value(await harness.terminal.handlers.exportRecords({ kind: 'fills', marketId: market.market_id }, caller));
    expect(report.path).toBe(join(harness.dataDir, 'exports', `records-fills-${market.base.symbol}-${market.quote.symbol}-start-to-now.csv`));
    expect(report.rows).toBe(trades.length);
    const rows = await rowsOf(report.path!);
    expect(rows.map((row) => [row.trade_id, row.order_id, row.side, row.role, row.price_raw, row.quantity_raw, row.fee_raw, row.timestamp_ns, row.confirmed])).toEqual(
      trades.map((trade) => [trade.trade_id, trade.order_id.toLowerCase(), trade.account_side, trade.role, trade.price, trade.quantity, trade.fee, trade.timestamp, 'yes']),
    );
    for (const row of rows) {
      expect(row.pair).toBe(`${market.base.symbol}/${market.quote.symbol}`);
      expect(row.book).toBe('Canonical');
      expect(Number(row.quantity)).toBe(Number(row.quantity_raw) / 10 ** market.base.decimals);
      expect(Number(row.price)).toBe(Number(row.price_raw) / 10 ** market.quote.decimals);
    }
    // The realized P&L of the rows adds up to the position's.
    const position = value(await harness.terminal.handlers.getPositions({}, caller)).positions.find((row) => row.marketId === market.market_id && !row.turbo)!;
    expect(rows.reduce((total, row) => total + BigInt(row.realized_raw!), 0n)).toBe(position.realized);
    // A second export of the same range never overwrites the first.
    const again = value(await harness.terminal.handlers.exportRecords({ kind: 'fills', marketId: market.market_id }, caller));
    expect(again.path).not.toBe(report.path);
  });

  it('the daily summary and the daily export add up to the exchange trades', async () => {
    const trades = await exchangeTrades();
    const view = value(await harness.terminal.handlers.getRecords({ marketId: market.market_id }, caller));
    expect(view.problems).toEqual([]);
    const days = view.days.filter((day) => !day.turbo);
    expect(days.reduce((total, day) => total + day.trades, 0)).toBe(trades.length);
    expect(days.reduce((total, day) => total + day.volumeBase, 0n)).toBe(trades.reduce((total, trade) => total + BigInt(trade.quantity), 0n));
    const fees = (side: string) => trades.filter((trade) => trade.account_side === side).reduce((total, trade) => total + BigInt(trade.fee), 0n);
    expect(days.reduce((total, day) => total + day.feesBase, 0n)).toBe(fees('Buy'));
    expect(days.reduce((total, day) => total + day.feesQuote, 0n)).toBe(fees('Sell'));
    const report = value(await harness.terminal.handlers.exportRecords({ kind: 'daily', marketId: market.market_id, from: days[0]!.day, to: days.at(-1)!.day }, caller));
    const rows = await rowsOf(report.path!);
    expect(rows.map((row) => [row.day, row.trades, row.fees_base_raw, row.fees_quote_raw, row.realized_raw])).toEqual(days.map((day) => [day.day, String(day.trades), String(day.feesBase), String(day.feesQuote), String(day.realized)]));
    // A range that ends before the fills holds none.
    const before = value(await harness.terminal.handlers.getRecords({ marketId: market.market_id, to: '2000-01-01' }, caller));
    expect(before.days).toEqual([]);
  });

  it('exports the orders placed', async () => {
    const report = value(await harness.terminal.handlers.exportRecords({ kind: 'orders', marketId: market.market_id }, caller));
    const rows = await rowsOf(report.path!);
    for (const orderId of placed) expect(rows.some((row) => row.order_id === orderId)).toBe(true);
  });
});
