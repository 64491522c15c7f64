// A close by limit against a real sandbox: closing 50 % by limit rests one post-only order of the
// share main's plan states, on the step, at the closing side's touch (the best ask of a long), and
// leaves the position as it was until it fills; a second close by limit that would close more than
// the position less that resting sell is refused with nothing signed, as is one whose confirmed
// price is no longer the touch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../shared/market/market';
import type { PositionView } from '../../../shared/ipc/views';
import { caller, startOnboarded, until, value, type Harness } from '../../support/terminal-harness';

describe('close by limit at the best price, against the sandbox', () => {
  let harness: Harness;
  let market: Market;
  let tradeAccountId: string;

  const row = async (after = -1): Promise<PositionView> =>
    until(async () => {
      const view = value(await harness.terminal.handlers.getPositions({}, caller));
      const found = view.positions.find((candidate) => candidate.marketId === market.market_id && !candidate.turbo);
      return found && found.fills > after ? found : null;
    });

  beforeAll(async () => {
    ({ harness, tradeAccountId, market } = await startOnboarded());
    // The touch the plans are made at must still be the touch when the close is sent.
    expect(await harness.control('/control/maker', { pinned: true })).toEqual({ pinned: true });
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('rests a post-only sell of the planned share at the best ask, then refuses a close that would go beyond the position less it', async () => {
    const h = harness.terminal.handlers;
    const tick = harness.priceTick(market);
    const inside = await harness.insidePrices(market);
    value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: ((inside.ask * 102n) / 100n / tick) * tick, quantity: harness.sizeFor(market, inside.ask) * 4n }, caller));
    value(await h.cancelAllOrders({}, caller));
    const position = await row();
    expect(position.size).toBeGreaterThan(0n);
    const touch = (await harness.insidePrices(market)).ask;
    expect(position.limitTouch).toBe(touch);
    const half = position.limitCloses.find((plan) => plan.percent === 50)!;
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    expect(half).toMatchObject({ side: 'Sell', refusal: null, requested: position.size / 2n });
    expect(half.quantity % step).toBe(0n);

    const report = value(await h.flattenPositions({ positions: [{ marketId: market.market_id, turbo: false, account: tradeAccountId, quantity: half.quantity, percent: 50, style: 'limit', price: touch }] }, caller));
    expect(report.failed).toEqual([]);
    expect(report.batches).toBe(1);
    const resting = (await harness.ledgerOrders(market.market_id)).find((order) => order.order_id === report.placed[0]!.orderIds[0])!;
    // On the exchange: one sell of the planned share at the touch, resting (not filled, not cancelled).
    expect({ side: resting.side, price: BigInt(resting.price), quantity: BigInt(resting.quantity), filled: BigInt(resting.quantity_fill ?? '0'), cancel: resting.cancel ?? false }).toEqual({
      side: 'Sell',
      price: touch,
      quantity: half.quantity,
      filled: 0n,
      cancel: false,
    });
    const open = value(await h.getOrders({}, caller));
    expect(open.open.find((order) => order.orderId === resting.order_id)).toMatchObject({ orderType: 'PostOnly', side: 'Sell' });
    const journal = value(await h.getJournal({ limit: 5 }, caller));
    expect(journal.some((entry) => entry.kind === 'signed' && /Close 50 % by limit of .* Canonical as trading account/.test(entry.description ?? ''))).toBe(true);

    // 75 % more would close beyond the long less the resting sell: refused, nothing signed.
    const nonceBefore = (await harness.ledgerAccount(tradeAccountId))!.nonce;
    const ordersBefore = (await harness.ledgerOrders(market.market_id)).length;
    const again = await row();
    const more = again.limitCloses.find((plan) => plan.percent === 75)!;
    // The row says so before the click: its 75 % is refused in the plan; its 25 % fits beside the
    // resting half (here refused, if at all, for its own size, never for what already closes).
    expect(more.refusal).toMatch(/would go beyond your .* long less .* in resting sells already closing it \(at most .*\); cancel or resize those first/);
    expect(again.limitCloses.find((plan) => plan.percent === 25)!.refusal ?? '').not.toMatch(/already closing/);
    const refused = value(await h.flattenPositions({ positions: [{ marketId: market.market_id, turbo: false, account: tradeAccountId, quantity: more.quantity, percent: 75, style: 'limit', price: again.limitTouch! }] }, caller));
    expect(refused.batches).toBe(0);
    expect(refused.failed[0]!.reason).toMatch(/would go beyond your .* long less .* in resting sells already closing it/);
    // A price that is no longer the touch: refused, nothing signed.
    const moved = value(await h.flattenPositions({ positions: [{ marketId: market.market_id, turbo: false, account: tradeAccountId, percent: 50, style: 'limit', price: again.limitTouch! + tick }] }, caller));
    expect(moved.batches).toBe(0);
    expect(moved.failed[0]!.reason).toMatch(/best ask moved since the confirmation/);
    expect((await harness.ledgerAccount(tradeAccountId))!.nonce).toBe(nonceBefore);
    expect((await harness.ledgerOrders(market.market_id)).length).toBe(ordersBefore);
  }, 180_000);
});
