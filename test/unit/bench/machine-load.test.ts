import { describe, expect, it } from 'vitest';
import { describeLoad, loadBetween, ownGrowth, parseMachineTicks, parseProcessTicks, treeOf, type ProcessTicks } from '../../../bench/machine-load';

const processStat = (pid: number, command: string, parent: number, utime: number, stime: number, started: number) =>
  `${pid} (${command}) S ${parent} ${pid} ${pid} 0 -1 4194304 100 0 0 0 ${utime} ${stime} 7 8 20 0 1 0 ${started} 1000 100 18446744073709551615`;

describe('reading /proc', () => {
  it('reads the machine busy and total ticks from the aggregate cpu line', () => {
    const stat = 'cpu  100 5 50 800 20 3 2 10 0 0\ncpu0 50 2 25 400 10 1 1 5 0 0\nintr 1\n';
    expect(parseMachineTicks(stat)).toEqual({ busy: 170, total: 990 });
    expect(parseMachineTicks('intr 1\n')).toBeNull();
  });

  it('reads a process stat whose command holds spaces and parentheses', () => {
    expect(parseProcessTicks(processStat(42, 'chrome (renderer) x', 7, 30, 12, 5000))).toEqual({ pid: 42, parent: 7, started: 5000, ticks: 42 });
    expect(parseProcessTicks('garbage')).toBeNull();
  });
});

describe('the bench own process tree', () => {
  const processes: ProcessTicks[] = [
    { pid: 1, parent: 0, started: 1, ticks: 1000 },
    { pid: 10, parent: 1, started: 50, ticks: 100 },
    { pid: 11, parent: 10, started: 60, ticks: 20 },
    { pid: 12, parent: 11, started: 61, ticks: 30 },
    { pid: 20, parent: 1, started: 70, ticks: 500 },
  ];

  it('holds the root and every descendant, not its siblings', () => {
    expect(treeOf(10, processes).map((process) => process.pid)).toEqual([10, 11, 12]);
  });

  it('counts each process growth since it was last seen, all of a new one, and a reused pid as new', () => {
    const seen = new Map<string, number>();
    expect(ownGrowth(treeOf(10, processes), seen)).toBe(150);
    const later: ProcessTicks[] = [
      { pid: 10, parent: 1, started: 50, ticks: 130 },
      { pid: 11, parent: 10, started: 60, ticks: 25 },
      { pid: 12, parent: 11, started: 99, ticks: 4 },
    ];
    expect(ownGrowth(later, seen)).toBe(30 + 5 + 4);
  });

  it('turns two marks into cores of other work and of its own', () => {
    const load = loadBetween({ machine: { busy: 0, total: 0 }, own: 0 }, { machine: { busy: 150, total: 200 }, own: 50 }, 2);
    expect(load).toEqual({ cores: 2, other: 1, own: 0.5 });
    expect(describeLoad(load)).toBe('other load: 1.0 of 2 cores');
    expect(describeLoad(undefined)).toMatch(/unknown/);
    // Own ticks never exceed the machine's busy ticks (sampling edges): other work is then 0, not negative.
    expect(loadBetween({ machine: { busy: 0, total: 0 }, own: 0 }, { machine: { busy: 10, total: 100 }, own: 40 }, 2)).toEqual({ cores: 2, other: 0, own: 0.2 });
  });
});
