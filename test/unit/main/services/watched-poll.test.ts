// The mechanism main's watched reads share (markets overview, margin insights, Turbo depth overlay):
// polling only while a window watches, a window closing counted as its unwatch, an answer of the
// network before a switch dropped, a pass on demand, nothing after close, and a failed read keeping
// the last answer marked stale while the polling goes on.
import { describe, expect, it } from 'vitest';
import { markedStale, WatchedPoll, type ReadFreshness } from '../../../../main/services/watched-poll';
import { WindowHub } from '../../../../main/services/window-hub';
import { ManualClock } from '../../../../shared/clock';
import { fail, ok, type Result } from '../../../../shared/result';

interface CountView extends ReadFreshness {
  readonly count: number | null;
}

const INTERVAL_MS = 1_000;

function setup(passOnWatch: 'every' | 'first' = 'every') {
  const clock = new ManualClock(5_000_000);
  const windows = new WindowHub();
  for (const id of ['w1', 'w2']) windows.attach(id, { send: () => undefined });
  let answer: () => Promise<Result<number>> = () => Promise.resolve(ok(passes));
  let passes = 0;
  let view: CountView = { state: 'resyncing', readAt: null, problem: null, count: null };
  /** Every count a pass kept, in order. */
  const kept: number[] = [];
  let unwatchedCalls = 0;
  const poll = new WatchedPoll<string>({
    windows,
    clock,
    intervalMs: INTERVAL_MS,
    passOnWatch,
    unwatched: () => unwatchedCalls++,
    pass: async (current) => {
      passes++;
      const read = await answer();
      if (!current()) return;
      if (read.ok) kept.push(read.value);
      view = read.ok ? { state: 'live', readAt: clock.now(), problem: null, count: read.value } : markedStale(view, `${read.code}: ${read.message}`);
    },
  });
  const flush = async (ms: number) => {
    clock.advance(ms);
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    clock,
    windows,
    poll,
    flush,
    passes: () => passes,
    view: () => view,
    kept,
    unwatchedCalls: () => unwatchedCalls,
    setAnswer: (next: typeof answer) => (answer = next),
  };
}

describe('WatchedPoll', () => {
  it('polls only while some window watches: a pass soon after the first watch, then every interval', async () => {
    const test = setup();
    await test.flush(10 * INTERVAL_MS);
    expect(test.passes()).toBe(0);
    test.poll.watch('w1', 'eth');
    await test.flush(0);
    expect(test.passes()).toBe(1);
    await test.flush(INTERVAL_MS);
    await test.flush(INTERVAL_MS);
    expect(test.passes()).toBe(3);
    test.poll.watch('w2', 'btc');
    expect([...test.poll.watchers]).toEqual([
      ['w1', 'eth'],
      ['w2', 'btc'],
    ]);
    test.poll.unwatch('w1');
    expect(test.unwatchedCalls()).toBe(1);
    await test.flush(0);
    const whileOne = test.passes();
    await test.flush(INTERVAL_MS);
    expect(test.passes()).toBe(whileOne + 1);
    test.poll.unwatch('w2');
    await test.flush(10 * INTERVAL_MS);
    expect(test.passes()).toBe(whileOne + 1);
    expect(test.poll.watchers.size).toBe(0);
  });

  it('a window closing is its unwatch', async () => {
    const test = setup();
    test.poll.watch('w1', 'eth');
    await test.flush(0);
    test.windows.detach('w1');
    expect(test.unwatchedCalls()).toBe(1);
    expect(test.poll.watchers.size).toBe(0);
    const passes = test.passes();
    await test.flush(10 * INTERVAL_MS);
    expect(test.passes()).toBe(passes);
  });

  it('a new watch of the same window replaces the last; `every` passes at once for it, `first` only for the watch that starts polling', async () => {
    const every = setup('every');
    every.poll.watch('w1', 'eth');
    await every.flush(0);
    every.poll.watch('w1', 'btc');
    expect([...every.poll.watchers]).toEqual([['w1', 'btc']]);
    await every.flush(0);
    expect(every.passes()).toBe(2);

    const first = setup('first');
    first.poll.watch('w1', 'eth');
    await first.flush(0);
    first.poll.watch('w2', 'eth');
    await first.flush(0);
    expect(first.passes()).toBe(1);
    await first.flush(INTERVAL_MS);
    expect(first.passes()).toBe(2);
  });

  it('an answer read before a network change is dropped, and the new network is read soon', async () => {
    const test = setup();
    let release: (value: Result<number>) => void = () => undefined;
    test.setAnswer(() => new Promise<Result<number>>((resolve) => (release = resolve)));
    test.poll.watch('w1', 'eth');
    await test.flush(0);
    expect(test.passes()).toBe(1);
    test.poll.networkChanged();
    release(ok(41));
    test.setAnswer(() => Promise.resolve(ok(42)));
    await test.flush(0);
    expect(test.view()).toMatchObject({ state: 'live', count: 42 });
    expect(test.kept).toEqual([42]);
    expect(test.passes()).toBe(2);
  });

  it('refresh runs a pass now, and does nothing while no window watches', async () => {
    const test = setup();
    await test.poll.refresh();
    expect(test.passes()).toBe(0);
    test.poll.watch('w1', 'eth');
    await test.flush(0);
    await test.poll.refresh();
    expect(test.passes()).toBe(2);
    expect(test.view()).toMatchObject({ state: 'live', count: 2 });
  });

  it('close stops the polling and forgets the windows; a window closing afterwards changes nothing', async () => {
    const test = setup();
    test.poll.watch('w1', 'eth');
    await test.flush(0);
    test.poll.close();
    expect(test.poll.watchers.size).toBe(0);
    const passes = test.passes();
    await test.flush(10 * INTERVAL_MS);
    await test.poll.refresh();
    expect(test.passes()).toBe(passes);
    test.windows.detach('w1');
    expect(test.unwatchedCalls()).toBe(0);
  });

  it('a failed read keeps the last answer marked stale with the reason, and the polling goes on', async () => {
    const test = setup();
    test.setAnswer(() => Promise.resolve(fail('TIMEOUT', 'no answer')));
    test.poll.watch('w1', 'eth');
    await test.flush(0);
    // Nothing read yet on this network: still resyncing, with the reason.
    expect(test.view()).toEqual({ state: 'resyncing', readAt: null, problem: 'TIMEOUT: no answer', count: null });
    test.setAnswer(() => Promise.resolve(ok(7)));
    await test.flush(INTERVAL_MS);
    expect(test.view()).toEqual({ state: 'live', readAt: test.clock.now(), problem: null, count: 7 });
    const readAt = test.clock.now();
    test.setAnswer(() => Promise.resolve(fail('HTTP_500', 'server error')));
    await test.flush(INTERVAL_MS);
    expect(test.view()).toEqual({ state: 'stale', readAt, problem: 'HTTP_500: server error', count: 7 });
    const passes = test.passes();
    await test.flush(INTERVAL_MS);
    expect(test.passes()).toBe(passes + 1);
  });
});
