import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../shared/clock';
import type { Result } from '../../../../shared/result';
import { RateLimiter, type LimiterSnapshot, type Permit } from '../../../../main/exchange/rate-limiter';
import { RATE_RULES, type RateRule } from '../../../../main/exchange/rate-rules';
import { checkProperty } from '../../../support/property';

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function granted(result: Result<Permit>): Permit {
  if (!result.ok) throw new Error(`expected a permit, got ${result.code}: ${result.message}`);
  return result.value;
}

describe('rate limiter', () => {
  const rule: RateRule = { id: 'TEST', limit: 3, windowMs: 1000, keyedBy: 'owner' };

  it('grants up to the limit at once, then waits until a finished slot is older than the window plus the margin', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, safetyMarginMs: 50 });
    const first = await Promise.all([0, 1, 2].map(() => limiter.acquire(rule, 'a')));
    const permits = first.map(granted);
    let fourth: Permit | undefined;
    void limiter.acquire(rule, 'a').then((result) => (fourth = granted(result)));
    await flush();
    expect(fourth).toBeUndefined();
    clock.advance(100);
    permits[0]?.release(); // response of the first request at t = 100
    clock.advance(1049); // t = 1149: not yet (100 + 1000 + 50 = 1150)
    await flush();
    expect(fourth).toBeUndefined();
    clock.advance(1);
    await flush();
    expect(fourth).toBeDefined();
  });

  it('keeps a slot while its request is in flight, however long', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock });
    const one: RateRule = { id: 'ONE', limit: 1, windowMs: 1000, keyedBy: 'ip' };
    const permit = granted(await limiter.acquire(one, 'ip'));
    let next = false;
    void limiter.acquire(one, 'ip').then(() => (next = true));
    clock.advance(30_000);
    await flush();
    expect(next).toBe(false);
    permit.release();
    clock.advance(1049);
    await flush();
    expect(next).toBe(false);
    clock.advance(1);
    await flush();
    expect(next).toBe(true);
  });

  it('serves waiting requests first in, first out', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, safetyMarginMs: 0 });
    const one: RateRule = { id: 'ONE', limit: 1, windowMs: 100, keyedBy: 'ip' };
    const order: number[] = [];
    for (let i = 0; i < 5; i++) {
      void limiter.acquire(one, 'ip').then((result) => {
        order.push(i);
        granted(result).release();
      });
    }
    for (let step = 0; step < 10; step++) {
      await flush();
      clock.advance(100);
    }
    await flush();
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it("serves the trader's own waiting requests before the algorithms', each group in its order, never before a granted one", async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, safetyMarginMs: 0 });
    const one: RateRule = { id: 'ONE', limit: 1, windowMs: 100, keyedBy: 'owner' };
    const order: string[] = [];
    const wait = (name: string, ahead: boolean) =>
      void limiter.acquire(one, 'owner', { ahead }).then((result) => {
        order.push(name);
        granted(result).release();
      });
    // The first request of an algorithm holds the budget; two more of it and then two clicks wait.
    wait('child 1', false);
    await flush();
    wait('child 2', false);
    wait('click 1', true);
    wait('child 3', false);
    wait('click 2', true);
    for (let step = 0; step < 10; step++) {
      await flush();
      clock.advance(100);
    }
    await flush();
    expect(order).toEqual(['child 1', 'click 1', 'click 2', 'child 2', 'child 3']);
  });

  it('refuses with QUEUE_FULL beyond the bound and names the rule and key', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, maxQueued: 2 });
    const one: RateRule = { id: 'POST /v1/accounts', limit: 1, windowMs: 1000, keyedBy: 'ip' };
    granted(await limiter.acquire(one, 'ip'));
    void limiter.acquire(one, 'ip');
    void limiter.acquire(one, 'ip');
    const refused = await limiter.acquire(one, 'ip');
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.code).toBe('QUEUE_FULL');
      expect(refused.message).toContain('POST /v1/accounts');
      expect(refused.details).toMatchObject({ queued: 2, key: 'ip' });
    }
  });

  it('keeps separate budgets per key', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock });
    const one: RateRule = { id: 'ONE', limit: 1, windowMs: 1000, keyedBy: 'owner' };
    expect((await limiter.acquire(one, 'owner-a')).ok).toBe(true);
    expect((await limiter.acquire(one, 'owner-b')).ok).toBe(true);
  });

  it('publishes the remaining budget in snapshots and to listeners, including when a slot frees on its own', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, safetyMarginMs: 50 });
    const seen: LimiterSnapshot[] = [];
    limiter.onChange((snapshot) => seen.push(snapshot));
    const permit = granted(await limiter.acquire(RATE_RULES.sessionActions, '0xowner'));
    expect(limiter.snapshot()).toEqual([
      { rule: 'POST /v1/session/actions', key: '0xowner', limit: 5, windowMs: 1000, used: 1, inFlight: 1, remaining: 4, queued: 0, nextFreeAt: null },
    ]);
    clock.advance(10);
    permit.release();
    expect(limiter.snapshot()[0]).toMatchObject({ used: 1, inFlight: 0, remaining: 4, nextFreeAt: 1060 });
    clock.advance(1050);
    expect(seen.at(-1)).toMatchObject({ used: 0, remaining: 5, nextFreeAt: null });
  });

  it('grants a waiter even when another request arrives at the instant a slot frees', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, safetyMarginMs: 50 });
    const one: RateRule = { id: 'ONE', limit: 1, windowMs: 1000, keyedBy: 'ip' };
    const order: string[] = [];
    // This timer is due at the same instant as the limiter's own and runs first.
    clock.setTimeout(() => void limiter.acquire(one, 'ip').then(() => order.push('second')), 1050);
    granted(await limiter.acquire(one, 'ip')).release(); // the slot frees at 1050
    void limiter.acquire(one, 'ip').then(() => order.push('first'));
    clock.advance(1050);
    await flush();
    expect(order).toEqual(['first']);
    expect(limiter.snapshot()[0]).toMatchObject({ inFlight: 1, queued: 1 });
  });

  it('refuses everything after close, including the waiting requests', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock });
    const one: RateRule = { id: 'ONE', limit: 1, windowMs: 1000, keyedBy: 'ip' };
    granted(await limiter.acquire(one, 'ip'));
    const waiting = limiter.acquire(one, 'ip');
    limiter.close();
    expect(await waiting).toMatchObject({ ok: false, code: 'LIMITER_CLOSED' });
    expect(await limiter.acquire(one, 'ip')).toMatchObject({ ok: false, code: 'LIMITER_CLOSED' });
  });

  it('bounds the number of budgets it tracks, forgetting idle ones first', async () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter({ clock, maxLimiters: 2 });
    const one: RateRule = { id: 'ONE', limit: 1, windowMs: 1000, keyedBy: 'owner' };
    granted(await limiter.acquire(one, 'a'));
    granted(await limiter.acquire(one, 'b'));
    expect(await limiter.acquire(one, 'c')).toMatchObject({ ok: false, code: 'QUEUE_FULL' });
  });

  // The server sees each request at some instant between its send and its response. Whatever those
  // instants are, no window of the rule's length may hold more than `limit` arrivals.
  it('never lets more than the limit arrive in any window, under random arrivals and latencies (property)', async () => {
    const windowMs = 1000;
    await checkProperty(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 40 }), latency: fc.integer({ min: 0, max: 30 }), arrival: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 25 }),
        async (limit, requests) => {
          const clock = new ManualClock(0);
          const limiter = new RateLimiter({ clock, safetyMarginMs: 50, maxQueued: 100 });
          const testRule: RateRule = { id: 'P', limit, windowMs, keyedBy: 'ip' };
          const arrivals: number[] = [];
          const sends: number[] = [];
          let due = 0;
          const schedule = requests.map((request) => ({ ...request, at: (due += request.gap * 10) }));
          let done = 0;
          for (const request of schedule) {
            clock.setTimeout(() => {
              void limiter.acquire(testRule, 'ip').then((result) => {
                const permit = granted(result);
                const sent = clock.now();
                sends.push(sent);
                const latency = request.latency * 10;
                arrivals.push(sent + Math.floor(request.arrival * latency));
                clock.setTimeout(() => {
                  permit.release();
                  done++;
                }, latency);
              });
            }, request.at);
          }
          for (let step = 0; done < schedule.length && step < 10_000; step++) {
            await flush();
            clock.advance(10);
          }
          expect(done).toBe(schedule.length);
          for (const times of [sends, arrivals]) {
            const sorted = [...times].sort((a, b) => a - b);
            for (let i = limit; i < sorted.length; i++) expect((sorted[i] as number) - (sorted[i - limit] as number)).toBeGreaterThanOrEqual(windowMs);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
