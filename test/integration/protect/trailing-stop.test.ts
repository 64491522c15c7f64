// A trailing stop managed by main against a real sandbox: a long protected by a sell stop, the
// stop armed to trail the bid by 2 %, the price moved through the book with the control surface.
// On the exchange (GET /v1/orders/active) the stop follows the price up, never loosens when the
// price falls back, keeps working after a restart of the app (a new terminal on the same data
// directory and keys, the exchange running on), and the kill switch leaves no leg and nothing
// that moves one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkConfig } from '../../../main/services/network/networks';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import type { Notice, ProtectiveStopView } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { MemorySecretStore } from '../../support/memory-secret-store';
import { caller, startHarness, until, value, type Harness } from '../../support/terminal-harness';

interface ActiveEntry {
  readonly kind: string;
  readonly order_id: string;
  readonly trigger_price?: string;
  readonly triggers?: { readonly order_id: string; readonly trigger_price: string }[];
}

describe('a trailing stop main moves on the exchange', () => {
  let sandbox: RunningSandbox;
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-trailing-'));
  const secrets = new MemorySecretStore();
  const network = (): NetworkConfig => ({ id: 'devnet', name: 'Sandbox (in process)', kind: 'devnet', restUrl: sandbox.url, wsUrl: null, faucetUrl: sandbox.url, faucetNetwork: 'sandbox', production: false });
  const open = () => startHarness({ networkOverride: network(), exchangeUrl: sandbox.url, dataDir, secrets });

  /** The trigger prices of the trading account's pending legs on the canonical book, as the exchange lists them. */
  const legs = async (): Promise<bigint[]> => {
    const response = await fetch(`${sandbox.url}/v1/orders/active?market_id=${market.market_id}&contract=${tradeAccountId}`);
    const body = (await response.json()) as { entries: ActiveEntry[] };
    return body.entries.flatMap((entry) => (entry.kind === 'trigger' ? [BigInt(entry.trigger_price ?? '0')] : (entry.triggers ?? []).map((leg) => BigInt(leg.trigger_price))));
  };
  const moveTo = async (price: bigint) => {
    await harness.control('/control/markets/price', { market_id: market.market_id, price: price.toString() });
  };
  /** Every trigger seen on the exchange, in order: a stop is never loosened. */
  const seen: bigint[] = [];
  const watch = async (): Promise<bigint> => {
    const now = await legs();
    expect(now).toHaveLength(1);
    seen.push(now[0] as bigint);
    return now[0] as bigint;
  };
  const onTick = (price: bigint) => (price / harness.priceTick(market)) * harness.priceTick(market);

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', control: true });
    harness = await open();
    const onboarded = await harness.onboard();
    tradeAccountId = onboarded.tradeAccountId;
    market = onboarded.markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC') ?? (onboarded.markets[0] as Market);
    await harness.control('/control/maker', { pinned: true });
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
    await sandbox?.close();
  });

  it('follows the bid up, never loosens, survives a restart of the app, and the kill switch leaves nothing', async () => {
    let h = harness.terminal.handlers;
    const { bid, ask } = await harness.insidePrices(market);
    // A long: a buy at the best offer fills against the maker.
    const size = harness.sizeFor(market, ask);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ask, quantity: size }, caller));
    const stopAt = onTick((bid * 90n) / 100n);
    const placed = value(await h.placeStopOrder({ marketId: market.market_id, side: 'Sell', leg: { triggerPrice: stopAt, execution: { kind: 'slippage', bps: 100 } }, size: { kind: 'quantity', quantity: size } }, caller));
    const triggerId = placed.triggers[0]!.triggerId;
    const armed = value(await h.armProtectiveStop({ marketId: market.market_id, triggerId, reference: 'bid', distance: { kind: 'percent', basisPoints: 200n }, breakEvenAfterTicks: null }, caller));
    expect(armed.trigger).toBe(stopAt);

    // Armed at 10 % below: it tightens at once to 2 % below the bid.
    await until(async () => (await watch()) > stopAt, 20_000, 'the stop to trail the bid');
    // The price walks up 3 %: the stop follows (within the pause between moves).
    const higher = onTick((bid * 103n) / 100n);
    await moveTo(higher);
    const top = await until(async () => {
      const trigger = await watch();
      const { bid: now } = await harness.insidePrices(market);
      return trigger >= onTick((now * 9_790n) / 10_000n) ? trigger : false;
    }, 30_000, 'the stop to follow the bid up');
    // The price falls back 2 %: the stop stays where it is.
    await moveTo(onTick((higher * 98n) / 100n));
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await watch()).toBe(top);

    // A restart of the app: a new terminal on the same data directory and keys.
    await harness.stop();
    harness = await open();
    h = harness.terminal.handlers;
    const resumed = await until(() => harness.pushes.find((push) => push.stream === 'notice' && (push.payload as Notice).text.includes('kept working after the restart'))?.payload as Notice | undefined, 20_000, 'the restart notice');
    expect(resumed.text).toContain('trailing 2 % from the bid');
    await moveTo(onTick((higher * 104n) / 100n));
    await until(async () => (await watch()) > top, 30_000, 'the stop to trail after the restart');

    // Never loosened: every trigger seen is at least the one before.
    for (let index = 1; index < seen.length; index += 1) expect(seen[index]).toBeGreaterThanOrEqual(seen[index - 1] as bigint);

    // The kill switch: no leg on the exchange, no stop managed, and none comes back when the price moves.
    value(await h.cancelAllOrders({}, caller));
    expect(await legs()).toEqual([]);
    expect(value(await h.getProtectiveStops({}, caller)) as readonly ProtectiveStopView[]).toEqual([]);
    await moveTo(onTick((higher * 106n) / 100n));
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await legs()).toEqual([]);
  }, 180_000);
});
