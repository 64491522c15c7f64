// A position TP/SL main keeps sized to the position, against a real sandbox: a long of one size
// gets a take-profit / stop-loss pair of that size; a fill that adds grows the pair on the exchange,
// an amend of a resting entry leaves it alone, a 50 % close from the Positions panel shrinks it, a
// restart of the app keeps it working (and says so), and the flatten leaves no leg.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkConfig } from '../../../main/services/network/networks';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import type { Notice, PositionBracketView } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { MemorySecretStore } from '../../support/memory-secret-store';
import { caller, startHarness, until, value, type Harness } from '../../support/terminal-harness';

interface WireLeg {
  readonly order_id: string;
  readonly trigger_price: string;
  readonly side: string;
  readonly quantity?: { Quantity?: { quantity: string } };
}

interface ActiveEntry extends Partial<WireLeg> {
  readonly kind: string;
  readonly triggers?: WireLeg[];
}

describe('a position TP/SL main resizes with the position', () => {
  let sandbox: RunningSandbox;
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-position-bracket-'));
  const secrets = new MemorySecretStore();
  const network = (): NetworkConfig => ({ id: 'devnet', name: 'Sandbox (in process)', kind: 'devnet', restUrl: sandbox.url, wsUrl: null, faucetUrl: sandbox.url, faucetNetwork: 'sandbox', production: false });
  const open = () => startHarness({ networkOverride: network(), exchangeUrl: sandbox.url, dataDir, secrets });

  /** The trading account's pending legs on the canonical book as the exchange lists them: sizes. */
  const legSizes = async (): Promise<bigint[]> => {
    const response = await fetch(`${sandbox.url}/v1/orders/active?market_id=${market.market_id}&contract=${tradeAccountId}`);
    const body = (await response.json()) as { entries: ActiveEntry[] };
    const legs = body.entries.flatMap((entry) => (entry.kind === 'trigger' ? [entry as WireLeg] : (entry.triggers ?? [])));
    return legs.map((leg) => BigInt(leg.quantity?.Quantity?.quantity ?? '-1')).sort();
  };
  const position = async (): Promise<bigint> => {
    const view = value(await harness.terminal.handlers.getPositions({}, caller));
    return view.positions.find((row) => row.account === tradeAccountId && row.marketId === market.market_id && !row.turbo)?.size ?? 0n;
  };
  /** The legs sized to the position (what the pair can be signed at is at most the position, within a step). */
  const pairSizedTo = async (size: bigint): Promise<bigint[] | false> => {
    const sizes = await legSizes();
    const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
    return sizes.length === 2 && sizes.every((one) => one <= size && size - one < step * 10n) ? sizes : false;
  };

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

  it('grows with a fill, survives an amend of the entry, shrinks with a partial close, keeps working after a restart, and is gone when flat', async () => {
    let h = harness.terminal.handlers;
    const tick = harness.priceTick(market);
    const { bid, ask } = await harness.insidePrices(market);
    const size = harness.sizeFor(market, ask) * 2n;
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ask, quantity: size }, caller));
    const first = await until(async () => ((await position()) > 0n ? position() : false), 20_000, 'the long');
    const takeProfit = ((bid * 120n) / 100n / tick) * tick;
    const stopLoss = ((bid * 80n) / 100n / tick) * tick;
    const armed = value(await h.armPositionBracket({ marketId: market.market_id, takeProfit, stopLoss }, caller)) as PositionBracketView;
    expect(armed.side).toBe('Sell');
    await until(() => pairSizedTo(first), 20_000, 'the pair at the position');

    // One leg of the pair is not moved or trailed alone (main would lose the pair it resizes):
    // refused with its code, nothing signed; the pair changes as one through armPositionBracket.
    const legs = value(await h.getPositionBrackets({}, caller))[0]!.legIds;
    const nonce = (await harness.ledgerAccount(tradeAccountId))!.nonce;
    const moved = await h.moveTrigger({ marketId: market.market_id, triggerId: legs[0]!, triggerPrice: stopLoss - tick }, caller);
    expect(moved.ok ? 'moved' : moved.code).toBe('LEG_OF_POSITION_TPSL');
    const trailed = await h.armProtectiveStop({ marketId: market.market_id, triggerId: legs[1]!, reference: 'bid', distance: { kind: 'ticks', ticks: 100n }, breakEvenAfterTicks: null }, caller);
    expect(trailed.ok ? 'armed' : trailed.message).toMatch(/is a leg of the position TP\/SL on .*: change its prices with Change TP\/SL in Positions/);
    expect((await harness.ledgerAccount(tradeAccountId))!.nonce).toBe(nonce);
    expect(value(await h.getPositionBrackets({}, caller))[0]!.legIds).toEqual(legs);

    // A fill that adds: the pair grows to the new position.
    const { ask: nowAsk } = await harness.insidePrices(market);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: nowAsk, quantity: size }, caller));
    const grown = await until(async () => {
      const now = await position();
      return now > first ? now : false;
    }, 20_000, 'the larger long');
    await until(() => pairSizedTo(grown), 30_000, 'the pair to grow with the fill');

    // A resting entry amended: the pair is bound to the position, not to an order, and stays as it is.
    const resting = value(await h.placeOrder(await harness.restingBuy(market), caller));
    const restingId = resting.orders[0]!.orderId;
    value(await h.amendOrder({ marketId: market.market_id, orderId: restingId, price: (await harness.restingBuy(market, 5n)).price }, caller));
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await pairSizedTo(grown)).not.toBe(false);
    value(await h.cancelOrder({ marketId: market.market_id, orderId: value(await h.getOrders({}, caller)).open.find((order) => order.marketId === market.market_id)!.orderId }, caller));

    // A 50 % close from the Positions panel: the pair is lifted for it, then placed at what is left.
    const report = value(await h.flattenPositions({ positions: [{ marketId: market.market_id, turbo: false, account: tradeAccountId, percent: 50 }] }, caller));
    expect(report.failed).toEqual([]);
    const half = await until(async () => {
      const now = await position();
      return now < grown && now > 0n ? now : false;
    }, 20_000, 'the smaller long');
    await until(() => pairSizedTo(half), 30_000, 'the pair to shrink with the close');

    // A restart of the app: the pair is still managed, and the trader is told so.
    await harness.stop();
    harness = await open();
    h = harness.terminal.handlers;
    const resumed = await until(() => harness.pushes.find((push) => push.stream === 'notice' && (push.payload as Notice).text.includes('Position TP/SL') && (push.payload as Notice).text.includes('kept working after the restart'))?.payload as Notice | undefined, 20_000, 'the restart notice');
    expect(resumed.text).toContain('TP ');
    const { ask: laterAsk } = await harness.insidePrices(market);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: laterAsk, quantity: size }, caller));
    const after = await until(async () => {
      const now = await position();
      return now > half ? now : false;
    }, 20_000, 'the long after the restart');
    await until(() => pairSizedTo(after), 30_000, 'the pair to grow after the restart');

    // Flat: the legs are gone and the pair is no longer managed.
    const flat = value(await h.flattenPositions({ positions: [{ marketId: market.market_id, turbo: false, account: tradeAccountId }] }, caller));
    expect(flat.failed).toEqual([]);
    await until(async () => ((await legSizes()).length === 0 ? true : false), 30_000, 'the legs to go with the position');
    // A close leaves at most dust; on a flat book the pair is no longer managed.
    if ((await position()) === 0n) await until(async () => ((value(await h.getPositionBrackets({}, caller)) as readonly PositionBracketView[]).length === 0 ? true : false), 20_000, 'the pair to be no longer managed');
  }, 240_000);
});
