// The guards' facts as a runtime gives them: the live book when main keeps one (no request), else a
// read of the exchange's book; a position less the account's resting closing orders and its pending
// closing legs (an OCO pair once), and unknown when a leg's size cannot be told.
import { describe, expect, it } from 'vitest';
import type { OrderView, PositionsView, TriggerView } from '../../../../../shared/ipc/views';
import { ok, fail } from '../../../../../shared/result';
import type { BookHandle } from '../../../../../main/exchange/book-feed';
import { DailyLoss, utcDay, type DayBaseline } from '../../../../../main/services/guards/daily-loss';
import { runtimeGuardFacts, type RuntimeFactsDeps } from '../../../../../main/services/guards/runtime-facts';
import { ethUsdc } from '../../../../support/shared/market/fixtures';

const account = '0xtrading';
const ETH = 1_000_000_000n;

function order(change: Partial<OrderView>): OrderView {
  return { orderId: '0xo', marketId: ethUsdc.market_id, side: 'Sell', orderType: 'Spot', price: 1n, quantity: ETH, filled: 0n, averagePrice: 0n, status: 'open', turbo: false, account, time: 0, ...change };
}

function leg(change: Partial<TriggerView>): TriggerView {
  return { triggerId: '0xl1', marketId: ethUsdc.market_id, turbo: false, side: 'Sell', triggerPrice: 1n, quantity: ETH, parentOrderId: null, ocoId: null, state: 'pending', ...change } as TriggerView;
}

function deps(change: Partial<RuntimeFactsDeps> = {}): RuntimeFactsDeps & { depthReads: number } {
  const state = { depthReads: 0 };
  const positions: PositionsView = { positions: [{ account, marketId: ethUsdc.market_id, turbo: false, size: 5n * ETH } as unknown as PositionsView['positions'][number]], asOf: 0, problems: [] };
  return Object.assign(state, {
    market: () => ok(ethUsdc),
    bands: () => ({}),
    maxQuantity: () => undefined,
    liveBook: () => null,
    readDepth: () => {
      state.depthReads++;
      return Promise.resolve(ok({ market_id: undefined, precision: undefined, buys: [{ price: 10n, quantity: 1n }], sells: [] }));
    },
    positions: () => Promise.resolve(positions),
    openOrders: () => [],
    pendingLegs: () => ({ account, legs: [] }),
    ...change,
  }) as RuntimeFactsDeps & { depthReads: number };
}

