import { afterEach, describe, expect, it } from 'vitest';
import { interleave, interleaveAsync, paired, roundOrder, sized } from '../../../bench/rounds';

describe('interleaved rounds', () => {
  it('rotates who goes first round by round', () => {
    expect(roundOrder(['ours', 'peer'], 0)).toEqual(['ours', 'peer']);
    expect(roundOrder(['ours', 'peer'], 1)).toEqual(['peer', 'ours']);
    expect(roundOrder(['a', 'b', 'c'], 2)).toEqual(['c', 'a', 'b']);
  });

  it('runs every contender once a round, alternating, and keeps each one figures in round order', () => {
    const calls: string[] = [];
    const figures = interleave(5, {
      ours: (round) => {
        calls.push(`ours${round}`);
        return round;
      },
      peer: (round) => {
        calls.push(`peer${round}`);
        return round * 10;
      },
    });
    expect(calls).toEqual(['ours0', 'peer0', 'peer1', 'ours1', 'ours2', 'peer2', 'peer3', 'ours3', 'ours4', 'peer4']);
    expect(figures).toEqual({ ours: [0, 1, 2, 3, 4], peer: [0, 10, 20, 30, 40] });
    expect(paired(figures.ours, figures.peer, (value) => value + 1)).toEqual([
      { ours: 1, peer: 1 },
      { ours: 2, peer: 11 },
      { ours: 3, peer: 21 },
      { ours: 4, peer: 31 },
      { ours: 5, peer: 41 },
    ]);
  });

  it('does the same for asynchronous contenders, one at a time', async () => {
    const calls: string[] = [];
    let running = 0;
    const contender = (name: string) => async (round: number) => {
      running++;
      expect(running).toBe(1);
      await Promise.resolve();
      calls.push(`${name}${round}`);
      running--;
      return round;
    };
    await interleaveAsync(3, { ours: contender('ours'), peer: contender('peer') });
    expect(calls).toEqual(['ours0', 'peer0', 'peer1', 'ours1', 'ours2', 'peer2']);
  });
});

describe('--quick', () => {
  const before = process.env.LT_BENCH_QUICK;
  afterEach(() => {
    if (before === undefined) delete process.env.LT_BENCH_QUICK;
    else process.env.LT_BENCH_QUICK = before;
  });

  it('shortens each round, never the number of rounds', () => {
    delete process.env.LT_BENCH_QUICK;
    expect(sized(1000, 10)).toBe(1000);
    process.env.LT_BENCH_QUICK = '1';
    expect(sized(1000, 10)).toBe(10);
  });
});
