// The WebSocket drops in the middle of a depth stream and of an order stream, and in a storm of
// reconnects. The book shown is never crossed and never stale (resyncing until a fresh snapshot),
// it ends equal to the exchange's, and no fill or order state is missing from the app afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookFrame } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';

describe.sequential('stream faults', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded());
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const frames = () => harness.pushes.filter((push) => push.stream === 'book').map((push) => push.payload as BookFrame);

  it('a reconnect storm during a live depth stream never shows a crossed or stale book, and ends equal to the exchange', async () => {
    value(await harness.terminal.handlers.subscribeBook({ marketId: market.market_id, precision: 10n, levels: 10 }, caller));
    await until(() => frames().some((frame) => frame.state === 'live' && frame.bids.length > 0), 20_000, 'a live book');
    const before = frames().length;
    for (let drop = 0; drop < 5; drop++) {
      await harness.control('/control/ws/close-all', {});
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const during = frames().slice(before);
    expect(during.some((frame) => frame.state === 'resyncing')).toBe(true);
    for (const frame of frames()) {
      if (frame.state !== 'live') {
        expect(frame.bids).toEqual([]);
        expect(frame.asks).toEqual([]);
        continue;
      }
      const bid = frame.bids[0]?.price;
      const ask = frame.asks[0]?.price;
      if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
    }
    // Live again, and the same as a fresh read of the exchange's depth (the maker keeps trading, so
    // compare a frame and a read taken at a quiet moment: retry until they match).
    await until(async () => {
      const last = frames().at(-1);
      if (last?.state !== 'live') return false;
      type Level = { price: string; quantity: string };
      const depth = (await (await fetch(`${harness.base()}/v1/depth?market_id=${market.market_id}&precision=10&depth=10`)).json()) as Record<string, { buys: Level[]; sells: Level[] } | undefined>;
      const exchange = depth.view ?? depth.orders;
      const latest = frames().at(-1)!;
      // The top five levels of both sides, as many as the exchange has, and not none: an empty
      // book after the storm is not "equal to the exchange" (the maker always quotes both sides).
      const same = (shown: readonly { price: bigint; quantity: bigint }[], theirs: readonly Level[]) =>
        theirs.length > 0 &&
        shown.slice(0, 5).length === theirs.slice(0, 5).length &&
        shown.slice(0, 5).every((level, index) => theirs[index]?.price === level.price.toString() && theirs[index]?.quantity === level.quantity.toString());
      return same(latest.bids, exchange?.buys ?? []) && same(latest.asks, exchange?.sells ?? []);
    }, 30_000, 'the book to match the exchange');
  });

  it('a fill that happens while the order stream is down is in the app after the reconnect', async () => {
    const order = await harness.restingBuy(market);
    const price = order.price;
    const tick = harness.priceTick(market);
    const placed = value(await harness.terminal.handlers.placeOrder(order, caller));
    const orderId = placed.orders[0]!.orderId;
    await harness.control('/control/ws/close-all', {});
    // The house trades the market down through our order while the app is disconnected.
    await harness.control('/control/markets/price', { market_id: market.market_id, price: (price - tick * 10n).toString() });
    await until(async () => value(await harness.terminal.handlers.getOrders({}, caller)).fills.some((fill) => fill.orderId === orderId), 30_000, 'the fill to reach the app');
    const ledger = (await harness.ledgerOrders(market.market_id)).find((order) => order.order_id === orderId);
    expect(ledger?.quantity_fill).not.toBe('0');
    const appOpen = value(await harness.terminal.handlers.getOrders({}, caller)).open.map((order) => order.orderId).sort();
    const ledgerOpen = (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId && !order.close && !order.cancel).map((order) => order.order_id).sort();
    expect(appOpen).toEqual(ledgerOpen);
  });
});
