// Main's order guards against the real sandbox: a price far outside the band, on a new order, an
// amend or a stop, and a reduce-only order that would flip the position, are refused with the
// guard's code before a nonce is taken: nothing reaches the exchange and the account's nonce does
// not move. Loosening the band needs the trusted confirmation; tightening it applies at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import { ACCEPTING_DIALOG, caller, startOnboarded, openTurboSession, turboSetup, until, value, type Harness } from '../../../../support/terminal-harness';

describe('order guards (price band, reduce-only) before signing', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;
  let markets: Market[];

  beforeAll(async () => {
    const onboarded = await startOnboarded();
    ({ harness, market, tradeAccountId, markets } = onboarded);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const nonce = async () => (await harness.ledgerAccount(tradeAccountId))?.nonce;
  const ownOrders = async () => (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId);

  it('refuses a buy at ten times the book with GUARD_PRICE_BAND, with no nonce consumed and nothing on the exchange', async () => {
    const h = harness.terminal.handlers;
    const { ask } = await harness.insidePrices(market);
    const price = ask * 10n;
    const before = { nonce: await nonce(), orders: (await ownOrders()).length };
    const placed = await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price, quantity: harness.sizeFor(market, price) }, caller);
    expect(placed.ok).toBe(false);
    if (placed.ok) return;
    expect(placed.code).toBe('GUARD_PRICE_BAND');
    expect(placed.message).toMatch(/price band of 30 % \(3000 bps\)/);
    expect(placed.message).toMatch(/Nothing was signed/);
    expect(await nonce()).toBe(before.nonce);
    expect((await ownOrders()).length).toBe(before.orders);
  }, 60_000);

  it('refuses an amend to a far-off price with GUARD_PRICE_BAND and leaves the order where it rests', async () => {
    const h = harness.terminal.handlers;
    const order = await harness.restingBuy(market);
    const placed = value(await h.placeOrder(order, caller));
    const orderId = placed.orders[0]!.orderId;
    await until(async () => value(await h.getOrders({}, caller)).open.some((view) => view.orderId === orderId), 20_000, 'the order in Open orders');
    const before = await nonce();
    const tick = harness.priceTick(market);
    const far = (order.price / 10n / tick) * tick;
    const amended = await h.amendOrder({ marketId: market.market_id, orderId, price: far, quantity: harness.sizeFor(market, far) }, caller);
    expect(amended.ok).toBe(false);
    if (amended.ok) return;
    expect(amended.code).toBe('GUARD_PRICE_BAND');
    expect(await nonce()).toBe(before);
    const resting = (await ownOrders()).find((row) => row.order_id === orderId);
    expect(resting?.price).toBe(order.price.toString());
    expect(resting?.cancel ?? false).toBe(false);
    value(await h.cancelOrder({ marketId: market.market_id, orderId }, caller));
  }, 60_000);

  it('refuses a stop whose trigger price is far outside the band', async () => {
    const h = harness.terminal.handlers;
    const { bid } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const trigger = (bid / 20n / tick) * tick;
    const before = await nonce();
    const stop = await h.placeStopOrder({ marketId: market.market_id, side: 'Sell', leg: { triggerPrice: trigger, execution: { kind: 'market' } }, size: { kind: 'quantity', quantity: harness.sizeFor(market, trigger) } }, caller);
    expect(stop.ok).toBe(false);
    if (stop.ok) return;
    expect(stop.code, stop.message).toBe('GUARD_PRICE_BAND');
    expect(await nonce()).toBe(before);
  }, 60_000);

  it('refuses a reduce-only order that would flip the position or add to it, naming the largest size allowed', async () => {
    const h = harness.terminal.handlers;
    const { ask } = await harness.insidePrices(market);
    const size = harness.sizeFor(market, ask);
    // A long position from a market buy.
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Market' }, price: ask, quantity: size }, caller));
    const position = async () => value(await h.getPositions({}, caller)).positions.find((row) => row.marketId === market.market_id && !row.turbo && row.account === tradeAccountId)?.size ?? 0n;
    const held = await until(async () => {
      const now = await position();
      return now > 0n ? now : null;
    }, 20_000, 'a long position');
    const { bid } = await harness.insidePrices(market);
    const before = await nonce();
    const flip = await h.placeOrder({ marketId: market.market_id, side: 'Sell', orderType: { kind: 'Market' }, price: bid, quantity: held * 3n, reduceOnly: true }, caller);
    expect(flip.ok).toBe(false);
    if (flip.ok) return;
    expect(flip.code).toBe('GUARD_REDUCE_ONLY');
    // The largest size that does not pass zero, on the market's size step (the fee in base leaves the position off it).
    const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
    expect(flip.details?.maximum).toBe(((held / step) * step).toString());
    expect(flip.message).toMatch(/would flip your long/);
    const adds = await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Market' }, price: ask, quantity: size, reduceOnly: true }, caller);
    expect(adds.ok ? 'placed' : adds.code).toBe('GUARD_REDUCE_ONLY');
    expect(await nonce()).toBe(before);
  }, 90_000);

  it('refuses a Turbo Account’s order on the Turbo book beyond the band, with nothing signed by the Turbo Account', async () => {
    const turbo = await startOnboarded({ confirmer: ACCEPTING_DIALOG });
    try {
      const t = turbo.harness.terminal.handlers;
      const { market: turboMarket, child } = await turboSetup(turbo.harness, turbo.markets);
      value(await t.selectMarginAccount({ marginAccountId: child }, caller));
      await openTurboSession(turbo.harness, child);
      const order = await turbo.harness.restingBuy(turboMarket);
      const tick = turbo.harness.priceTick(turboMarket);
      const far = ((order.price * 10n) / tick) * tick;
      const before = (await turbo.harness.ledgerAccount(child))?.nonce;
      const refused = await t.placeOrder({ ...order, price: far, quantity: turbo.harness.sizeFor(turboMarket, far), turbo: true, orderType: { kind: 'Limit' } }, caller);
      expect(refused.ok ? 'placed' : refused.code).toBe('GUARD_PRICE_BAND');
      expect(refused.ok ? '' : refused.message).toMatch(/Turbo book/);
      expect((await turbo.harness.ledgerAccount(child))?.nonce).toBe(before);
      // Inside the band the same account's order is signed as before (the Turbo book's minimum is larger).
      const placed = value(await t.placeOrder({ ...order, quantity: order.quantity * 4n, turbo: true, orderType: { kind: 'Limit' } }, caller));
      expect(placed.orders[0]?.account).toBe(child);
    } finally {
      await turbo.harness.stop();
    }
  }, 180_000);

  it('holds every order and every leg with its own size to the maximum order size, in main, with nothing signed', async () => {
    const h = harness.terminal.handlers;
    // Another market than the others here: a cap cannot be raised again without a confirmation.
    const capped = markets.find((candidate) => candidate.market_id !== market.market_id)!;
    const order = await harness.restingBuy(capped);
    value(await h.updateSettings({ maxOrderQuantity: { [capped.market_id]: order.quantity } }, caller));
    const before = await nonce();
    const above = await h.placeOrder({ ...order, quantity: order.quantity * 2n }, caller);
    expect(above.ok ? 'placed' : above.code).toBe('MAX_ORDER_SIZE');
    const { bid } = await harness.insidePrices(capped);
    const tick = harness.priceTick(capped);
    const trigger = ((bid * 95n) / 100n / tick) * tick;
    const stop = await h.placeStopOrder({ marketId: capped.market_id, side: 'Sell', leg: { triggerPrice: trigger, execution: { kind: 'market' } }, size: { kind: 'quantity', quantity: 10n ** BigInt(capped.base.decimals) } }, caller);
    expect(stop.ok ? 'placed' : `${stop.code}: ${stop.message}`).toMatch(/^MAX_ORDER_SIZE: .*above your maximum order size/);
    expect(await nonce()).toBe(before);
  }, 60_000);

  it('asks for the trusted confirmation to loosen or turn off a band, and tightens one at once', async () => {
    const h = harness.terminal.handlers;
    const off = await h.updateSettings({ priceBandBps: { [market.market_id]: 0 } }, caller);
    expect(off.ok ? 'applied' : off.code).toBe('CONFIRMATION_REQUIRED');
    const wider = await h.updateSettings({ priceBandBps: { [market.market_id]: 5_000 } }, caller);
    expect(wider.ok ? 'applied' : wider.code).toBe('CONFIRMATION_REQUIRED');
    const tighter = value(await h.updateSettings({ priceBandBps: { [market.market_id]: 100 } }, caller));
    expect(tighter.priceBandBps[market.market_id]).toBe(100);
    // A resting buy 3 % under the bid is outside a 1 % band now.
    const order = await harness.restingBuy(market);
    const refused = await h.placeOrder(order, caller);
    expect(refused.ok ? 'placed' : refused.code).toBe('GUARD_PRICE_BAND');
  }, 60_000);
});
