// The trader's views through an exchange that lies on its WebSocket (test/support/adversary): the
// book, the tape, orders, fills and balances are either what the exchange holds (read directly)
// or shown as not live, never a lie shown as truth; and the terminal keeps running (the next
// honest request works). The house maker is pinned, so the book changes only when a test moves it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookFrame, FillNotice, TradesFrame } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { startAdversary, type Adversary } from '../../support/adversary/adversary-harness';
import type { ExchangeProxy } from '../../support/adversary/exchange-proxy';
import { absurdNumberIn, hostileCharacterIn } from '../../support/adversary/lie-detectors';
import { ABSURD_VALUES, HOSTILE_TEXT } from '../../support/adversary/rest-lies';
import { absurdStreamNumbers, controlCharactersInStream, duplicatedMessages, reorderedMessages, staleSnapshot } from '../../support/adversary/stream-lies';
import { caller, until, value, type Harness } from '../../support/terminal-harness';

type Level = { price: string; quantity: string };

describe.sequential('an exchange that lies on its WebSocket', () => {
  let adversary: Adversary;
  let harness: Harness;
  let proxy: ExchangeProxy;
  let market: Market;
  let tradeAccountId: string;
  let bookId: string;
  let tradesId: string;

  beforeAll(async () => {
    adversary = await startAdversary();
    ({ harness, proxy, market, tradeAccountId } = adversary);
    await harness.control('/control/maker', { pinned: true });
    bookId = value(await harness.terminal.handlers.subscribeBook({ marketId: market.market_id, precision: 10n, levels: 20 }, caller)).subscriptionId;
    tradesId = value(await harness.terminal.handlers.subscribeTrades({ marketId: market.market_id }, caller)).subscriptionId;
    await until(() => bookFrames().some((frame) => frame.state === 'live' && frame.bids.length > 0), 20_000, 'a live book');
  });

  afterAll(async () => {
    await adversary?.stop();
  });

  const h = () => harness.terminal.handlers;
  const bookFrames = () => harness.pushes.filter((push) => push.stream === 'book' && (push.payload as BookFrame).subscriptionId === bookId).map((push) => push.payload as BookFrame);
  const tradeFrames = (since: number) =>
    harness.pushes.slice(since).filter((push) => push.stream === 'trades' && (push.payload as TradesFrame).subscriptionId === tradesId).map((push) => push.payload as TradesFrame);

  async function exchangeBook(): Promise<{ buys: Level[]; sells: Level[] }> {
    const body = (await (await fetch(`${harness.base()}/v1/depth?market_id=${market.market_id}&precision=10&depth=20`)).json()) as Record<string, { buys: Level[]; sells: Level[] } | undefined>;
    return body.view ?? body.orders ?? { buys: [], sells: [] };
  }

  /** The last frame is live and shows the exchange's top levels, both sides, and not none. */
  async function bookIsTheExchanges(): Promise<boolean> {
    const last = bookFrames().at(-1);
    if (last?.state !== 'live') return false;
    const theirs = await exchangeBook();
    const same = (shown: readonly { price: bigint; quantity: bigint }[], levels: readonly Level[]) =>
      levels.length > 0 && shown.length === Math.min(levels.length, 20) && shown.every((level, index) => levels[index]?.price === level.price.toString() && levels[index]?.quantity === level.quantity.toString());
    return same(last.bids, theirs.buys) && same(last.asks, theirs.sells);
  }

  /** A buy `ticks` under the best bid: a level near the top of the book, resting. */
  async function buyNearTop(ticks: bigint) {
    const inside = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const price = (inside.bid / tick) * tick - ticks * tick;
    return { marketId: market.market_id, side: 'Buy' as const, orderType: { kind: 'Spot' as const }, price, quantity: harness.sizeFor(market, price) };
  }

  /** A buy at the best ask: it takes from the maker at once (a fill, a trade on the tape). */
  async function buyAtAsk() {
    const inside = await harness.insidePrices(market);
    return { marketId: market.market_id, side: 'Buy' as const, orderType: { kind: 'Spot' as const }, price: inside.ask, quantity: harness.sizeFor(market, inside.ask) };
  }

  async function ownOpen(): Promise<string[]> {
    const orders = await harness.ledgerOrders(market.market_id);
    return orders.filter((order) => order.owner?.ContractId === tradeAccountId && !order.close && !order.cancel).map((order) => order.order_id).sort();
  }

  async function appOpen(): Promise<string[]> {
    return value(await h().getOrders({}, caller)).open.filter((order) => order.marketId === market.market_id).map((order) => order.orderId).sort();
  }

  /** Honest again: the book and the open orders are the exchange's, and an order placed now lands once and shows. */
  async function expectHonestAgain() {
    proxy.honest();
    await until(bookIsTheExchanges, 20_000, 'the book to be the exchange’s again');
    const order = await buyNearTop(40n);
    const placed = value(await h().placeOrder(order, caller));
    const orderId = placed.orders[0]!.orderId;
    await until(async () => (await appOpen()).includes(orderId), 10_000, 'the honest order to show');
    value(await h().cancelOrder({ marketId: market.market_id, orderId }, caller));
    await until(async () => JSON.stringify(await appOpen()) === JSON.stringify(await ownOpen()), 15_000, 'app and exchange to agree on open orders');
  }

  /** Cancel every open order of ours (the tests leave the book as they found it). */
  async function cancelOurs() {
    for (const orderId of await ownOpen()) value(await h().cancelOrder({ marketId: market.market_id, orderId }, caller));
  }

  it('duplicated messages: one fill is announced once, the tape holds each trade once, the book stays the exchange’s', async () => {
    const since = harness.pushes.length;
    proxy.lieOnStream(duplicatedMessages());
    // A buy at the best ask: it takes from the maker at once.
    const orderId = value(await h().placeOrder(await buyAtAsk(), caller)).orders[0]!.orderId;
    const ledgerFilled = async () => BigInt((await harness.ledgerOrders(market.market_id)).find((candidate) => candidate.order_id === orderId)?.quantity_fill ?? '0');
    await until(async () => (await ledgerFilled()) > 0n, 15_000, 'our order to fill on the exchange');
    const announced = () => harness.pushes.slice(since).filter((push) => push.stream === 'fill' && (push.payload as FillNotice).fill.orderId === orderId).map((push) => (push.payload as FillNotice).fill);
    await until(() => announced().length > 0, 15_000, 'the fill to be announced');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Each fill once: what was announced adds up to what filled on the exchange, and so do the listed fills.
    expect(announced().reduce((sum, fill) => sum + fill.quantity, 0n)).toBe(await ledgerFilled());
    const listed = value(await h().getOrders({}, caller)).fills.filter((fill) => fill.orderId === orderId);
    expect(listed.reduce((sum, fill) => sum + fill.quantity, 0n)).toBe(await ledgerFilled());
    const tradeIds = tradeFrames(since).flatMap((frame) => frame.trades.map((trade) => trade.tradeId));
    expect(tradeIds.length).toBeGreaterThan(0);
    expect(new Set(tradeIds).size).toBe(tradeIds.length);
    await until(bookIsTheExchanges, 15_000, 'the book to be the exchange’s');
    await cancelOurs();
    await expectHonestAgain();
  });

  it('reordered depth updates: the book is never left showing a level the exchange does not have', async () => {
    await until(bookIsTheExchanges, 15_000, 'a live book equal to the exchange’s');
    proxy.lieOnStream(reorderedMessages());
    // A level appears and goes: swapped, the removal would come first and the level would stay.
    const order = await buyNearTop(3n);
    const orderId = value(await h().placeOrder(order, caller)).orders[0]!.orderId;
    value(await h().cancelOrder({ marketId: market.market_id, orderId }, caller));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await until(bookIsTheExchanges, 10_000, 'the book to be the exchange’s, or resynced to it');
    await expectHonestAgain();
  });

  it('a snapshot older than the deltas already applied is not shown as the book', async () => {
    proxy.lieOnStream(staleSnapshot(2));
    // A new connection, so the lie has a snapshot to replay.
    proxy.closeStreams();
    await until(bookIsTheExchanges, 20_000, 'a live book after the reconnect');
    const first = await buyNearTop(3n);
    value(await h().placeOrder(first, caller));
    const second = await buyNearTop(5n);
    value(await h().placeOrder(second, caller));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await until(bookIsTheExchanges, 10_000, 'the book to be the exchange’s, or resynced to it');
    await cancelOurs();
    await expectHonestAgain();
  });

  it('a fill of an order the exchange does not have is not shown as a fill', async () => {
    const since = harness.pushes.length;
    const orderId = `0x${randomBytes(32).toString('hex')}`;
    const inside = await harness.insidePrices(market);
    const quantity = harness.sizeFor(market, inside.ask).toString();
    const now = `${Date.now()}000000`;
    const sent = proxy.inject({
      action: 'subscribe_orders',
      orders: [
        {
          order_id: orderId,
          owner: { ContractId: tradeAccountId },
          side: 'Buy',
          order_type: 'Spot',
          market_id: market.market_id,
          quantity,
          quantity_fill: quantity,
          price: inside.ask.toString(),
          price_fill: inside.ask.toString(),
          timestamp: now,
          close: true,
          partially_filled: false,
          cancel: false,
          history: [],
          fills: [{ order_id: orderId, quantity, price: inside.ask.toString(), timestamp: now, fee: '0' }],
        },
      ],
      onchain_timestamp: String(Math.floor(Date.now() / 1000)),
      seen_timestamp: now,
    });
    expect(sent).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(harness.pushes.slice(since).filter((push) => push.stream === 'fill' && (push.payload as FillNotice).fill.orderId === orderId)).toEqual([]);
    const orders = value(await h().getOrders({}, caller));
    expect(orders.fills.filter((fill) => fill.orderId === orderId)).toEqual([]);
    expect(orders.open.filter((open) => open.orderId === orderId)).toEqual([]);
    await expectHonestAgain();
  });

  it.each([
    ['negative and 10^40', ABSURD_VALUES],
    ['10^40 alone', [ABSURD_VALUES[1]]],
  ])('absurd numbers (%s) in depth, trades and balances: never shown, the sources not live', async (_name, values) => {
    const since = harness.pushes.length;
    proxy.lieOnStream(absurdStreamNumbers(values));
    // A trade, a book change and a change of our balances: each message carries absurd amounts.
    value(await h().placeOrder(await buyAtAsk(), caller));
    await until(async () => {
      const freshness = value(await h().getFreshness({}, caller));
      const sources = freshness.markets.find((source) => source.marketId === market.market_id && !source.turbo);
      return sources?.book.state !== 'live' && sources?.trades.state !== 'live' && freshness.balances.state !== 'live';
    }, 10_000, 'the book, the tape and the balances to be shown as not live');
    const since2 = harness.pushes.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const moneyPushes = harness.pushes.slice(since).filter((push) => ['book', 'trades', 'balances', 'orders', 'fill'].includes(push.stream));
    expect(absurdNumberIn(moneyPushes.map((push) => push.payload))).toBeNull();
    expect(absurdNumberIn(value(await h().getBalances({}, caller)))).toBeNull();
    // While the lie goes on, no frame calls the book live.
    expect(bookFrames().slice(-1)[0]?.state).toBe('resyncing');
    expect(harness.pushes.slice(since2).filter((push) => push.stream === 'book' && (push.payload as BookFrame).subscriptionId === bookId && (push.payload as BookFrame).state === 'live')).toEqual([]);
    await cancelOurs();
    await expectHonestAgain();
    await until(async () => {
      const freshness = value(await h().getFreshness({}, caller));
      const sources = freshness.markets.find((source) => source.marketId === market.market_id && !source.turbo);
      return sources?.trades.state === 'live' && freshness.balances.state === 'live';
    }, 10_000, 'the tape and the balances to be live again');
  });

  it('control characters and bidi overrides in stream texts never reach a window', async () => {
    const since = harness.pushes.length;
    proxy.lieOnStream(controlCharactersInStream());
    proxy.inject({ error: `Client is inactive${HOSTILE_TEXT.join('')}` });
    value(await h().placeOrder(await buyAtAsk(), caller));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(hostileCharacterIn(harness.pushes.slice(since).map((push) => push.payload))).toBeNull();
    expect(hostileCharacterIn(value(await h().getOrders({}, caller)))).toBeNull();
    await cancelOurs();
    await expectHonestAgain();
  });
});
