import { describe, expect, it } from 'vitest';
import { FreshRead } from '../../../../shared/fresh-read';

/** A read whose answers the test releases by hand; each read answers what the "exchange" holds when it starts. */
function exchange() {
  let balance = 0n;
  const pending: (() => void)[] = [];
  let started = 0;
  const read = () => {
    started++;
    const seen = balance;
    return new Promise<bigint>((resolve) => pending.push(() => resolve(seen)));
  };
  const settle = async () => {
    while (pending.length > 0) {
      pending.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { read, settle, started: () => started, credit: (amount: bigint) => (balance += amount) };
}

describe('FreshRead', () => {
  it('answers a caller who asks during a read with a read begun after the ask (the faucet mint lands mid-read)', async () => {
    const venue = exchange();
    const reads = new FreshRead(venue.read);
    const before = reads.run(); // begun before the mint
    venue.credit(1_000_000n);
    const after = reads.run(); // asked after the mint
    await venue.settle();
    expect(await before).toBe(0n);
    expect(await after).toBe(1_000_000n);
    expect(venue.started()).toBe(2);
  });

  it('runs one read and at most one more however many callers ask', async () => {
    const venue = exchange();
    const reads = new FreshRead(venue.read);
    const first = reads.run();
    const waiting = [reads.run(), reads.run(), reads.run()];
    expect(waiting[0]).toBe(waiting[1]);
    await venue.settle();
    await Promise.all([first, ...waiting]);
    expect(venue.started()).toBe(2);
    expect(reads.busy()).toBe(false);
  });

  it('starts the waiting read even when the running one fails, and a failure reaches its own callers only', async () => {
    let calls = 0;
    const reads = new FreshRead(async () => {
      calls++;
      if (calls === 1) throw new Error('connection reset');
      return calls;
    });
    const failing = reads.run();
    const next = reads.run();
    await expect(failing).rejects.toThrow('connection reset');
    expect(await next).toBe(2);
  });

  it('shares nothing once idle: a later call starts its own read', async () => {
    const venue = exchange();
    const reads = new FreshRead(venue.read);
    const one = reads.run();
    await venue.settle();
    await one;
    venue.credit(5n);
    const two = reads.run();
    await venue.settle();
    expect(await two).toBe(5n);
    expect(venue.started()).toBe(2);
  });
});
