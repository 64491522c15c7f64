// Amending the entry of a bracket against a real sandbox: the take-profit and the stop-loss are
// carried to the new order in the same signed batch (one nonce, one journal entry), with the same
// kinds and prices, sized from the new order; and when the old entry had partly filled, the part
// it filled stays protected in that batch by a pair of the same legs sized to what filled. Checked
// on the exchange's own read (GET /v1/orders/active) of the trading account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

interface WireLeg {
  readonly order_id: string;
  readonly side: string;
  readonly trigger_price: string;
  readonly order_type: unknown;
  readonly quantity: unknown;
  readonly oco_order_id?: string | null;
  readonly parent_order_id?: string | null;
}

interface Active {
  readonly entries: ({ readonly kind: 'order'; readonly order_id: string; readonly triggers: WireLeg[] } | ({ readonly kind: 'trigger' } & WireLeg))[];
}

describe('amending a bracket entry carries its take-profit and stop-loss, against the sandbox', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;
  let counterparty: Trader;

  const active = async (): Promise<Active> => (await (await fetch(`${harness.base()}/v1/orders/active?market_id=${market.market_id}&contract=${tradeAccountId}`)).json()) as Active;
  const nonce = async () => BigInt((await harness.ledgerAccount(tradeAccountId))!.nonce);
  const signedEntries = async () => value(await harness.terminal.handlers.getJournal({ limit: 200 }, caller)).filter((entry) => entry.kind === 'signed').length;
  /** A leg as the exchange keeps it, without its ids. */
  const shape = (leg: WireLeg) => ({ side: leg.side, trigger_price: leg.trigger_price, order_type: leg.order_type });

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded());
    // A book that holds still: no walk and no house takes, so only the counterparty fills the entry.
    await harness.control('/control/maker', { pinned: true });
    // POST /v1/accounts allows one per second per IP: the terminal just created its account.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    counterparty = await Trader.create(new SandboxClient(harness.base()));
    expect((await counterparty.openSession([market.contract_id], secondsFromNow(2n * HOUR))).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const legsAround = async () => {
    const { bid, ask } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    const above = ((ask * 110n) / 100n / tick) * tick;
    const below = ((bid * 90n) / 100n / tick) * tick;
    return { takeProfit: { triggerPrice: above, execution: { kind: 'limit' as const, price: above } }, stopLoss: { triggerPrice: below, execution: { kind: 'slippage' as const, bps: 100 } } };
  };

  it('a resting entry moved to a new price keeps both legs, in one signed batch', async () => {
    const h = harness.terminal.handlers;
    const resting = await harness.restingBuy(market);
    const placed = value(await h.placeBracketOrder({ ...resting, ...(await legsAround()) }, caller));
    const oldId = placed.order!.orderId;
    const before = (await active()).entries.find((entry) => entry.kind === 'order' && entry.order_id === oldId);
    expect(before?.kind === 'order' ? before.triggers.length : 0).toBe(2);
    const oldLegs = before?.kind === 'order' ? before.triggers.map(shape) : [];
    const nonceBefore = await nonce();
    const journalBefore = await signedEntries();

    const amended = value(await h.amendOrder({ marketId: market.market_id, orderId: oldId, price: resting.price - 2n * harness.priceTick(market) }, caller));
    const newId = amended.orders[0]!.orderId;
    expect(amended.carriedLegs?.map((leg) => leg.role).sort()).toEqual(['stop-loss', 'take-profit']);

    const after = await active();
    expect(after.entries.some((entry) => entry.order_id === oldId)).toBe(false);
    const carried = after.entries.find((entry) => entry.kind === 'order' && entry.order_id === newId);
    expect(carried?.kind).toBe('order');
    const newLegs = carried?.kind === 'order' ? carried.triggers : [];
    expect(newLegs.map(shape).sort((a, b) => a.trigger_price.localeCompare(b.trigger_price))).toEqual(oldLegs.sort((a, b) => a.trigger_price.localeCompare(b.trigger_price)));
    for (const leg of newLegs) expect(leg.quantity).toEqual({ ParentOrder: { parent_order_id: newId } });
    // One OCO pair, nothing left over.
    expect(newLegs[0]!.oco_order_id).toBe(newLegs[1]!.order_id);
    expect(after.entries.filter((entry) => entry.kind === 'trigger')).toEqual([]);
    expect(await nonce()).toBe(nonceBefore + 1n);
    expect(await signedEntries()).toBe(journalBefore + 1);
    value(await h.cancelAllOrders({ marketId: market.market_id }, caller));
  }, 90_000);

  it('a partly filled entry: the new order carries the legs and the filled part keeps a pair of them, sized to what filled, in the same batch', async () => {
    const h = harness.terminal.handlers;
    const { bid, ask } = await harness.insidePrices(market);
    const tick = harness.priceTick(market);
    expect(ask - bid).toBeGreaterThan(tick);
    // The best bid: the counterparty's sale at its price fills it before any house bid.
    const price = bid + tick;
    const size = harness.sizeFor(market, price);
    const placed = value(await h.placeBracketOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price, quantity: 2n * size, ...(await legsAround()) }, caller));
    const oldId = placed.order!.orderId;
    expect((await counterparty.act(market, [order('Sell', price, size)])).status).toBe(200);
    const legsBefore = (await active()).entries.find((entry) => entry.kind === 'order' && entry.order_id === oldId);
    const oldLegs = legsBefore?.kind === 'order' ? legsBefore.triggers.map(shape) : [];
    expect(oldLegs).toHaveLength(2);
    await until(async () => value(await h.getOrders({}, caller)).open.find((open) => open.orderId === oldId)?.filled === size, 20_000, 'the partial fill reaching main');
    const nonceBefore = await nonce();

    const amended = value(await h.amendOrder({ marketId: market.market_id, orderId: oldId, price: price - tick }, caller));
    const newId = amended.orders[0]!.orderId;
    expect(amended.protectedFilled).toBe(size);

    const after = await active();
    const carried = after.entries.find((entry) => entry.kind === 'order' && entry.order_id === newId);
    expect(carried?.kind === 'order' ? carried.triggers.map(shape).sort((a, b) => a.trigger_price.localeCompare(b.trigger_price)) : []).toEqual([...oldLegs].sort((a, b) => a.trigger_price.localeCompare(b.trigger_price)));
    const standalone = after.entries.filter((entry) => entry.kind === 'trigger') as WireLeg[];
    expect(standalone.map(shape).sort((a, b) => a.trigger_price.localeCompare(b.trigger_price))).toEqual([...oldLegs].sort((a, b) => a.trigger_price.localeCompare(b.trigger_price)));
    for (const leg of standalone) expect(leg.quantity).toEqual({ Quantity: { quantity: size.toString() } });
    expect(standalone[0]!.oco_order_id).toBe(standalone[1]!.order_id);
    expect(await nonce()).toBe(nonceBefore + 1n);
    const ledger = (await (await fetch(`${harness.base()}/control/ledger`)).json()) as { invariant_problems: string[] };
    expect(ledger.invariant_problems).toEqual([]);
  }, 90_000);
});
