// The guards' facts as one network's runtime holds them: the trader's caps and bands from the settings, the
// live book main maintains from the stream when a window has it open (else one read of the
// exchange's book, at once, for this order), and the position computed from the account's fills,
// read after the order was asked for, less what its open orders on the closing side already close.
import type { DepthResponse } from '../../../shared/api/market-schemas';
import type { OrderView, PositionsView, TriggerView } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { priceBandOf } from '../../../shared/market/price-band';
import { fail, ok, type Result } from '../../../shared/result';
import type { BookHandle } from '../../exchange/book-feed';
import type { DailyLoss } from './daily-loss';
import type { GuardFacts } from './guard-facts';

export interface RuntimeFactsDeps {
  readonly market: (marketId: string, turbo: boolean) => Result<Market>;
  readonly bands: () => Readonly<Record<string, number>>;
  readonly maxQuantity: (marketId: string) => bigint | undefined;
  readonly maxNotional: (marketId: string) => bigint | undefined;
  readonly maxPosition: (marketId: string) => bigint | undefined;
  readonly dailyLossLimit: (quoteAsset: string) => bigint | undefined;
  readonly dailyLoss: DailyLoss;
  readonly liveBook: (marketId: string, turbo: boolean) => BookHandle | null;
  readonly readDepth: (market: Market, turbo: boolean) => Promise<Result<DepthResponse>>;
  readonly positions: () => Promise<PositionsView>;
  readonly openOrders: () => readonly OrderView[];
  /** The pending legs of the trading account (the only account legs are placed for). */
  readonly pendingLegs: () => { readonly account: string | null; readonly legs: readonly TriggerView[] };
}

export function runtimeGuardFacts(deps: RuntimeFactsDeps): GuardFacts {
  return {
    market: deps.market,
    maxQuantity: deps.maxQuantity,
    maxNotional: deps.maxNotional,
    maxPosition: deps.maxPosition,
    dailyLossLimit: deps.dailyLossLimit,
    dayPnl: async (account, quoteAsset) => {
      const view = await deps.positions();
      if (view.problems.length > 0) return fail('POSITION_UNKNOWN', view.problems.join('; '));
      // Realized plus unrealized over the account's books in this quote asset; a position without a
      // mark (an empty book) counts its realized part only.
      let total = 0n;
      for (const row of view.positions) {
        if (row.account !== account) continue;
        const market = deps.market(row.marketId, row.turbo);
        if (!market.ok || market.value.quote.asset !== quoteAsset) continue;
        total += row.realized + (row.unrealized ?? 0n);
      }
      return ok(deps.dailyLoss.dayPnl(account, quoteAsset, total));
    },
    bandBps: (marketId) => priceBandOf(deps.bands(), marketId),
    bookPrices: async (market, turbo) => {
      const live = deps.liveBook(market.market_id, turbo);
      if (live !== null && live.state() === 'live') {
        const top = live.top(1);
        if (top.ok) return ok({ bestBid: top.value.buys[0]?.[0] ?? null, bestAsk: top.value.sells[0]?.[0] ?? null, source: 'the live book' });
      }
      const read = await deps.readDepth(market, turbo);
      if (!read.ok) return read;
      return ok({ bestBid: read.value.buys[0]?.price ?? null, bestAsk: read.value.sells[0]?.price ?? null, source: 'the book read now' });
    },
    position: async (account, market, turbo) => {
      const view = await deps.positions();
      const onBook = (row: { marketId: string; turbo: boolean }) => row.marketId === market.market_id && row.turbo === turbo;
      const row = view.positions.find((candidate) => candidate.account === account && onBook(candidate));
      if (row === undefined && view.problems.length > 0) return fail('POSITION_UNKNOWN', view.problems.join('; '));
      const size = row?.size ?? 0n;
      return ok({ size, ...closingOnBook(deps, account, market, turbo, size) });
    },
    restingOrders: (account, market, turbo) => {
      const resting = { buy: 0n, sell: 0n };
      for (const order of deps.openOrders()) {
        if (order.marketId !== market.market_id || order.turbo !== turbo || (order.account !== '' && order.account !== account)) continue;
        if (order.status !== 'open' && order.status !== 'partially-filled') continue;
        if (order.side === 'Buy') resting.buy += order.quantity - order.filled;
        else resting.sell += order.quantity - order.filled;
      }
      return resting;
    },
  };
}

/**
 * What an account's resting orders and pending legs on the closing side of a book already close,
 * for a position of signed `size` there: the reduce-only guard's reading, and the cap on a close by
 * limit (which rests, so it must not close more than the rest).
 */
export function closingOnBook(deps: Pick<RuntimeFactsDeps, 'openOrders' | 'pendingLegs'>, account: string, market: Market, turbo: boolean, size: bigint): { readonly restingClosing: bigint; readonly legsClosing: bigint; readonly legsUnknown: string | null } {
  const onBook = (row: { marketId: string; turbo: boolean }) => row.marketId === market.market_id && row.turbo === turbo;
  const closing = size > 0n ? 'Sell' : 'Buy';
  let restingClosing = 0n;
  for (const order of deps.openOrders()) {
    if (!onBook(order) || order.side !== closing || (order.account !== '' && order.account !== account)) continue;
    if (order.status === 'open' || order.status === 'partially-filled') restingClosing += order.quantity - order.filled;
  }
  // A leg closes its own size, or what its order has filled (an open order: its filled part;
  // what it fills later adds to the position as much as to the leg).
  const legs = deps.pendingLegs();
  const pairs = new Map<string, bigint>();
  let legsUnknown: string | null = null;
  if (legs.account === account) {
    for (const leg of legs.legs) {
      if (!onBook(leg) || leg.side !== closing || leg.state !== 'pending') continue;
      const parent = leg.parentOrderId === null ? undefined : deps.openOrders().find((order) => order.orderId === leg.parentOrderId);
      const legSize = leg.quantity ?? parent?.filled ?? null;
      if (legSize === null) {
        legsUnknown ??= `the size of the pending leg ${leg.triggerId} (sized from an order that is no longer open) is not known here`;
        continue;
      }
      const key = leg.ocoId === null ? leg.triggerId : [leg.triggerId, leg.ocoId].sort().join('|');
      pairs.set(key, (pairs.get(key) ?? 0n) > legSize ? pairs.get(key)! : legSize);
    }
  }
  const legsClosing = [...pairs.values()].reduce((sum, value) => sum + value, 0n);
  return { restingClosing, legsClosing, legsUnknown };
}
