// A burst of 100 order intents in one second: the client's limiter paces them under the spec's
// 5 per second per owner, so the exchange answers none of them with 429, and every order is
// placed exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, value, type Harness } from '../../support/terminal-harness';

describe('order burst', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded({ lanes: 4 }));
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('paces 100 intents sent within a second with zero 429 responses', { timeout: 90_000 }, async () => {
    const inside = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const top = ((inside.bid * 96n) / 100n / tick) * tick;
    const intents = Array.from({ length: 100 }, (_, index) => {
      const price = top - BigInt(index) * tick;
      return { marketId: market.market_id, side: 'Buy' as const, orderType: { kind: 'Spot' as const }, price, quantity: harness.sizeFor(market, price) };
    });
    const started = Date.now();
    const sent: Promise<Awaited<ReturnType<typeof harness.terminal.handlers.placeOrder>>>[] = [];
    for (const intent of intents) {
      sent.push(Promise.resolve(harness.terminal.handlers.placeOrder(intent, caller)));
      await new Promise((resolve) => setTimeout(resolve, 9));
    }
    // A burst: sent at four times the allowed rate at least (about a second on a quiet machine; the
    // timers stretch on loaded cores), so the pacing below is the client's, not the sender's.
    expect(Date.now() - started).toBeLessThan(5000);
    const results = await Promise.all(sent);
    const failures = results.filter((result) => !result.ok).map((result) => (result.ok ? '' : `${result.code}: ${result.message}`));
    expect(failures).toEqual([]);
    const limits = value(await harness.terminal.handlers.getRateLimits({}, caller));
    expect(limits.find((limit) => limit.limiter === 'POST /v1/session/actions')?.capacity).toBe(5);
    const ours = (await harness.ledgerOrders(market.market_id)).filter((order) => order.owner?.ContractId === tradeAccountId && !order.cancel);
    const prices = ours.map((order) => order.price);
    expect(new Set(prices).size).toBe(prices.length);
    for (const intent of intents) expect(prices).toContain(intent.price.toString());
    // Five per second: 100 requests need at least 19 full windows.
    expect(Date.now() - started).toBeGreaterThan(19_000);
  });
});
