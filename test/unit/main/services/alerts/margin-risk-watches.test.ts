// Main's own follow of a Turbo Account's risk for the margin alerts: one follow per account however
// many alerts name it, tried again every few seconds until the active network's margin service
// takes it (the trading account not loaded yet, no network), followed again when it ends by itself
// (the trading account changed, the network switched), and let go when no alert needs it.
import { describe, expect, it } from 'vitest';
import { MarginRiskWatches, type MarginFollowHandlers } from '../../../../../main/services/alerts/margin-risk-watches';
import { ManualClock } from '../../../../../shared/clock';
import type { MarginFrame } from '../../../../../main/services/alerts/alert-rules';
import { fail, ok, type Result } from '../../../../../shared/result';

const ACCOUNT = `0x${'c3'.repeat(32)}`;
const frame = (status: 'live' | 'stale') => ({ marginAccountId: ACCOUNT, status }) as unknown as MarginFrame;
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('main’s follow of a Turbo Account for its alerts', () => {
  it('retries until the margin service takes it, follows again after it ended, and closes when unwatched', async () => {
    const clock = new ManualClock(0);
    let ready = false;
    const follows: { handlers: MarginFollowHandlers; closed: boolean }[] = [];
    const watches = new MarginRiskWatches({
      clock,
      follow: (account, handlers): Promise<Result<{ close(): void }>> | null => {
        expect(account).toBe(ACCOUNT);
        if (!ready) return Promise.resolve(fail('MARGIN_NOT_READY', 'Set up an owner key and a trading account first (onboarding)'));
        const follow = { handlers, closed: false };
        follows.push(follow);
        return Promise.resolve(ok({ close: () => (follow.closed = true) }));
      },
      log: () => undefined,
    });
    let changes = 0;
    const first = watches.watch(ACCOUNT, () => changes++);
    const second = watches.watch(ACCOUNT, () => changes++);
    await flush();
    expect(follows).toHaveLength(0);
    ready = true;
    clock.advance(5_000);
    await flush();
    expect(follows).toHaveLength(1);
    follows[0]?.handlers.onFrame(frame('live'));
    expect(first.frame()?.status).toBe('live');
    expect(second.frame()?.status).toBe('live');
    expect(changes).toBe(2);

    // The follow ends by itself (another trading account, the network stopped): no figures until followed again.
    follows[0]?.handlers.onEnd();
    expect(first.frame()).toBeNull();
    clock.advance(5_000);
    await flush();
    expect(follows).toHaveLength(2);

    // A network switch follows again at once.
    watches.reconnect();
    await flush();
    expect(follows).toHaveLength(3);
    expect(follows[1]?.closed).toBe(true);

    first.close();
    expect(follows[2]?.closed).toBe(false);
    second.close();
    expect(follows[2]?.closed).toBe(true);
    clock.advance(60_000);
    await flush();
    expect(follows).toHaveLength(3);
  });
});
