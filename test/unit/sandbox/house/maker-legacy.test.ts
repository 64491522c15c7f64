// The thin-legacy maker profile quotes exactly the book every existing test was written against:
// the fixture was recorded from the maker before depth profiles existed (seeded walk, random
// sizes, house takes, pinned book), and the profile must reproduce it level for level.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../../sandbox/app';
import type { SandboxApp } from '../../../../sandbox/app-types';
import { DEFAULT_OPTIONS, type SandboxOptions } from '../../../../sandbox/options';

const FIXTURE = 'test/unit/sandbox/house/maker-legacy.fixture.json';
const FROZEN_NOW = 1_800_000_000_000;

type Snapshot = Record<string, { bids: string[]; asks: string[]; last: string | null }>;

function snapshot(app: SandboxApp): Snapshot {
  const out: Snapshot = {};
  for (const market of app.ledger.markets.values()) {
    const side = (name: 'Buy' | 'Sell') => [...market.book.levels(name)].map((level) => `${level.price}x${level.total}`);
    out[market.config.name] = { bids: side('Buy'), asks: side('Sell'), last: market.lastPrice?.toString() ?? null };
  }
  return out;
}

/** Start a sandbox (fake timers, frozen clock), snapshot its books, run `steps`, which snapshot with `take`. */
function record(options: Partial<SandboxOptions>, steps: (app: SandboxApp, take: () => void) => void): Snapshot[] {
  const app = createApp({ ...DEFAULT_OPTIONS, ...options, makerProfile: 'thin-legacy' } as SandboxOptions, () => FROZEN_NOW);
  app.log = () => undefined;
  app.start();
  const shots = [snapshot(app)];
  try {
    steps(app, () => shots.push(snapshot(app)));
  } finally {
    app.stop();
  }
  return shots;
}

function scenarios(): Record<string, Snapshot[]> {
  return {
    walk: record({ seed: 1, makerRate: 0 }, (_app, take) => {
      for (let i = 0; i < 3; i++) {
        vi.advanceTimersByTime(2000);
        take();
      }
    }),
    withTakes: record({ seed: 7, makerRate: 2 }, (_app, take) => {
      for (let i = 0; i < 3; i++) {
        vi.advanceTimersByTime(1700);
        take();
      }
    }),
    pinned: record({ seed: 3, makerRate: 2 }, (app, take) => {
      app.maker.stop();
      app.maker.pin(true);
      app.maker.start();
      take();
      vi.advanceTimersByTime(4100);
      take();
    }),
  };
}

describe('the thin-legacy maker profile', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('quotes, walks, takes and pins exactly as the maker did before depth profiles', () => {
    const now = scenarios();
    if (process.env.LT_RECORD_MAKER_FIXTURE === '1') writeFileSync(FIXTURE, `${JSON.stringify(now, null, 1)}\n`);
    const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as unknown;
    expect(now).toEqual(recorded);
  });
});
