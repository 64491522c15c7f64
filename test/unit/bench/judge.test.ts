import { describe, expect, it } from 'vitest';
import { isRatioTarget, judge, median, parseTarget, quantile, roundRatio, spreadOf, verdictOf } from '../../../bench/judge';
import type { BenchResult, BenchRound } from '../../../bench/result';

const row = (rounds: BenchRound[], target: string, better: BenchResult['better'] = 'higher'): BenchResult => ({ name: 'row', unit: 'x/s', better, target, rounds });
const pairs = (...values: [number, number][]): BenchRound[] => values.map(([ours, peer]) => ({ ours, peer }));

describe('reading a target', () => {
  it('tells a bound on the ratio from a bound on the figure', () => {
    expect(parseTarget('>= 1.5x peer')).toEqual({ operator: '>=', bound: 1.5, ratio: true });
    expect(parseTarget('< 4 ms p99 and no frame missed by its own work')).toEqual({ operator: '<', bound: 4, ratio: false });
    expect(parseTarget('≤ 1,000 µs')).toEqual({ operator: '<=', bound: 1000, ratio: false });
    expect(parseTarget('fast')).toBeNull();
    expect(isRatioTarget('>= 1.0x peer')).toBe(true);
    expect(isRatioTarget('< 5 ms above floor')).toBe(false);
  });
});

describe('statistics', () => {
  it('takes the median of odd and even counts, and interpolated quartiles', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([10, 20], 0.25)).toBe(12.5);
    expect(Number.isNaN(median([]))).toBe(true);
    expect(spreadOf([3, 1, 2, 5, 4])).toEqual({ min: 1, max: 5, q1: 2, q3: 4 });
  });

  it('computes each round ratio as how many times better ours is', () => {
    expect(roundRatio({ ours: 300, peer: 100 }, 'higher')).toBe(3);
    expect(roundRatio({ ours: 2, peer: 8 }, 'lower')).toBe(4);
  });
});

describe('the verdict', () => {
  it('passes when every round meets the target, fails when none does, straddles otherwise', () => {
    expect(verdictOf(5, 5)).toBe('pass');
    expect(verdictOf(0, 5)).toBe('FAIL');
    expect(verdictOf(3, 5)).toBe('STRADDLES');
  });

  it('judges a ratio target on the per-round ratios and reports their medians and spread', () => {
    const judged = judge(row(pairs([120, 100], [150, 100], [110, 100], [130, 100], [140, 100]), '>= 1.0x peer'));
    expect(judged.verdict).toBe('pass');
    expect(judged.ratio).toBe(1.3);
    expect(judged.ours).toBe(130);
    expect(judged.peer).toBe(100);
    expect(judged.spread.min).toBeCloseTo(1.1);
    expect(judged.spread.max).toBeCloseTo(1.5);
    expect(judged.met).toBe(5);
  });

  it('says STRADDLES when the spread crosses the target, even with a passing median', () => {
    const judged = judge(row(pairs([90, 100], [150, 100], [110, 100], [130, 100], [140, 100]), '>= 1.0x peer'));
    expect(judged.ratio).toBe(1.3);
    expect(judged.verdict).toBe('STRADDLES');
    expect(judged.met).toBe(4);
  });

  it('fails a ratio target that no round meets', () => {
    expect(judge(row(pairs([90, 100], [80, 100], [95, 100], [70, 100], [99, 100]), '>= 1.0x peer')).verdict).toBe('FAIL');
  });

  it('judges an absolute target on the per-round figure, `judged` before `ours`', () => {
    const absolute = row(pairs([3, 9], [2, 9], [3.5, 9], [2.5, 9], [3.9, 9]), '< 4 ms', 'lower');
    expect(judge(absolute).verdict).toBe('pass');
    expect(judge({ ...absolute, rounds: [...absolute.rounds.slice(0, 4), { ours: 4.1, peer: 9 }] }).verdict).toBe('STRADDLES');
    const aboveFloor: BenchRound[] = [12, 13, 11, 14, 12].map((ours) => ({ ours, peer: ours - 2, judged: 2 }));
    const judged = judge(row(aboveFloor, '< 5 ms above floor', 'lower'));
    expect(judged.verdict).toBe('pass');
    expect(judged.judged).toBe(2);
    expect(judged.ours).toBe(12);
  });

  it('counts a round whose conditions failed as a miss', () => {
    const rounds: BenchRound[] = [1, 1, 1, 1, 1].map((ours, index) => ({ ours, peer: 9, conditions: index !== 2 }));
    expect(judge(row(rounds, '< 4 ms', 'lower')).verdict).toBe('STRADDLES');
    expect(judge(row(rounds.map((round) => ({ ...round, conditions: false })), '< 4 ms', 'lower')).verdict).toBe('FAIL');
  });

  it('is an error with fewer than five rounds, an unreadable target or a round without a figure', () => {
    expect(judge(row(pairs([2, 1], [2, 1], [2, 1], [2, 1]), '>= 1.0x peer'))).toMatchObject({ verdict: 'ERROR', problem: '4 rounds, at least 5 are needed' });
    expect(judge(row(pairs([2, 1], [2, 1], [2, 1], [2, 1], [2, 1]), 'as fast as possible')).verdict).toBe('ERROR');
    expect(judge(row(pairs([2, 1], [2, 1], [2, 1], [2, 1], [2, Number.NaN]), '>= 1.0x peer')).verdict).toBe('ERROR');
  });
});
