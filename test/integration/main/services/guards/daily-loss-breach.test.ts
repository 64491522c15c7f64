// The daily loss limit's breach actions against the real sandbox. A long is bought and a sell left
// resting above the market, then the market is moved down through the control surface until the
// day's P&L is past the limit. Main, with no window asking: tells every window to disarm (the
// `guardDisarm` push, naming the figure and the limit), refuses an order that adds exposure with
// GUARD_DAILY_LOSS and still signs one that reduces; with "cancel and flatten" chosen (turning it
// on is free) and the limit tightened (a breach of its own), it cancels the resting order and
// flattens the position on the exchange, once: nothing more is sent on the next readings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardDisarmView, GuardStateView } from '../../../../../shared/ipc/views';
import type { Market } from '../../../../../shared/market/market';
import { quoteValue } from '../../../../../shared/market/amounts';
import { caller, startOnboarded, until, value, type Harness } from '../../../../support/terminal-harness';

describe('the daily loss limit’s breach', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, market, tradeAccountId } = await startOnboarded());
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const ownOrders = async () => (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId);
  const openOwn = async () => (await ownOrders()).filter((order) => order.close !== true && order.cancel !== true);
  const disarms = () => harness.pushes.filter((push) => push.stream === 'guardDisarm').map((push) => push.payload as GuardDisarmView);
  const lastState = () => harness.pushes.filter((push) => push.stream === 'guardState').at(-1)?.payload as GuardStateView | undefined;

  it('disarms every window and refuses new exposure; with cancel-and-flatten chosen, cancels and flattens on the exchange once', async () => {
    const h = harness.terminal.handlers;
    const position = async () => value(await h.getPositions({}, caller)).positions.find((row) => row.marketId === market.market_id && !row.turbo && row.account === tradeAccountId)?.size ?? 0n;
    const { ask } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    // Large enough that a quarter of it (less the fee taken in the bought asset) is still an order.
    const size = harness.sizeFor(market, ask) * 8n;
    // 5 % of the position's value: a 20 % fall is well past it.
    const limit = quoteValue(market, ask, size) / 20n;
    value(await h.updateSettings({ dailyLossLimit: { [market.quote.asset]: limit } }, caller));
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Market' }, price: ask, quantity: size }, caller));
    const held = await until(async () => {
      const now = await position();
      return now > 0n ? now : null;
    }, 20_000, 'a long position');
    // A sell resting above the market: the fall does not fill it, the breach cancels it.
    const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
    const restingPrice = ((ask * 103n) / 100n / tick) * tick;
    value(await h.placeOrder({ marketId: market.market_id, side: 'Sell', orderType: { kind: 'Spot' }, price: restingPrice, quantity: ((held / 4n) / step) * step }, caller));
    await until(async () => (await openOwn()).length === 1, 20_000, 'the resting sell on the exchange');
    // The header's figure is pushed, under the limit.
    await until(() => lastState()?.dayPnl[0]?.pnl !== undefined && lastState()?.dayPnl[0]?.pnl !== null, 20_000, 'the day’s P&L pushed');
    expect(lastState()!.dayPnl[0]).toMatchObject({ quoteAsset: market.quote.asset, limit, breached: false });

    await harness.control('/control/markets/price', { market_id: market.market_id, price: (((ask * 80n) / 100n / tick) * tick).toString() });
    const disarm = await until(() => disarms()[0], 30_000, 'every window told to disarm');
    expect(disarm.reason).toMatch(/daily loss limit was reached \(day P&L -[\d,.]+ \w+, limit -[\d,.]+ \w+\)/);
    expect(lastState()!.dayPnl[0]!.breached).toBe(true);
    const notice = harness.pushes.find((push) => push.stream === 'notice' && JSON.stringify(push.payload).includes('GUARD_DAILY_LOSS'));
    expect(notice, 'the breach notice').toBeDefined();
    // Not chosen: the resting order and the position are left as they are.
    expect((await openOwn()).length).toBe(1);
    expect(await position()).toBe(held);

    const { ask: lowAsk, bid: lowBid } = await harness.insidePrices(market);
    const adds = await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Market' }, price: lowAsk, quantity: harness.sizeFor(market, lowAsk) }, caller);
    expect(adds.ok ? 'placed' : adds.code).toBe('GUARD_DAILY_LOSS');
    if (adds.ok) return;
    expect(adds.message).toMatch(/Day P&L -[\d,.]+ \w+ .* past your daily loss limit of -[\d,.]+ \w+/);
    // A market sell takes the bid as it was read; the maker requotes after the fall, so one that
    // met no bid (cancelled unfilled, as the kind says) is sent again at the bid of the moment.
    let bid = lowBid;
    for (let attempt = 1; ; attempt++) {
      const reduce = await h.placeOrder({ marketId: market.market_id, side: 'Sell', orderType: { kind: 'Market' }, price: bid, quantity: ((held / 4n) / step) * step }, caller);
      expect(reduce.ok ? 'placed' : `${reduce.code}: ${reduce.message}`).toBe('placed');
      if (!reduce.ok || (reduce.value.orders[0]?.filled ?? 0n) > 0n || attempt === 5) break;
      bid = (await harness.insidePrices(market)).bid;
    }
    const reduced = await until(async () => {
      const now = await position();
      return now < held ? now : null;
    }, 20_000, 'the reduced long');

    // Choosing to act is a tightening (no confirmation), and so is a lower limit: a breach of its own.
    const chosen = await h.updateSettings({ flattenOnDailyLoss: true, dailyLossLimit: { [market.quote.asset]: limit / 2n } }, caller);
    expect(chosen.ok ? 'applied' : chosen.code).toBe('applied');
    await until(async () => (await openOwn()).length === 0, 30_000, 'the resting sell cancelled on the exchange');
    // Flat, but for a remainder below the size step that no order can close (the fee taken in ETH).
    await until(async () => ((await position()) < step ? true : null), 30_000, `the position (${reduced}) flattened on the exchange`);
    expect(harness.pushes.some((push) => push.stream === 'notice' && /Daily loss limit: closing orders sent for 1 position/.test(JSON.stringify(push.payload)))).toBe(true);
    expect(disarms()).toHaveLength(2);
    const refused = await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Market' }, price: lowAsk, quantity: harness.sizeFor(market, lowAsk) }, caller);
    expect(refused.ok ? 'placed' : refused.code).toBe('GUARD_DAILY_LOSS');
    // Once per breach: the next readings send nothing more.
    const sent = (await ownOrders()).length;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect((await ownOrders()).length).toBe(sent);
    expect(disarms()).toHaveLength(2);
    // Turning the action off again loosens: it needs the confirmation.
    const off = await h.updateSettings({ flattenOnDailyLoss: false }, caller);
    expect(off.ok ? 'applied' : off.code).toBe('CONFIRMATION_REQUIRED');
  }, 180_000);
});