describe('the runtime guard facts', () => {
  it('measures from the live book without a request, and reads the exchange’s book when main keeps none live', async () => {
    const live = { state: () => 'live', top: () => ok({ buys: [[99n, 1n]], sells: [[101n, 1n]] }) } as unknown as BookHandle;
    const withLive = deps({ liveBook: () => live });
    expect(await runtimeGuardFacts(withLive).bookPrices(ethUsdc, false)).toEqual(ok({ bestBid: 99n, bestAsk: 101n, source: 'the live book' }));
    expect(withLive.depthReads).toBe(0);
    const resyncing = deps({ liveBook: () => ({ state: () => 'resyncing' }) as unknown as BookHandle });
    expect(await runtimeGuardFacts(resyncing).bookPrices(ethUsdc, false)).toEqual(ok({ bestBid: 10n, bestAsk: null, source: 'the book read now' }));
    expect(resyncing.depthReads).toBe(1);
    expect(runtimeGuardFacts(deps({ bands: () => ({ [ethUsdc.market_id]: 250 }) })).bandBps(ethUsdc.market_id)).toBe(250);
    expect(runtimeGuardFacts(deps()).bandBps(ethUsdc.market_id)).toBe(3000);
  });

  it('subtracts the resting closing orders and the pending closing legs of the account, an OCO pair once', async () => {
    const facts = runtimeGuardFacts(
      deps({
        openOrders: () => [order({ quantity: 2n * ETH, filled: ETH / 2n }), order({ orderId: '0xbuy', side: 'Buy' }), order({ orderId: '0xother', account: '0xsomeone' }), order({ orderId: '0xparent', side: 'Buy', filled: ETH / 4n })],
        pendingLegs: () => ({ account, legs: [leg({ triggerId: '0xa', ocoId: '0xb', quantity: ETH }), leg({ triggerId: '0xb', ocoId: '0xa', quantity: 2n * ETH }), leg({ triggerId: '0xc', quantity: null, parentOrderId: '0xparent' }), leg({ triggerId: '0xd', side: 'Buy' })] }),
      }),
    );
    expect(await facts.position(account, ethUsdc, false)).toEqual(ok({ size: 5n * ETH, restingClosing: (3n * ETH) / 2n, legsClosing: 2n * ETH + ETH / 4n, legsUnknown: null }));
  });

  it('knows the size but not what the legs close when a leg’s size cannot be told; nothing when the fills of the book could not be read', async () => {
    const lost = runtimeGuardFacts(deps({ pendingLegs: () => ({ account, legs: [leg({ quantity: null, parentOrderId: '0xgone' })] }) }));
    const read = await lost.position(account, ethUsdc, false);
    expect(read.ok && read.value.size).toBe(5n * ETH);
    expect(read.ok && read.value.legsUnknown).toMatch(/the size of the pending leg 0xl1 \(sized from an order that is no longer open\) is not known here/);
    const unread = runtimeGuardFacts(deps({ positions: () => Promise.resolve({ positions: [], asOf: 0, problems: ['ETH/USDC Canonical: the fills could not be read'] }) }));
    expect(await unread.position(account, ethUsdc, false)).toEqual(fail('POSITION_UNKNOWN', 'ETH/USDC Canonical: the fills could not be read'));
  });

  it('sums the account’s open orders on the book per side, leaving other books, other accounts and finished orders out', () => {
    const orders = [
      order({ side: 'Buy', quantity: 3n * ETH, filled: ETH, status: 'partially-filled' }),
      order({ side: 'Buy', quantity: ETH }),
      order({ side: 'Sell', quantity: 2n * ETH }),
      order({ side: 'Buy', quantity: 9n * ETH, turbo: true }),
      order({ side: 'Buy', quantity: 9n * ETH, account: '0xother' }),
      order({ side: 'Buy', quantity: 9n * ETH, status: 'filled' }),
    ];
    expect(runtimeGuardFacts(deps({ openOrders: () => orders })).restingOrders(account, ethUsdc, false)).toEqual({ buy: 3n * ETH, sell: 2n * ETH });
  });

  it('sums the account’s realized and unrealized P&L over its books in the quote asset into the day’s P&L, and refuses to guess when a book is unread', async () => {
    let saved: DayBaseline | null = { day: utcDay(0), account, totals: { [ethUsdc.quote.asset]: '100' } };
    const dailyLoss = new DailyLoss({ now: () => 0, load: () => saved, save: (baseline) => void (saved = baseline) });
    const row = (change: Record<string, unknown>) => ({ account, marketId: ethUsdc.market_id, turbo: false, size: 0n, realized: 0n, unrealized: null, ...change }) as unknown as PositionsView['positions'][number];
    const view: PositionsView = { positions: [row({ realized: -50n, unrealized: -250n }), row({ turbo: true, realized: -10n }), row({ account: '0xother', realized: -9_999n })], asOf: 0, problems: [] };
    const facts = runtimeGuardFacts(deps({ positions: () => Promise.resolve(view), dailyLoss, dailyLossLimit: () => 1n }));
    expect(await facts.dayPnl(account, ethUsdc.quote.asset)).toEqual(ok(-410n));
    const unread = runtimeGuardFacts(deps({ positions: () => Promise.resolve({ ...view, problems: ['ETH/USDC Canonical: the fills could not be read'] }), dailyLoss }));
    expect((await unread.dayPnl(account, ethUsdc.quote.asset)).ok).toBe(false);
  });
});
