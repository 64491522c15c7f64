// Reading at a glance: markets named by symbol with a readable suffix only where two
// share one; table columns in the market's (asset's) display decimals, aligned on the decimal
// point, with thousands separators, right-aligned in tabular digits; the notification centre's
// list (errors stay until read, nothing lost to a burst of infos) and refusals as trader sentences
// with the raw text kept for "Details".
import { createRoot } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../shared/ipc/contract';
import type { BalanceView, FillView, Notice, OrderView } from '../../shared/ipc/views';
import type { Market } from '../../shared/market/market';
import { fail } from '../../shared/result';
import { assetNames, labelText, marketLabel, marketName } from '../../renderer/src/features/markets/market-label';
import { orderContext } from '../../renderer/src/features/notices/failure-notice';
import { unreadCount } from '../../renderer/src/features/notices/notice-model';
import { alignColumn, balanceColumns, balanceFigures, FIGURE_SPACE, fillFeeColumns, fractionDigits, orderStatusCell, priceCell, PUNCTUATION_SPACE, quantityCell } from '../../renderer/src/format/columns';
import { createTerminalStore, MAX_NOTICES, withNotice, type NoticeEntry } from '../../renderer/src/stores/terminal-store';
import { describeFailure } from '../../shared/errors/trader-text';
import { ethUsdc, ethUsdcOther, ethUsdt } from '../support/renderer/fixtures';

const ETH = 1_000_000_000n;
const USDC = 1_000_000n;

/** Digits after the point, figure spaces included: the width that puts the point in one place. */
function fractionWidth(text: string): number {
  const point = Math.max(text.indexOf('.'), text.indexOf(PUNCTUATION_SPACE));
  return point < 0 ? 0 : text.length - point - 1;
}

describe('market names', () => {
  it('unique symbols: just the pair, no suffix, no id', () => {
    expect(marketLabel(ethUsdt, [ethUsdc, ethUsdt])).toEqual({ pair: 'ETH/USDT', qualifier: null });
    expect(marketName(ethUsdc, [ethUsdc, ethUsdt])).toBe('ETH/USDC');
  });

  it('two markets with the same symbols: a short readable suffix, in the listing order, never a hex id', () => {
    const all = [ethUsdc, ethUsdt, ethUsdcOther];
    expect(marketName(ethUsdc, all)).toBe('ETH/USDC #1');
    expect(marketName(ethUsdcOther, all)).toBe('ETH/USDC #2');
    expect(marketName(ethUsdt, all)).toBe('ETH/USDT');
    for (const market of all) expect(labelText(marketLabel(market, all))).not.toMatch(/0x|…|[0-9a-f]{6}/);
    // A Turbo row (same market id as its canonical row) takes its canonical twin's name.
    const turboRow: Market = { ...ethUsdcOther, contract_id: `0x${'7b'.repeat(32)}` as Market['contract_id'], turbo: true };
    expect(marketName(turboRow, all)).toBe('ETH/USDC #2');
  });

  it('assets sharing a symbol get the same kind of suffix; unique ones keep their symbol', () => {
    const names = assetNames([ethUsdc, ethUsdt, ethUsdcOther]);
    expect(names.get(ethUsdc.base.asset)).toBe('ETH');
    expect(names.get(ethUsdc.quote.asset)).toBe('USDC #1');
    expect(names.get(ethUsdcOther.quote.asset)).toBe('USDC #2');
    expect(names.get(ethUsdt.quote.asset)).toBe('USDT');
  });
});

