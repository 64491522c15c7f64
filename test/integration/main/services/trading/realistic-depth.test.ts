// Rehearsing size through the app against the sandbox's realistic book: a 2 ETH market buy that
// main signs fills in full at the prices of several ask levels, best first. The maker is pinned
// and clock-driven, so the book the test reads is the book the order meets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import { caller, startOnboarded, until, value, type Harness } from '../../../../support/terminal-harness';

const ETH = 1_000_000_000n;

describe('a 2 ETH market buy on the realistic book', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  beforeAll(async () => {
    const onboarded = await startOnboarded({ sandboxArgs: ['--maker-profile', 'realistic'] });
    ({ harness, market, tradeAccountId } = onboarded);
    await harness.control('/control/maker', { pinned: true, clock_driven: true });
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('fills in full across several levels, best first', async () => {
    expect(market.base.symbol).toBe('ETH');
    const depth = (await (await fetch(`${harness.base()}/v1/depth?market_id=${market.market_id}&precision=1`)).json()) as { view: { sells: { price: string; quantity: string }[] } };
    const asks = depth.view.sells;
    expect(asks.length).toBe(40);
    const tick = harness.priceTick(market);
    const worst = ((BigInt(asks[0]?.price ?? '0') * 1005n) / 1000n / tick) * tick;
    value(await harness.terminal.handlers.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Market' }, price: worst, quantity: 2n * ETH }, caller));
    const filled = await until(async () => {
      const own = (await harness.ledgerOrders(market.market_id)).find((order) => order.owner?.ContractId === tradeAccountId && order.side === 'Buy');
      return own?.close === true ? own : null;
    }, 20_000, 'the buy to close');
    expect(filled.quantity_fill).toBe(String(2n * ETH));
    const prices = [...new Set((filled.fills as { price: string }[]).map((fill) => fill.price))];
    expect(prices.length).toBeGreaterThanOrEqual(3);
    expect(prices).toEqual(asks.slice(0, prices.length).map((level) => level.price));
  }, 60_000);
});
