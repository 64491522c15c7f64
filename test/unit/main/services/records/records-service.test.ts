// Records of every account Positions reads: the trading account on both books of a market and the
// selected Turbo Account on the Turbo book. Each day row and each CSV row names its account, sums
// never mix two accounts, and per account and book the days add up to the position's realized P&L
// computed from that account's fills alone; the orders export reads the Turbo Account's orders of
// the Turbo book with its own id as the contract.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExchangeRestClient } from '../../../../../main/exchange/rest-client';
import type { StoredFill } from '../../../../../main/services/fills/fill-book';
import type { MarketsIndex } from '../../../../../main/services/market-data/markets-index';
import { DAILY_COLUMNS, FILL_COLUMNS, ORDER_COLUMNS, RecordsService } from '../../../../../main/services/records/records-service';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { Market } from '../../../../../shared/market/market';
import { accountFills } from '../../../../../shared/positions/accounting';
import { ok } from '../../../../../shared/result';
import { checkProperty } from '../../../../support/property';

const ETH = 10n ** 9n;
const DAY_NS = 86_400_000_000_000n;
const TRADING = `0x${'1'.repeat(64)}` as B256;
const TURBO_ACCOUNT = `0x${'7'.repeat(64)}` as B256;
const MARKET = {
  market_id: `0x${'a1'.repeat(32)}`,
  base: { symbol: 'ETH', decimals: 9, asset: `0x${'e'.repeat(64)}` },
  quote: { symbol: 'USDC', decimals: 6, asset: `0x${'c'.repeat(64)}` },
} as unknown as Market;
const markets = { markets: () => [MARKET], turboMarkets: () => [MARKET] } as unknown as MarketsIndex;

type BookKey = `${string}:${'canonical' | 'turbo'}`;
const keyOf = (account: string, turbo: boolean): BookKey => `${account}:${turbo ? 'turbo' : 'canonical'}`;

function service(fills: ReadonlyMap<BookKey, readonly StoredFill[]>, turboAccount: B256 | null, getOrders: ExchangeRestClient['getOrders'] = () => Promise.resolve(ok({ orders: [] }) as never)): RecordsService {
  return new RecordsService({
    fills: { fills: (account, _marketId, turbo) => Promise.resolve(ok([...(fills.get(keyOf(account, turbo)) ?? [])])) },
    rest: { getOrders },
    markets: () => markets,
    tradeAccount: () => TRADING,
    turboAccount: () => turboAccount,
    nowMs: () => 0,
  });
}

const storedFill = (orderId: string, side: 'Buy' | 'Sell', price: bigint, quantity: bigint, fee: bigint, timestamp: bigint): StoredFill => ({ orderId, index: 0, side, price, quantity, fee, timestamp, tradeId: `t-${orderId}`, role: 'taker' });

const BOOKS = [
  { account: TRADING, turbo: false },
  { account: TRADING, turbo: true },
  { account: TURBO_ACCOUNT, turbo: true },
] as const;

