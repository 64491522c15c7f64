// Main's trigger service end to end against a real sandbox child process: buy with a take-profit
// and a stop-loss attached, move the market through the sandbox's control surface until the
// take-profit fires, and see its fill (with the trigger marker), the stop-loss cancelled and the
// notice; then a stop on its own moved and cancelled, an OCO pair sized from a resting order that
// goes with it, refusals found before anything is signed, and a take-profit the exchange cancelled
// as DustOrder (its entry had filled below dust) re-created for the whole filled size. A second trader (a plain signed
// client of the sandbox) provides the liquidity the legs trade against.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSandboxSpawner } from '../../../main/services/network/sandbox-process-node';
import { systemClock } from '../../../main/services/system-clock';
import { createTerminal, type Terminal } from '../../../main/services/terminal';
import type { FillNotice, Notice, TriggersSnapshot } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { ok } from '../../../shared/result';
import { MemorySecretStore } from '../../support/memory-secret-store';
import { caller, until, value } from '../../support/terminal-harness';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

const ETH = 1_000_000_000n;
const USDC = 1_000_000n;
const PRICE = (whole: bigint) => whole * USDC;

describe('trigger legs through main against the sandbox', () => {
  let terminal: Terminal;
  let market: Market;
  let counterparty: Trader;
  const pushes: { stream: string; payload: unknown }[] = [];
  const pushed = <T>(stream: string, predicate: (payload: T) => boolean) => until(() => pushes.find((push) => push.stream === stream && predicate(push.payload as T))?.payload as T | undefined);

  const control = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${terminal.restUrl()!}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await response.json()) as Record<string, unknown>;
  };
  const movePrice = (price: bigint) => control('/control/markets/price', { market_id: market.market_id, price: price.toString() });

  beforeAll(async () => {
    terminal = createTerminal({
      clock: systemClock,
      host: 'browser',
      version: 'test',
      dataDir: mkdtempSync(join(tmpdir(), 'lt-triggers-')),
      openKeychain: () => Promise.resolve(ok(new MemorySecretStore())),
      spawnSandbox: nodeSandboxSpawner({ modulePath: join(process.cwd(), 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] }),
      random: (length) => new Uint8Array(randomBytes(length)),
      // No house maker: the book moves only when the test moves it.
      sandboxArgs: ['--control', '--maker', 'off', '--maker-profile', 'thin-legacy'],
    });
    terminal.windows.attach('w1', { send: (stream, payload) => pushes.push({ stream, payload }) });
    value(await terminal.start());
    const h = terminal.handlers;
    const markets = value(await h.listMarkets({}, caller));
    market = markets.markets.find((candidate) => candidate.base.symbol === 'ETH' && candidate.quote.symbol === 'USDC')!;
    await movePrice(PRICE(3000n));
    value(await h.createOwnerKey({ style: 'ledger' }, caller));
    value(await h.createTradeAccount({}, caller));
    value(await h.mintFromFaucet({}, caller));
    value(await h.createSession({ marketIds: [market.market_id], days: 30 }, caller));
    // POST /v1/accounts allows one per second per IP: the terminal just created its account.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    counterparty = await Trader.create(new SandboxClient(terminal.restUrl()!));
    expect((await counterparty.openSession([market.contract_id], secondsFromNow(2n * HOUR))).status).toBe(200);
  });

  afterAll(async () => {
    await terminal?.stop();
  });

  it('buys with a take-profit and a stop-loss; the price moved to the take-profit fires it: fill, sibling cancelled, notice', async () => {
    const h = terminal.handlers;
    const book = market;
    expect((await counterparty.act(book, [order('Sell', PRICE(3005n), 2n * ETH)])).status).toBe(200);
    const placed = value(
      await h.placeBracketOrder(
        {
          marketId: market.market_id,
          side: 'Buy',
          orderType: { kind: 'Spot' },
          price: PRICE(3010n),
          quantity: ETH / 2n,
          takeProfit: { triggerPrice: PRICE(3100n), execution: { kind: 'slippage', bps: 100 } },
          stopLoss: { triggerPrice: PRICE(2900n), execution: { kind: 'slippage', bps: 100 } },
        },
        caller,
      ),
    );
    expect(placed.order).toMatchObject({ side: 'Buy', filled: ETH / 2n });
    expect(placed.adjustments.join(' ')).toContain('3069 USDC and 3131 USDC');
    const takeProfit = placed.triggers.find((leg) => leg.role === 'take-profit')!;
    const stopLoss = placed.triggers.find((leg) => leg.role === 'stop-loss')!;
    expect(takeProfit).toMatchObject({ side: 'Sell', triggerPrice: PRICE(3100n), kind: 'bounded', maxPrice: PRICE(3131n), minPrice: PRICE(3069n), parentOrderId: placed.order!.orderId, ocoId: stopLoss.triggerId, armed: true, state: 'pending', quantity: null });
    expect(stopLoss).toMatchObject({ direction: 'fall', minPrice: PRICE(2871n) });
    await pushed<TriggersSnapshot>('triggers', (snapshot) => snapshot.pending.length === 2);
    expect(value(await h.getTriggers({}, caller)).pending.map((leg) => leg.triggerId).sort()).toEqual([takeProfit.triggerId, stopLoss.triggerId].sort());

    // A bid inside the take-profit's bounds; then the sandbox trades through the book to 3100.
    expect((await counterparty.act(book, [order('Buy', PRICE(3090n), 5n * ETH)])).status).toBe(200);
    await movePrice(PRICE(3100n));

    const fill = await pushed<FillNotice>('fill', (notice) => notice.trigger?.triggerId === takeProfit.triggerId);
    expect(fill).toMatchObject({ symbol: 'ETH/USDC', trigger: { role: 'take-profit', triggerPrice: PRICE(3100n) }, fill: { side: 'Sell', price: PRICE(3090n), quantity: ETH / 2n } });
    const after = await pushed<TriggersSnapshot>('triggers', (snapshot) => snapshot.pending.length === 0 && snapshot.recent.length >= 2);
    expect(after.recent.find((leg) => leg.triggerId === takeProfit.triggerId)).toMatchObject({ state: 'fired', firedOrderId: fill.fill.orderId });
    expect(after.recent.find((leg) => leg.triggerId === stopLoss.triggerId)).toMatchObject({ state: 'cancelled', reason: 'OcoSiblingFired' });
    const notice = await pushed<Notice>('notice', (payload) => payload.text.includes('Take-profit'));
    expect(notice.text).toBe('Take-profit Sell at 3100 USDC on ETH/USDC fired');
    const ledger = (await (await fetch(`${terminal.restUrl()!}/control/ledger`)).json()) as { invariant_problems: string[] };
    expect(ledger.invariant_problems).toEqual([]);
  });

  it('a stop on its own is moved (one batch) and cancelled; an OCO pair sized from a resting order goes with it', async () => {
    const h = terminal.handlers;
    await movePrice(PRICE(3000n));
    const stop = value(
      await h.placeStopOrder({ marketId: market.market_id, side: 'Sell', leg: { triggerPrice: PRICE(2800n), execution: { kind: 'limit', price: PRICE(2790n) } }, size: { kind: 'quantity', quantity: ETH / 4n } }, caller),
    );
    expect(stop.triggers).toHaveLength(1);
    const first = stop.triggers[0]!;
    expect(first).toMatchObject({ kind: 'limit', limitPrice: PRICE(2790n), quantity: ETH / 4n, locked: ETH / 4n, parentOrderId: null, role: 'stop-loss' });

    const moved = value(await h.moveTrigger({ marketId: market.market_id, triggerId: first.triggerId, triggerPrice: PRICE(2850n) }, caller));
    expect(moved.triggers).toHaveLength(1);
    expect(moved.triggers[0]).toMatchObject({ triggerPrice: PRICE(2850n), limitPrice: PRICE(2840n), quantity: ETH / 4n, state: 'pending' });
    const snapshot = value(await h.getTriggers({}, caller));
    expect(snapshot.pending.map((leg) => leg.triggerId)).toEqual([moved.triggers[0]!.triggerId]);
    expect(snapshot.recent.find((leg) => leg.triggerId === first.triggerId)).toMatchObject({ state: 'cancelled', reason: 'Cancelled' });

    const cancelled = value(await h.cancelTrigger({ marketId: market.market_id, triggerId: moved.triggers[0]!.triggerId }, caller));
    expect(cancelled).toMatchObject({ requested: 0, cancelled: [], triggersRequested: 1, triggersCancelled: [moved.triggers[0]!.triggerId], triggersFailed: [] });
    expect(value(await h.getTriggers({}, caller)).pending).toEqual([]);
    expect(await h.cancelTrigger({ marketId: market.market_id, triggerId: moved.triggers[0]!.triggerId }, caller)).toMatchObject({ ok: false, code: 'TRIGGER_NOT_PENDING' });

    const resting = value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: PRICE(2950n), quantity: ETH / 2n }, caller));
    const parentId = resting.orders[0]!.orderId;
    const pair = value(
      await h.placeOcoOrder(
        {
          marketId: market.market_id,
          side: 'Sell',
          first: { triggerPrice: PRICE(2700n), execution: { kind: 'slippage', bps: 50 } },
          second: { triggerPrice: PRICE(3200n), execution: { kind: 'limit', price: PRICE(3190n) } },
          size: { kind: 'parent', orderId: parentId },
        },
        caller,
      ),
    );
    expect(pair.triggers).toHaveLength(2);
    for (const leg of pair.triggers) expect(leg).toMatchObject({ parentOrderId: parentId, armed: false, quantity: null });
    expect(pair.triggers[0]!.ocoId).toBe(pair.triggers[1]!.triggerId);
    value(await h.cancelOrder({ marketId: market.market_id, orderId: parentId }, caller));
    await until(() => {
      const latest = pushes.filter((push) => push.stream === 'triggers').at(-1)?.payload as TriggersSnapshot | undefined;
      return latest !== undefined && latest.pending.length === 0 && pair.triggers.every((leg) => latest.recent.some((closed) => closed.triggerId === leg.triggerId && closed.reason === 'ParentCancelled'));
    });
  });

  it('refuses before signing, with the reason: an off-step trigger, a leg on its order’s side, a trigger at the last price', async () => {
    const h = terminal.handlers;
    const before = value(await h.getJournal({ limit: 500 }, caller)).length;
    const offStep = await h.placeStopOrder({ marketId: market.market_id, side: 'Sell', leg: { triggerPrice: PRICE(2800n) + 1n, execution: { kind: 'market' } }, size: { kind: 'quantity', quantity: ETH / 4n } }, caller);
    expect(offStep).toMatchObject({ ok: false, code: 'PRICE_PRECISION', details: { field: 'leg' } });
    // A size the legs cannot be signed at is refused naming the one they can, never signed lowered.
    const offSize = await h.placeStopOrder({ marketId: market.market_id, side: 'Sell', leg: { triggerPrice: PRICE(2800n), execution: { kind: 'market' } }, size: { kind: 'quantity', quantity: ETH / 4n + 1n } }, caller);
    expect(offSize).toMatchObject({ ok: false, code: 'SIZE_NOT_SIGNABLE', details: { field: 'size' } });
    expect(offSize.ok ? '' : offSize.message).toMatch(/^quantity: 0\.250000001 ETH cannot be signed as entered \(Quantity floored from 0\.250000001 ETH to 0\.25 ETH \(the market's step\)\.\); enter 0\.25 ETH/);
    const resting = value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: PRICE(2950n), quantity: ETH / 2n }, caller));
    const afterOrder = value(await h.getJournal({ limit: 500 }, caller)).length;
    const sameSide = await h.placeStopOrder(
      { marketId: market.market_id, side: 'Buy', leg: { triggerPrice: PRICE(2800n), execution: { kind: 'market' } }, size: { kind: 'parent', orderId: resting.orders[0]!.orderId } },
      caller,
    );
    expect(sameSide).toMatchObject({ ok: false, code: 'TRIGGER_SAME_SIDE' });
    const atMarket = await h.placeBracketOrder(
      { marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: PRICE(2950n), quantity: ETH / 2n, stopLoss: { triggerPrice: PRICE(3000n), execution: { kind: 'market' } } },
      caller,
    );
    expect(atMarket).toMatchObject({ ok: false, code: 'TRIGGER_AT_MARKET', details: { field: 'stopLoss' } });
    // Only the resting order was signed.
    expect(afterOrder).toBeGreaterThan(before);
    expect(value(await h.getJournal({ limit: 500 }, caller)).length).toBe(afterOrder);
    value(await h.cancelAllOrders({}, caller));
  });
  it('an entry filled below dust when its take-profit fires: the exchange cancels the leg (DustOrder), main re-creates it at the next fill and it protects the whole filled size', async () => {
    const h = terminal.handlers;
    // The sandbox quotes around 3030 (bids below 3029, asks above 3031): the entry at 3030 is the best bid, then the counterparty's at 3031 above it.
    await movePrice(PRICE(3030n));
    const entrySize = 8_000_000n; // 0.008 ETH
    const placed = value(
      await h.placeBracketOrder(
        {
          marketId: market.market_id,
          side: 'Buy',
          orderType: { kind: 'Spot' },
          price: PRICE(3030n),
          quantity: entrySize,
          takeProfit: { triggerPrice: PRICE(3100n), execution: { kind: 'slippage', bps: 100 } },
          stopLoss: { triggerPrice: PRICE(2900n), execution: { kind: 'slippage', bps: 100 } },
        },
        caller,
      ),
    );
    const entry = placed.order!;
    expect(entry).toMatchObject({ filled: 0n, quantity: entrySize });
    const lost = placed.triggers.find((leg) => leg.role === 'take-profit')!;
    // The entry fills 0.0002 ETH (below the market's dust): a sell of 0.0102 takes a better 0.01 bid first.
    expect(market.dust).toBeGreaterThan(200_000n);
    expect((await counterparty.act(market, [order('Buy', PRICE(3031n), 10_000_000n)])).status).toBe(200);
    expect((await counterparty.act(market, [order('Sell', PRICE(3030n), 10_200_000n)])).status).toBe(200);
    await pushed<FillNotice>('fill', (notice) => notice.fill.orderId === entry.orderId && notice.fill.quantity === 200_000n);

    // The take-profit fires at 3100 on 0.0002 ETH: the exchange refuses that order and cancels the leg.
    await movePrice(PRICE(3100n));
    const cancelled = await pushed<TriggersSnapshot>('triggers', (snapshot) => snapshot.recent.some((leg) => leg.triggerId === lost.triggerId && leg.state === 'cancelled'));
    expect(cancelled.recent.find((leg) => leg.triggerId === lost.triggerId)).toMatchObject({ reason: 'DustOrder' });
    const waiting = await pushed<Notice>('notice', (payload) => payload.code === 'POSITION_UNPROTECTED');
    expect(waiting.text).toContain('below the market');

    // The price comes back and the rest of the entry fills (0.0078): the take-profit and its stop-loss are re-created, sized from the entry.
    await movePrice(PRICE(3030n));
    await pushed<FillNotice>('fill', (notice) => notice.fill.orderId === entry.orderId && notice.fill.quantity === 7_800_000n);
    const rebuilt = await pushed<TriggersSnapshot>('triggers', (snapshot) => snapshot.pending.some((leg) => leg.role === 'take-profit' && leg.parentOrderId === entry.orderId && leg.triggerId !== lost.triggerId));
    const takeProfit = rebuilt.pending.find((leg) => leg.role === 'take-profit' && leg.parentOrderId === entry.orderId && leg.triggerId !== lost.triggerId)!;
    expect(takeProfit).toMatchObject({ triggerPrice: PRICE(3100n), minPrice: PRICE(3069n), maxPrice: PRICE(3131n), quantity: null, armed: true });
    const stopLoss = rebuilt.pending.find((leg) => leg.triggerId === takeProfit.ocoId)!;
    expect(stopLoss).toMatchObject({ role: 'stop-loss', triggerPrice: PRICE(2900n), parentOrderId: entry.orderId });
    const recreatedNotice = await pushed<Notice>('notice', (payload) => payload.text.includes('re-created for the whole filled size'));
    // Written for a trader: the market by name and the reason as a sentence; the ids and the raw reason in the details.
    expect(recreatedNotice.text).toMatch(/^The take-profit of your ETH\/USDC(?: #\d)? entry order was cancelled by the exchange \(/);
    expect(recreatedNotice.text).not.toMatch(/0x[0-9a-f]{6}|DustOrder/);
    expect(recreatedNotice.details).toContain(entry.orderId);
    expect(recreatedNotice.details).toContain('reason: DustOrder');

    // The re-created take-profit sells the whole 0.008 ETH.
    expect((await counterparty.act(market, [order('Buy', PRICE(3090n), ETH)])).status).toBe(200);
    await movePrice(PRICE(3100n));
    const fill = await pushed<FillNotice>('fill', (notice) => notice.trigger?.triggerId === takeProfit.triggerId);
    expect(fill).toMatchObject({ trigger: { role: 'take-profit' }, fill: { side: 'Sell', quantity: entrySize } });
    expect(fill.fill.price).toBeGreaterThanOrEqual(PRICE(3069n));
    const ledger = (await (await fetch(`${terminal.restUrl()!}/control/ledger`)).json()) as { invariant_problems: string[] };
    expect(ledger.invariant_problems).toEqual([]);
  });
});
