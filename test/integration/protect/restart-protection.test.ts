// A restart of the app with a trailing stop, a position TP/SL and a pending alert keeps all three,
// against a real sandbox that runs on across the restart: after it, each protective order says it
// kept working, the trailing stop follows the bid up on the exchange, the position TP/SL grows with
// a fill, and the alert, still listed and armed, fires when the price crosses its level.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkConfig } from '../../../main/services/network/networks';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import type { AlertFiringView } from '../../../shared/ipc/views/alerts';
import type { Notice } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { MemorySecretStore } from '../../support/memory-secret-store';
import { caller, startHarness, until, value, type Harness } from '../../support/terminal-harness';

interface WireLeg {
  readonly order_id: string;
  readonly trigger_price: string;
  readonly quantity?: { Quantity?: { quantity: string } };
}

interface ActiveEntry extends Partial<WireLeg> {
  readonly kind: string;
  readonly triggers?: WireLeg[];
}

describe('a restart keeps a trailing stop, a position TP/SL and a pending alert', () => {
  let sandbox: RunningSandbox;
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-restart-protection-'));
  const secrets = new MemorySecretStore();
  const network = (): NetworkConfig => ({ id: 'devnet', name: 'Sandbox (in process)', kind: 'devnet', restUrl: sandbox.url, wsUrl: null, faucetUrl: sandbox.url, faucetNetwork: 'sandbox', production: false });
  const open = () => startHarness({ networkOverride: network(), exchangeUrl: sandbox.url, dataDir, secrets });

  /** The trading account's pending legs on the canonical book, as the exchange lists them. */
  const legs = async (): Promise<Map<string, { trigger: bigint; size: bigint }>> => {
    const response = await fetch(`${sandbox.url}/v1/orders/active?market_id=${market.market_id}&contract=${tradeAccountId}`);
    const body = (await response.json()) as { entries: ActiveEntry[] };
    const wires = body.entries.flatMap((entry) => (entry.kind === 'trigger' ? [entry as WireLeg] : (entry.triggers ?? [])));
    return new Map(wires.map((wire) => [wire.order_id, { trigger: BigInt(wire.trigger_price), size: BigInt(wire.quantity?.Quantity?.quantity ?? '0') }]));
  };
  const position = async (): Promise<bigint> => {
    const view = value(await harness.terminal.handlers.getPositions({}, caller));
    return view.positions.find((row) => row.account === tradeAccountId && row.marketId === market.market_id && !row.turbo)?.size ?? 0n;
  };
  const moveTo = (price: bigint) => harness.control('/control/markets/price', { market_id: market.market_id, price: price.toString() });
  const noticeSaying = (...parts: string[]) => harness.pushes.find((push) => push.stream === 'notice' && parts.every((part) => (push.payload as Notice).text.includes(part)))?.payload as Notice | undefined;

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

  it('says each kept working, and each works after the restart', async () => {
    let h = harness.terminal.handlers;
    const tick = harness.priceTick(market);
    const onTick = (price: bigint) => (price / tick) * tick;
    const { bid, ask } = await harness.insidePrices(market);
    const size = harness.sizeFor(market, ask);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ask, quantity: size * 2n }, caller));
    const long = await until(async () => ((await position()) > 0n ? position() : false), 20_000, 'the long');

    // A trailing stop on a stop of its own.
    const stop = value(await h.placeStopOrder({ marketId: market.market_id, side: 'Sell', leg: { triggerPrice: onTick((bid * 90n) / 100n), execution: { kind: 'slippage', bps: 100 } }, size: { kind: 'quantity', quantity: size } }, caller));
    const stopId = stop.triggers[0]!.triggerId;
    value(await h.armProtectiveStop({ marketId: market.market_id, triggerId: stopId, reference: 'bid', distance: { kind: 'percent', basisPoints: 200n }, breakEvenAfterTicks: null }, caller));
    // A position TP/SL.
    const bracket = value(await h.armPositionBracket({ marketId: market.market_id, takeProfit: onTick((bid * 130n) / 100n), stopLoss: onTick((bid * 80n) / 100n) }, caller));
    // A pending alert above the market.
    const level = onTick((ask * 112n) / 100n);
    const alert = value(await h.createAlert({ condition: { kind: 'price', marketId: market.market_id, source: 'last', direction: 'above', price: level, hysteresis: tick }, repeat: false, cooldownSeconds: 0 }, caller));
    // The stop has trailed to 2 % under the bid before the restart.
    const trailed = await until(async () => {
      const managed = value(await h.getProtectiveStops({}, caller))[0];
      const leg = managed === undefined ? undefined : (await legs()).get(managed.triggerId);
      return leg !== undefined && leg.trigger > onTick((bid * 90n) / 100n) ? leg.trigger : false;
    }, 20_000, 'the stop to trail the bid');

    const pairSizes = async (): Promise<bigint[]> => {
      const pair = (value(await h.getPositionBrackets({}, caller)) as readonly { legIds: readonly string[] }[])[0];
      const onExchange = await legs();
      return (pair?.legIds ?? []).map((id) => onExchange.get(id)?.size ?? 0n);
    };
    const before = await until(async () => {
      const sizes = await pairSizes();
      return sizes.length === 2 && sizes.every((one) => one > 0n) ? (sizes[0] as bigint) : false;
    }, 20_000, 'the pair on the exchange');

    // A restart of the app: a new terminal on the same data directory and keys.
    await harness.stop();
    harness = await open();
    h = harness.terminal.handlers;
    await until(() => noticeSaying('kept working after the restart', 'trailing 2 % from the bid'), 20_000, 'the trailing stop said to keep working');
    const resumed = await until(() => noticeSaying('Position TP/SL', 'kept working after the restart'), 20_000, 'the position TP/SL said to keep working');
    expect(resumed.text).toContain('TP ');
    const listed = value(await h.listAlerts({}, caller));
    expect(listed.alerts.find((candidate) => candidate.id === alert.id)).toMatchObject({ enabled: true, lastFiredAt: null });
    expect((value(await h.getPositionBrackets({}, caller)) as readonly { id: string }[]).map((one) => one.id)).toEqual([bracket.id]);

    // The trailing stop still follows the bid up.
    await moveTo(onTick((bid * 104n) / 100n));
    await until(async () => {
      const managed = value(await h.getProtectiveStops({}, caller))[0];
      const leg = managed === undefined ? undefined : (await legs()).get(managed.triggerId);
      return leg !== undefined && leg.trigger > trailed;
    }, 30_000, 'the stop to trail after the restart');
    // The position TP/SL still grows with a fill.
    const { ask: later } = await harness.insidePrices(market);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: later, quantity: size }, caller));
    const grown = await until(async () => {
      const now = await position();
      return now > long ? now : false;
    }, 20_000, 'the larger long');
    const after = await until(async () => {
      const sizes = await pairSizes();
      return sizes.length === 2 && sizes.every((one) => one > before && one <= grown) ? sizes : false;
    }, 30_000, 'the pair to grow after the restart');
    expect(after[0]).toBeGreaterThan(before);
    // The alert, kept, fires when the price crosses its level.
    const since = harness.pushes.length;
    await moveTo(level + 5n * tick);
    const fired = await until(() => harness.pushes.slice(since).find((push) => push.stream === 'alertFired')?.payload as AlertFiringView | undefined, 20_000, 'the alert to fire');
    expect(fired.alertId).toBe(alert.id);
  }, 240_000);
});