describe('table columns line up on the decimal point', () => {
  const order = (price: bigint, quantity: bigint, filled: bigint): Pick<OrderView, 'price' | 'quantity' | 'filled'> => ({ price, quantity, filled });

  it('open orders and order history: price in the quote display decimals, sizes in the base display decimals, thousands separators', () => {
    const orders = [order(2_996_300_000n, 50_000_000n, 0n), order(30_000_000_000n, 1_234_500_000_000n, 12_000_000n), order(1_000_000n, 100_000n, 100_000n)];
    const prices = orders.map((row) => priceCell(ethUsdc, row.price));
    const quantities = orders.map((row) => quantityCell(ethUsdc, row.quantity));
    const filled = orders.map((row) => quantityCell(ethUsdc, row.filled));
    expect(prices).toEqual(['2,996.30', '30,000.00', '1.00']);
    expect(quantities).toEqual(['0.0500', '1,234.5000', '0.0001']);
    expect(filled).toEqual(['0.0000', '0.0120', '0.0001']);
    for (const column of [prices, quantities, filled]) expect(new Set(column.map(fractionDigits)).size).toBe(1);
  });

  it('order history status: an order the exchange closed with a dust remainder is not called filled', () => {
    // 0.2 ETH bought in nine fills of 0.1993, the last 0.0007 under the market's dust, closed by
    // the exchange: the history must not say "filled".
    expect(orderStatusCell(ethUsdc, { status: 'filled', quantity: ETH / 5n, filled: 199_300_000n })).toBe('closed, 0.0007 unfilled');
    expect(orderStatusCell(ethUsdc, { status: 'filled', quantity: ETH / 5n, filled: ETH / 5n })).toBe('filled');
    expect(orderStatusCell(ethUsdc, { status: 'partially-filled', quantity: ETH / 5n, filled: ETH / 10n })).toBe('partially filled');
    expect(orderStatusCell(ethUsdc, { status: 'cancelled', quantity: ETH / 5n, filled: 0n })).toBe('cancelled');
  });

  it('fills: price and size fixed; fees one column per asset, each padded to line up where a raw fee is finer', () => {
    const fills: Pick<FillView, 'side' | 'fee' | 'price' | 'quantity'>[] = [
      { side: 'Buy', fee: 12_500n, price: 2_996_300_000n, quantity: 50_000_000n }, // 0.0000125 ETH
      { side: 'Sell', fee: 15_000n, price: 2_996_310_000n, quantity: 5_000_000n }, // 0.015 USDC
      { side: 'Buy', fee: 100_000n, price: 2_996_300_000n, quantity: 1_000_000_000n }, // 0.0001 ETH
      { side: 'Sell', fee: 1_234_560_000n, price: 3_000_000_000n, quantity: 2_000_000_000n }, // 1,234.56 USDC
    ];
    const fees = fillFeeColumns(ethUsdc, fills);
    expect(fees.map((fee) => fee.base)).toEqual(['0.0000125', '', `0.0001${FIGURE_SPACE.repeat(3)}`, '']);
    expect(fees.map((fee) => fee.quote)).toEqual(['', '0.015', '', `1,234.56${FIGURE_SPACE}`]);
    for (const column of ['base', 'quote'] as const) {
      const cells = fees.map((fee) => fee[column]).filter((text) => text !== '');
      expect(new Set(cells.map(fractionWidth)).size).toBe(1);
    }
    const prices = fills.map((fill) => priceCell(ethUsdc, fill.price));
    expect(new Set(prices.map(fractionDigits))).toEqual(new Set([2]));
  });

  it('balances: each asset in its display decimals (the finest any market gives it), the points aligned across assets', () => {
    const balances: Pick<BalanceView, 'assetId' | 'decimals' | 'onAccount' | 'locked' | 'unlocked'>[] = [
      { assetId: ethUsdc.base.asset, decimals: 9, onAccount: 9n * ETH + 950_000_000n, locked: 50_000_000n, unlocked: 10n * ETH },
      { assetId: ethUsdc.quote.asset, decimals: 6, onAccount: 98_350_000n, locked: 2_900n * USDC, unlocked: 100_000n * USDC },
      { assetId: ethUsdt.quote.asset, decimals: 6, onAccount: 5n * USDC, locked: 0n, unlocked: 5n * USDC },
    ];
    const cells = balanceColumns(balances, [ethUsdc, ethUsdt]);
    // ETH 4 decimals (base max_precision), USDC 2, USDT 3: padded with figure spaces to 4.
    expect(cells.map((cell) => cell.onAccount)).toEqual(['9.9500', `98.35${FIGURE_SPACE.repeat(2)}`, `5.000${FIGURE_SPACE}`]);
    expect(cells[1]!.locked).toBe(`2,900.00${FIGURE_SPACE.repeat(2)}`);
    expect(cells[1]!.available).toBe(`100,000.00${FIGURE_SPACE.repeat(2)}`);
    for (const column of ['onAccount', 'inBooks', 'available', 'locked', 'total'] as const) expect(new Set(cells.map((cell) => fractionWidth(cell[column])))).toEqual(new Set([4]));
  });

  it('balances: the columns add up (on account + in books = available, available + locked = total)', () => {
    // ETH: 10 on account, 0.00099975 unsettled in a book: available 10.00099975, nothing locked.
    const eth = { onAccount: 10n * ETH, locked: 0n, unlocked: 10n * ETH + 999_750n };
    expect(balanceFigures(eth)).toEqual({ onAccount: 10n * ETH, inBooks: 999_750n, available: 10n * ETH + 999_750n, locked: 0n, total: 10n * ETH + 999_750n });
    const [cell] = balanceColumns([{ assetId: ethUsdc.base.asset, decimals: 9, ...eth }], [ethUsdc]);
    expect(cell).toEqual({ onAccount: '10.0000', inBooks: '0.00099975', available: '10.00099975', locked: '0.0000', total: '10.00099975' });
  });

  it('an integer-only column keeps its point column with a point-wide space', () => {
    expect(alignColumn(['12', '3.5'])).toEqual([`12${PUNCTUATION_SPACE}${FIGURE_SPACE}`, '3.5']);
  });
});