describe('records of the trading account and the Turbo Account', () => {
  it('per account and book, the days, the daily export and the fills export add up to that account’s position, for any fills', async () => {
    const drawn = fc.array(
      fc.record({ book: fc.integer({ min: 0, max: 2 }), side: fc.constantFrom('Buy' as const, 'Sell' as const), price: fc.bigInt({ min: 1n, max: 10n ** 13n }), quantity: fc.bigInt({ min: 1n, max: 10n ** 10n }), fee: fc.bigInt({ min: 0n, max: 10n ** 6n }), step: fc.bigInt({ min: 0n, max: DAY_NS }) }),
      { maxLength: 40 },
    );
    await checkProperty(
      fc.asyncProperty(drawn, async (list) => {
        let at = 1_700_000_000_000_000_000n;
        const fills = new Map<BookKey, StoredFill[]>();
        list.forEach((one, index) => {
          const { account, turbo } = BOOKS[one.book]!;
          const fee = one.side === 'Buy' && one.fee > one.quantity ? one.quantity : one.fee;
          const key = keyOf(account, turbo);
          fills.set(key, [...(fills.get(key) ?? []), storedFill(`o${index}`, one.side, one.price, one.quantity, fee, (at += one.step))]);
        });
        const records = service(fills, TURBO_ACCOUNT);
        const view = await records.records({});
        if (!view.ok) throw new Error(view.message);
        const daily = await records.table('daily', {});
        const exported = await records.table('fills', {});
        if (!daily.ok || !exported.ok) throw new Error('an export failed');
        const column = (header: readonly string[], name: string) => header.indexOf(name);
        for (const { account, turbo } of BOOKS) {
          const own = fills.get(keyOf(account, turbo)) ?? [];
          const position = accountFills(own, ETH);
          const book = turbo ? 'Turbo' : 'Canonical';
          const days = view.value.days.filter((day) => day.account === account && day.turbo === turbo);
          expect(days.every((day) => day.accountKind === (account === TRADING ? 'trading' : 'turbo-account'))).toBe(true);
          expect(days.reduce((total, day) => total + day.realized, 0n)).toBe(position.realized);
          expect(days.reduce((total, day) => total + day.trades, 0)).toBe(own.length);
          expect(days.reduce((total, day) => total + day.feesBase, 0n)).toBe(position.feesBase);
          const dailyRows = daily.value.rows.filter((row) => row[column(DAILY_COLUMNS, 'account')] === account && row[column(DAILY_COLUMNS, 'book')] === book);
          expect(dailyRows.reduce((total, row) => total + (row[column(DAILY_COLUMNS, 'realized_raw')] as bigint), 0n)).toBe(position.realized);
          const fillRows = exported.value.rows.filter((row) => row[column(FILL_COLUMNS, 'account')] === account && row[column(FILL_COLUMNS, 'book')] === book);
          expect(fillRows.map((row) => row[column(FILL_COLUMNS, 'order_id')]).sort()).toEqual(own.map((fill) => fill.orderId).sort());
          expect(fillRows.reduce((total, row) => total + (row[column(FILL_COLUMNS, 'realized_raw')] as bigint), 0n)).toBe(position.realized);
        }
        // No Turbo Account on a Canonical book, and no row without its account.
        expect(view.value.days.some((day) => day.account === TURBO_ACCOUNT && !day.turbo)).toBe(false);
        expect(exported.value.rows.length).toBe(list.length);
      }),
    );
  });

  it('lists the trading account’s day row before the Turbo Account’s on the same day and book, and only the trading account’s without a Turbo Account', async () => {
    const day = 1_700_000_000_000_000_000n;
    const fills = new Map<BookKey, StoredFill[]>([
      [keyOf(TURBO_ACCOUNT, true), [storedFill('a', 'Buy', 2_000_000_000n, ETH, 0n, day)]],
      [keyOf(TRADING, true), [storedFill('b', 'Buy', 2_000_000_000n, ETH, 0n, day + 1n)]],
    ]);
    const both = await service(fills, TURBO_ACCOUNT).records({});
    expect(both.ok && both.value.days.map((row) => [row.account, row.accountKind, row.turbo])).toEqual([
      [TRADING, 'trading', true],
      [TURBO_ACCOUNT, 'turbo-account', true],
    ]);
    const daily = await service(fills, TURBO_ACCOUNT).table('daily', {});
    expect(daily.ok && daily.value.rows.map((row) => row[DAILY_COLUMNS.indexOf('account')])).toEqual([TRADING, TURBO_ACCOUNT]);
    const alone = await service(fills, null).records({});
    expect(alone.ok && alone.value.days.map((row) => row.account)).toEqual([TRADING]);
  });

  it('reads the Turbo Account’s orders of the Turbo book with its id as the contract, and names it on each row', async () => {
    const asked: { contract: string; turbo: boolean }[] = [];
    const getOrders = ((query: { contract: string; turbo?: boolean }) => {
      asked.push({ contract: query.contract, turbo: query.turbo === true });
      const order = { order_id: `0x${(query.contract === TURBO_ACCOUNT ? '2' : query.turbo === true ? '3' : '4').repeat(64)}`, side: 'Buy', order_type: { kind: 'Limit' }, price: 2_000_000_000n, quantity: ETH, timestamp: 1_700_000_000_000_000_000n };
      return Promise.resolve(ok({ orders: [order] }));
    }) as unknown as ExchangeRestClient['getOrders'];
    const table = await service(new Map(), TURBO_ACCOUNT, getOrders).table('orders', {});
    if (!table.ok) throw new Error(table.message);
    expect(asked).toEqual([
      { contract: TRADING, turbo: false },
      { contract: TRADING, turbo: true },
      { contract: TURBO_ACCOUNT, turbo: true },
    ]);
    const rows = table.value.rows.map((row) => [row[ORDER_COLUMNS.indexOf('account')], row[ORDER_COLUMNS.indexOf('book')], row[ORDER_COLUMNS.indexOf('order_id')]]);
    expect(rows).toContainEqual([TURBO_ACCOUNT, 'Turbo', `0x${'2'.repeat(64)}`]);
    expect(rows).toContainEqual([TRADING, 'Canonical', `0x${'4'.repeat(64)}`]);
    expect(rows).toHaveLength(3);
  });
});
