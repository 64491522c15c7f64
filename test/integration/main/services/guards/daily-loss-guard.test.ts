// The daily loss limit against the real sandbox: a long bought with the limit set, then the market
// moved down through the control surface until the day's P&L is past the limit. Main then refuses a
// buy that adds exposure with GUARD_DAILY_LOSS (nothing signed: nonce and book unchanged) while a
// sell that only reduces the long is still signed. Raising the limit needs the confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import { quoteValue } from '../../../../../shared/market/amounts';
import { caller, startOnboarded, until, value, type Harness } from '../../../../support/terminal-harness';

describe('the daily loss limit before signing', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    const onboarded = await startOnboarded();
    ({ harness, market, tradeAccountId } = onboarded);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const nonce = async () => (await harness.ledgerAccount(tradeAccountId))?.nonce;
  const ownOrders = async () => (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId);

  it('refuses an order that adds exposure once the day’s loss passes the limit, and still signs one that reduces', async () => {
    const h = harness.terminal.handlers;
    const { ask } = await harness.insidePrices(market);
    const size = harness.sizeFor(market, ask) * 4n;
    // 5 % of the position's value: a 20 % fall is past it.
    const limit = quoteValue(market, ask, size) / 20n;
    value(await h.updateSettings({ dailyLossLimit: { [market.quote.asset]: limit } }, caller));
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Market' }, price: ask, quantity: size }, caller));
    const position = async () => value(await h.getPositions({}, caller)).positions.find((row) => row.marketId === market.market_id && !row.turbo && row.account === tradeAccountId)?.size ?? 0n;
    const held = await until(async () => {
      const now = await position();
      return now > 0n ? now : null;
    }, 20_000, 'a long position');
    const tick = harness.priceTick(market);
    await harness.control('/control/markets/price', { market_id: market.market_id, price: (((ask * 80n) / 100n / tick) * tick).toString() });
    const { ask: lowAsk, bid: lowBid } = await harness.insidePrices(market);
    const before = { nonce: await nonce(), orders: (await ownOrders()).length };
    const adds = await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Market' }, price: lowAsk, quantity: harness.sizeFor(market, lowAsk) }, caller);
    expect(adds.ok).toBe(false);
    if (adds.ok) return;
    expect(adds.code, adds.message).toBe('GUARD_DAILY_LOSS');
    expect(adds.message).toMatch(/Day P&L -[\d,.]+ \w+ .* past your daily loss limit of -[\d,.]+ \w+.*Nothing was signed/);
    expect(BigInt(adds.details!.value as string)).toBeLessThanOrEqual(-limit);
    expect(await nonce()).toBe(before.nonce);
    expect((await ownOrders()).length).toBe(before.orders);
    const raised = await h.updateSettings({ dailyLossLimit: { [market.quote.asset]: limit * 100n } }, caller);
    expect(raised.ok ? 'applied' : raised.code).toBe('CONFIRMATION_REQUIRED');
    // Reducing the long is still signed.
    const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
    const reduce = await h.placeOrder({ marketId: market.market_id, side: 'Sell', orderType: { kind: 'Market' }, price: lowBid, quantity: (held / 2n / step) * step }, caller);
    expect(reduce.ok ? 'placed' : `${reduce.code}: ${reduce.message}`).toBe('placed');
  }, 120_000);
});
