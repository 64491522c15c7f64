// History and Fills follow the account while shown: a Market order that filled must appear in a
// History tab on screen that has read its page once, and Fills must keep following once main's
// recent-fills list reaches its cap of 200 (where that list's length no longer changes).
import { createRoot, createSignal } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { FillView, OrderView, Page } from '../../shared/ipc/views';
import { ok, type Result } from '../../shared/result';
import { accountActivity, createPagedList, listResetKey, mergeNewest } from '../../renderer/src/features/orders/paged-list';

const order = (orderId: string, filled = 0n, status: OrderView['status'] = 'open'): OrderView => ({
  orderId,
  marketId: '0xm',
  side: 'Buy',
  orderType: 'Spot',
  price: 3_000_000_000n,
  quantity: 10n,
  filled,
  averagePrice: 0n,
  status,
  turbo: false,
  account: '',
  time: 1,
});
const fill = (orderId: string, time: number): FillView => ({ orderId, marketId: '0xm', side: 'Buy', price: 1n, quantity: 1n, fee: 0n, turbo: false, account: '', time });

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('account activity (what makes History and Fills read again)', () => {
  it('changes with a new fill even when the recent-fills list is at its cap', () => {
    const full = Array.from({ length: 200 }, (_, index) => fill(`0x${index}`, 1000 - index));
    const next = [fill('0xnew', 2000), ...full.slice(0, 199)];
    expect(next).toHaveLength(full.length);
    expect(accountActivity([], next)).not.toBe(accountActivity([], full));
  });

  it('changes when an order is placed, fills or is cancelled', () => {
    const base = accountActivity([order('0xa')], []);
    expect(accountActivity([order('0xa'), order('0xb')], [])).not.toBe(base);
    expect(accountActivity([order('0xa', 5n, 'partially-filled')], [])).not.toBe(base);
    expect(accountActivity([], [])).not.toBe(base);
  });
});

describe('a paged list that follows the account', () => {
  it('reads the newest page again when the account changes, keeping older pages loaded', async () => {
    let newest = ['c', 'b'];
    const older = ['a'];
    const load = (cursor: string | null): Promise<Result<Page<string>>> => Promise.resolve(ok(cursor === null ? { items: [...newest], next: 'older' } : { items: older, next: null }));
    const [activity, setActivity] = createSignal('0');
    const list = createRoot(() => createPagedList(load, () => 'market', { changed: activity, identity: (item) => item }));
    await settle();
    expect(list.items()).toEqual(['c', 'b']);
    list.more();
    await settle();
    expect(list.items()).toEqual(['c', 'b', 'a']);
    // A new order on the exchange: shown in front, the older page still there.
    newest = ['d', 'c'];
    setActivity('1');
    await settle();
    expect(list.items()).toEqual(['d', 'c', 'b', 'a']);
    expect(list.done()).toBe(true);
  });

  it('merges by identity: the newest read wins for an item it contains', () => {
    expect(mergeNewest([{ id: 'b', v: 2 }], [{ id: 'b', v: 1 }, { id: 'a', v: 1 }], (item) => item.id)).toEqual([
      { id: 'b', v: 2 },
      { id: 'a', v: 1 },
    ]);
  });
});

describe('History and Fills start over when the exchange forgot the account', () => {
  it('the list is read again when the trading account goes and comes back with the same id, though its activity did not change', async () => {
    // Before: a cancelled order in History, nothing open, no fill. The exchange restarts empty and
    // the account is set up again (same id): nothing open, no fill again, so the activity key is
    // the same, yet the exchange's history is now empty.
    let history = ['cancelled-before-the-restart'];
    const load = (): Promise<Result<Page<string>>> => Promise.resolve(ok({ items: [...history], next: null }));
    const [account, setAccount] = createSignal<string | null>('0xaccount');
    const activity = accountActivity([], []);
    const list = createRoot(() => createPagedList(load, () => listResetKey('0xm', 'sandbox', account()), { changed: () => activity, identity: (item) => item }));
    await settle();
    expect(list.items()).toEqual(['cancelled-before-the-restart']);
    history = [];
    setAccount(null); // main: "the trading account is gone on Sandbox; onboarding restarts"
    await settle();
    setAccount('0xaccount'); // set up again, same id
    await settle();
    expect(list.items()).toEqual([]);
    expect(accountActivity([], [])).toBe(activity);
  });

  it('the key changes with the market, the network and the account, and back', () => {
    const key = listResetKey('0xm', 'sandbox', '0xa');
    expect(listResetKey('0xn', 'sandbox', '0xa')).not.toBe(key);
    expect(listResetKey('0xm', 'devnet', '0xa')).not.toBe(key);
    expect(listResetKey('0xm', 'sandbox', null)).not.toBe(key);
    expect(listResetKey('0xm', 'sandbox', '0xa')).toBe(key);
  });
});

describe('an order that closed at once still reaches History', () => {
  it('the activity changes with the journal\'s newest entry, though nothing is open and nothing filled', () => {
    // A bounded market buy with nothing inside its bounds: placed and cancelled at once, never open,
    // no fill; only the journal (signed, then its outcome) moves.
    const before = accountActivity([], [], { seq: 41 });
    expect(accountActivity([], [], { seq: 42 })).not.toBe(before);
    expect(accountActivity([], [], { seq: 41 })).toBe(before);
  });
});
