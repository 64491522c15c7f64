// Flatten packs its closing orders into as few signed batches as the caps allow: 5 actions and 5
// market groups per batch, a close that must settle its book first costing 2 actions.
import { describe, expect, it } from 'vitest';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { Market } from '../../../../../shared/market/market';
import { checkBatchLimits } from '../../../../../shared/protocol/session-actions';
import { packCloses, type CloseItem } from '../../../../../main/services/positions/positions-service';

const ACCOUNT = `0x${'7'.repeat(64)}` as B256;
const market = (n: number): Market =>
  ({ market_id: `0x${n.toString(16).padStart(64, '0')}`, contract_id: `0x${(n + 100).toString(16).padStart(64, '0')}` }) as unknown as Market;
const close = (n: number, settle: boolean, turbo = false): CloseItem => ({
  key: `k${n}${turbo ? 't' : ''}`,
  market: market(n),
  turbo,
  settle,
  create: { kind: 'CreateOrder', side: 'Sell', price: 1n, quantity: 1n, order_type: { kind: 'Market' } },
});

describe('packCloses', () => {
  it('puts five closes that need no settle in one batch', () => {
    const batches = packCloses([1, 2, 3, 4, 5].map((n) => close(n, false)), ACCOUNT);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.groups).toHaveLength(5);
  });

  it('puts two closes with their settles per batch, and fills the room left with a close that needs none', () => {
    const batches = packCloses([close(1, true), close(2, true), close(3, true), close(4, false)], ACCOUNT);
    expect(batches.map((batch) => batch.keys)).toEqual([['k1', 'k2', 'k4'], ['k3']]);
    expect(batches[0]!.groups[0]!.actions.map((action) => action.kind)).toEqual(['SettleBalance', 'CreateOrder']);
    expect(batches[0]!.groups[2]!.actions.map((action) => action.kind)).toEqual(['CreateOrder']);
  });

  it("counts a reverse's opening order: settle, close and open in one group of three actions", () => {
    const reverse: CloseItem = { ...close(1, true), open: { kind: 'CreateOrder', side: 'Sell', price: 1n, quantity: 1n, order_type: { kind: 'Market' } } };
    const batches = packCloses([reverse, close(2, true), close(3, false)], ACCOUNT);
    expect(batches.map((batch) => batch.keys)).toEqual([['k1', 'k2'], ['k3']]);
    expect(batches[0]!.groups[0]!.actions.map((action) => action.kind)).toEqual(['SettleBalance', 'CreateOrder', 'CreateOrder']);
    for (const batch of batches) expect(checkBatchLimits(batch.groups).ok).toBe(true);
  });

  it('keeps the Canonical and the Turbo book of one market in separate groups, each flagged', () => {
    const batches = packCloses([close(1, false), close(1, false, true)], ACCOUNT);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.groups.map((group) => group.turbo ?? false)).toEqual([false, true]);
  });

  it('never builds a batch over the caps, and needs the fewest batches for any mix', () => {
    for (let settles = 0; settles <= 7; settles++) {
      for (let plain = 0; plain <= 7; plain++) {
        // plain closes first: the packing must not depend on the order it is given
        const items = [...Array.from({ length: plain }, (_, n) => close(n + 50, false)), ...Array.from({ length: settles }, (_, n) => close(n, true))];
        const batches = packCloses(items, ACCOUNT);
        for (const batch of batches) expect(checkBatchLimits(batch.groups).ok).toBe(true);
        const actions = settles * 2 + plain;
        // the lower bound by actions, and by pairs: two settled closes per batch at most
        const lower = Math.max(Math.ceil(actions / 5), Math.ceil(settles / 2));
        expect(batches.length).toBe(items.length === 0 ? 0 : lower);
      }
    }
  });
});
