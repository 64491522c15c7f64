// The automatic bracket on fill against a real sandbox: armed for a market in the trusted
// confirmation, it places nothing by itself; a buy that fills gets a take-profit / stop-loss pair at
// the average entry ± the offsets, sized to the position, and a second fill grows that same pair.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationRequest, TrustedConfirmer } from '../../../main/services/confirm/trusted-confirmer';
import type { AutoBracketView, PositionBracketView } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { ok } from '../../../shared/result';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';

interface WireLeg {
  readonly order_id: string;
  readonly trigger_price: string;
  readonly quantity?: { Quantity?: { quantity: string } };
}

interface ActiveEntry extends Partial<WireLeg> {
  readonly kind: string;
  readonly triggers?: WireLeg[];
}

describe('the automatic bracket on fill', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;
  const asked: ConfirmationRequest[] = [];
  const confirmer: TrustedConfirmer = {
    surface: 'dialog',
    confirm: (request) => {
      asked.push(request);
      return Promise.resolve(ok(undefined));
    },
  };

  beforeAll(async () => {
    const started = await startOnboarded({ confirmer });
    harness = started.harness;
    market = started.market;
    tradeAccountId = started.tradeAccountId;
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const legs = async (): Promise<{ trigger: bigint; size: bigint }[]> => {
    const response = await fetch(`${harness.terminal.restUrl() ?? ''}/v1/orders/active?market_id=${market.market_id}&contract=${tradeAccountId}`);
    const body = (await response.json()) as { entries: ActiveEntry[] };
    const wires = body.entries.flatMap((entry) => (entry.kind === 'trigger' ? [entry as WireLeg] : (entry.triggers ?? [])));
    return wires.map((wire) => ({ trigger: BigInt(wire.trigger_price), size: BigInt(wire.quantity?.Quantity?.quantity ?? '0') })).sort((one, two) => (one.trigger < two.trigger ? -1 : 1));
  };
  const position = async () => value(await harness.terminal.handlers.getPositions({}, caller)).positions.find((row) => row.account === tradeAccountId && row.marketId === market.market_id && !row.turbo);

  it('is confirmed when armed, places nothing by itself, and brackets the fills of an entry', async () => {
    const h = harness.terminal.handlers;
    const set = value(await h.setAutoBracket({ marketId: market.market_id, unit: 'percent', takeProfit: 1_000n, stopLoss: 1_000n }, caller)) as readonly AutoBracketView[];
    expect(set).toHaveLength(1);
    expect(asked.map((request) => request.action)).toEqual(['armAutoBracket']);
    expect(asked[0]?.lines.map((line) => line.text).join('\n')).toContain('1000 basis points');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await legs()).toEqual([]);

    const { ask } = await harness.insidePrices(market);
    const size = harness.sizeFor(market, ask) * 2n;
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ask, quantity: size }, caller));
    const first = await until(async () => {
      const pair = await legs();
      return pair.length === 2 ? pair : false;
    }, 30_000, 'the pair on the fill');
    const row = await position();
    const entry = row!.averageEntry!;
    const tick = harness.priceTick(market);
    // Stop-loss 10 % under the entry, take-profit 10 % over it, on the step toward the entry.
    expect(first[0]!.trigger).toBe(((entry - entry / 10n + tick - 1n) / tick) * tick);
    expect(first[1]!.trigger).toBe(((entry + entry / 10n) / tick) * tick);
    expect(first.every((leg) => leg.size > 0n && leg.size <= row!.size)).toBe(true);
    // The legs are on the exchange once the request commits; main records the pair after its answer.
    const bracket = await until(async () => (value(await h.getPositionBrackets({}, caller)) as readonly PositionBracketView[])[0], 20_000, 'the pair recorded');
    expect(bracket.automatic).toBe(true);

    // A second fill grows the same pair.
    const { ask: later } = await harness.insidePrices(market);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: later, quantity: size }, caller));
    await until(async () => {
      const pair = await legs();
      return pair.length === 2 && pair.every((leg) => leg.size > first[0]!.size);
    }, 30_000, 'the pair to grow with the second fill');
    expect(value(await h.getPositionBrackets({}, caller))).toHaveLength(1);
  }, 180_000);
});