describe('the notification centre', () => {
  const notice = (id: string, level: Notice['level']): Notice => ({ id, level, text: id, time: 0 });

  it('keeps unread errors when a burst of infos overflows it, dropping read ones and infos first', () => {
    let list: NoticeEntry[] = withNotice([], notice('error-1', 'error'));
    for (let index = 0; index < MAX_NOTICES + 20; index++) list = withNotice(list, notice(`info-${index}`, 'info'));
    expect(list).toHaveLength(MAX_NOTICES);
    expect(list[0]!.id).toBe('error-1');
    expect(unreadCount(list)).toBe(1);
  });

  it('counts unread errors and warnings; dismissing reads it and closes the toast, the centre keeps it', async () => {
    const api = new Proxy({} as TerminalApi, {
      get: (_target, name: string) => (name.startsWith('on') ? () => () => undefined : () => Promise.resolve(fail('NOT_READY', 'not yet'))),
    });
    await createRoot(async (dispose) => {
      const store = createTerminalStore(api, () => 1_000);
      store.notify('info', 'Placed');
      store.notify('error', 'Not enough USDC', { title: 'Order refused', details: 'ONCHAIN_REVERT: raw', code: 'ONCHAIN_REVERT' });
      store.notify('warning', 'Partly filled');
      expect(unreadCount(store.state.notices)).toBe(2);
      const error = store.state.notices.find((entry) => entry.level === 'error')!;
      expect(error).toMatchObject({ title: 'Order refused', details: 'ONCHAIN_REVERT: raw', read: false, closed: false });
      store.closeToast(store.state.notices[0]!.id);
      expect(store.state.notices[0]).toMatchObject({ closed: true, read: false });
      store.dismissNotice(error.id);
      expect(store.state.notices.find((entry) => entry.id === error.id)).toMatchObject({ read: true, closed: true });
      expect(unreadCount(store.state.notices)).toBe(1);
      store.markRead();
      expect(unreadCount(store.state.notices)).toBe(0);
      expect(store.state.notices).toHaveLength(3);
      store.dispose();
      dispose();
    });
  });

  it('writes an over-balance refusal as the trader reads it, from the order and the balances', () => {
    const balances = [{ assetId: ethUsdc.quote.asset, symbol: 'USDC', decimals: 6, onAccount: 98_350_000n, locked: 0n, unlocked: 98_350_000n, books: [] }];
    const context = orderContext(ethUsdc, 'ETH/USDC', { side: 'Buy', price: 2_900n * USDC, quantity: ETH }, balances);
    const text = describeFailure({ code: 'ONCHAIN_REVERT', message: 'reverted (InsufficientBalance): account 0xab has 98350000', details: { reason: 'InsufficientBalance' } }, context);
    expect(text.sentence).toBe('Not enough USDC: the order needs 2,900 USDC, you have 98.35 USDC.');
    expect(text.details).toContain('account 0xab has 98350000');
  });
});
