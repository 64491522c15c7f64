// The amend confirmation and notice name the take-profit and stop-loss legs of the order: they
// stay attached (carried to the new order in the same signed batch), and what the order already
// filled stays protected; an order without legs says nothing of them.
import { describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../shared/ipc/contract';
import type { OrderView, PlacedOrder, TriggerView } from '../../shared/ipc/views';
import type { Result } from '../../shared/result';
import { createTradingActions } from '../../renderer/src/features/trading/trading-actions';
import type { TerminalStore } from '../../renderer/src/stores/terminal-store';
import { ethUsdc } from '../support/renderer/fixtures';

const trading = `0x${'11'.repeat(32)}`;
const orderId = `0x${'0d'.repeat(32)}`;
const newId = `0x${'0e'.repeat(32)}`;

const order = { orderId, marketId: ethUsdc.market_id, account: trading, side: 'Buy', orderType: 'Spot', price: 3_000_000_000n, quantity: 1_000_000_000n, filled: 0n, turbo: false, status: 'open' } as unknown as OrderView;

const leg = (triggerId: string, role: 'take-profit' | 'stop-loss', triggerPrice: bigint, parentOrderId: string | null): TriggerView =>
  ({ triggerId, marketId: ethUsdc.market_id, turbo: false, side: 'Sell', triggerPrice, role, parentOrderId, state: 'pending', kind: 'market', quantity: null }) as unknown as TriggerView;

function harness(pending: readonly TriggerView[], answer: Result<PlacedOrder>) {
  const asked: { title: string; lines: readonly string[] }[] = [];
  const notices: string[] = [];
  const api = {
    getTriggers: () => Promise.resolve({ ok: true, value: { pending, recent: [] } }),
    amendOrder: () => Promise.resolve(answer),
  } as unknown as TerminalApi;
  const store = {
    state: { settings: { confirmOrders: true }, account: { tradeAccount: { tradeAccountId: trading } }, openOrders: [order] },
    notify: (_level: string, text: string) => notices.push(text),
  } as unknown as TerminalStore;
  const confirm = (title: string, lines: readonly string[]) => {
    asked.push({ title, lines });
    return Promise.resolve(true);
  };
  return { asked, notices, actions: createTradingActions(api, store, confirm) };
}

const amended = (extra: Partial<PlacedOrder>): Result<PlacedOrder> => ({
  ok: true,
  value: { journalId: 'j1', orders: [{ ...order, orderId: newId, price: 2_990_000_000n }], adjustments: [], replacedOrderId: orderId, ...extra },
});

describe('the amend confirmation names the legs it carries', () => {
  it('a bracket entry: take-profit and stop-loss stay attached, in the confirmation and in the notice after', async () => {
    const legs = [leg(`0x${'a1'.repeat(32)}`, 'take-profit', 3_100_000_000n, orderId), leg(`0x${'a2'.repeat(32)}`, 'stop-loss', 2_900_000_000n, orderId), leg(`0x${'a3'.repeat(32)}`, 'stop-loss', 2_800_000_000n, null)];
    const carried = amended({ carriedLegs: [{ role: 'take-profit', side: 'Sell', triggerPrice: 3_100_000_000n }, { role: 'stop-loss', side: 'Sell', triggerPrice: 2_900_000_000n }] });
    const { asked, notices, actions } = harness(legs, carried);
    await actions.amend(ethUsdc, order, { price: 2_990_000_000n }, 'Trading account 0x1111…1111');
    expect(asked[0]!.title).toBe('Amend order');
    expect(asked[0]!.lines).toContain('Take-profit 3,100.00 and stop-loss 2,900.00 USDC stay attached: carried to the new order in the same signed batch.');
    expect(notices[0]).toContain('take-profit 3,100.00 and stop-loss 2,900.00 USDC carried to the new order');
  });

  it('a partly filled entry: the filled part stays protected by the same legs', async () => {
    const partly = { ...order, filled: 200_000_000n, status: 'partially-filled' } as OrderView;
    const legs = [leg(`0x${'a1'.repeat(32)}`, 'take-profit', 3_100_000_000n, orderId)];
    const { asked, notices, actions } = harness(legs, amended({ carriedLegs: [{ role: 'take-profit', side: 'Sell', triggerPrice: 3_100_000_000n }], protectedFilled: 200_000_000n }));
    await actions.amend(ethUsdc, partly, { price: 2_990_000_000n }, 'Trading account 0x1111…1111');
    expect(asked[0]!.lines).toContain('Take-profit 3,100.00 USDC stays attached: carried to the new order in the same signed batch, and the 0.2 ETH already filled keeps it (sized to what filled).');
    expect(notices[0]).toContain('the 0.2 ETH already filled stays protected');
  });

  it('an order without legs says nothing of them', async () => {
    const { asked, notices, actions } = harness([], amended({}));
    await actions.amend(ethUsdc, order, { price: 2_990_000_000n }, 'Trading account 0x1111…1111');
    expect(asked[0]!.lines.join('\n')).not.toMatch(/take-profit|stop-loss/i);
    expect(notices[0]).not.toMatch(/take-profit|stop-loss/i);
  });
});
