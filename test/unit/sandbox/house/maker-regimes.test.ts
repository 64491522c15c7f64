// The house maker under every regime on the realistic book, on fake timers: a minute of quoting
// and house takes logs no bug, keeps the ledger's invariants and never crosses a book; a regime
// replays exactly from the seed; the fast regime moves the mid further than the quiet one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../../sandbox/app';
import type { SandboxApp } from '../../../../sandbox/app-types';
import { MAKER_REGIMES, type MakerRegimeName } from '../../../../sandbox/house/regimes';
import { DEFAULT_OPTIONS } from '../../../../sandbox/options';

const FROZEN_NOW = 1_800_000_000_000;

function sandbox(seed: number, regime: MakerRegimeName, makerRate: number): { app: SandboxApp; logged: string[] } {
  const app = createApp({ ...DEFAULT_OPTIONS, seed, makerRate, makerProfile: 'realistic', makerRegime: regime }, () => FROZEN_NOW);
  const logged: string[] = [];
  app.log = (line) => logged.push(line);
  app.start();
  return { app, logged };
}

function books(app: SandboxApp): string[] {
  return [...app.ledger.markets.values()].map((market) => {
    const side = (name: 'Buy' | 'Sell') => [...market.book.levels(name)].map((level) => `${level.price}x${level.total}`).join(',');
    return `${market.config.name} ${side('Buy')} | ${side('Sell')}`;
  });
}

function inside(app: SandboxApp): { bid: bigint; ask: bigint }[] {
  return [...app.ledger.markets.values()].map((market) => ({ bid: [...market.book.levels('Buy')][0]?.price ?? 0n, ask: [...market.book.levels('Sell')][0]?.price ?? 0n }));
}

describe('the house maker on the realistic book', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(MAKER_REGIMES)('%s: a minute of quotes and house takes logs no bug, keeps the invariants and never crosses', (regime) => {
    const { app, logged } = sandbox(5, regime, 10);
    try {
      for (let second = 0; second < 60; second++) {
        vi.advanceTimersByTime(1000);
        for (const { bid, ask } of inside(app)) if (bid !== 0n && ask !== 0n) expect(bid).toBeLessThan(ask);
      }
      expect(logged).toEqual([]);
      expect(app.ledger.checkInvariants()).toEqual([]);
      expect([...app.ledger.markets.values()].some((market) => market.lastPrice !== undefined)).toBe(true);
    } finally {
      app.stop();
    }
  });

  it('replays a regime exactly from the seed, step by step of the sandbox clock', () => {
    const run = (seed: number) => {
      const { app } = sandbox(seed, 'normal', 0);
      try {
        app.maker.stop();
        app.maker.configure({ regime: 'fast', clockDriven: true });
        app.maker.start();
        const shots: string[][] = [];
        for (let step = 0; step < 5; step++) {
          expect(app.maker.advanceClock(500)).toBe(1);
          shots.push(books(app));
        }
        return shots;
      } finally {
        app.stop();
      }
    };
    expect(run(9)).toEqual(run(9));
    expect(run(9)).not.toEqual(run(10));
  });

  it('moves the mid further in the fast regime than in the quiet one', () => {
    const travel = (regime: MakerRegimeName) => {
      const { app } = sandbox(4, regime, 0);
      try {
        app.maker.stop();
        app.maker.configure({ clockDriven: true });
        app.maker.start();
        let total = 0n;
        let last = inside(app)[0] as { bid: bigint; ask: bigint };
        for (let step = 0; step < 20; step++) {
          app.maker.advanceClock(2000);
          const now = inside(app)[0] as { bid: bigint; ask: bigint };
          const moved = now.bid + now.ask - last.bid - last.ask;
          total += moved < 0n ? -moved : moved;
          last = now;
        }
        return total;
      } finally {
        app.stop();
      }
    };
    expect(travel('fast')).toBeGreaterThan(travel('quiet') * 5n);
  });
});
