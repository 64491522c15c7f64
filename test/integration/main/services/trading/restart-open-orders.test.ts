// The exchange restarts for real (the sandbox process SIGKILLed; the app's supervisor starts it
// again, empty): the trading account and its Turbo Account are gone, and Open orders must say so at
// once, not count the Turbo Account's resting orders the exchange no longer has. On the restart the
// supervisor's account lookup can find the account gone before the margin service's stream comes
// back; were the trading service to publish its reset list while the margin service still followed
// the Turbo Account, nothing would publish the list again (every read of the forgotten account ends
// early), and the windows would keep the Turbo Account's orders while main's own list is empty.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../../../../shared/market/market';
import type { OrdersSnapshot } from '../../../../../shared/ipc/views';
import { caller, startOnboarded, until, value, type Harness, ACCEPTING_DIALOG, openTurboSession, turboSetup } from '../../../../support/terminal-harness';

/** The sandbox child of this process (the app's supervisor forked it). */
function sandboxPid(): number {
  const listing = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  for (const line of listing.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (match?.[2]?.includes('sandbox/cli.ts')) return Number(match[1]);
  }
  throw new Error('the sandbox process was not found');
}

describe('an exchange restart (the sandbox process killed)', () => {
  let harness: Harness;
  let market: Market;
  let child: string;

  beforeAll(async () => {
    const onboarded = await startOnboarded({ confirmer: ACCEPTING_DIALOG });
    harness = onboarded.harness;
    ({ market, child } = await turboSetup(harness, onboarded.markets));
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it("takes the trading account's and its Turbo Account's resting orders out of Open orders, in main and in the list pushed to the windows", async () => {
    const h = harness.terminal.handlers;
    value(await h.selectMarginAccount({ marginAccountId: child }, caller));
    await openTurboSession(harness, child);
    const order = await harness.restingBuy(market);
    // A Turbo Account's order on the Turbo book and the trading account's own on the canonical book.
    const turboOrder = value(await h.placeOrder({ ...order, quantity: order.quantity * 4n, turbo: true, orderType: { kind: 'Limit' } }, caller));
    expect(turboOrder.orders[0]?.account).toBe(child);
    value(await h.placeOrder({ ...order, turbo: false, orderType: { kind: 'Limit' } }, caller));
    const open = async () => value(await h.getOrders({}, caller)).open;
    await until(async () => (await open()).length === 2, 20_000, 'both orders in Open orders');
    const lastPushed = () => (harness.pushes.filter((push) => push.stream === 'orders').at(-1)?.payload as OrdersSnapshot | undefined)?.open ?? [];
    await until(async () => lastPushed().length === 2, 20_000, 'both orders pushed to the windows');

    const before = value(await h.getConnection({}, caller)).sandbox?.restarts ?? 0;
    process.kill(sandboxPid(), 'SIGKILL');
    await until(async () => value(await h.getConnection({}, caller)).sandbox?.restarts === before + 1, 60_000, 'the sandbox to restart');
    await until(async () => value(await h.getAccountState({}, caller)).tradeAccount === null, 30_000, 'the app to notice the empty exchange');
    // main holds nothing of the forgotten accounts, and the windows were told.
    await until(async () => (await open()).length === 0, 5_000, 'Open orders empty in main');
    await until(async () => lastPushed().length === 0, 5_000, 'the last Open orders list pushed to the windows empty').catch(() => undefined);
    expect(lastPushed().map((view) => `${view.turbo ? 'turbo' : 'canonical'} order of ${view.account === child ? 'the Turbo Account' : 'the trading account'}`)).toEqual([]);
  }, 180_000);
});
