// Property tests under one rule: every run prints its seed, and a seed that once failed is kept
// as a fixed case. checkProperty runs the property first with each seed listed for the test in
// property-seeds.json, then with this run's seed (LT_PROPERTY_SEED, or a random one), printed
// before it runs so a failure under load can be replayed exactly.
import fc from 'fast-check';
import { expect } from 'vitest';
import fixedSeeds from './property-seeds.json';

const SEEDS_FILE = 'test/support/property-seeds.json';
const fixedSeedsByName: Readonly<Record<string, readonly number[]>> = fixedSeeds;
/** The renderer project type-checks without node's types; its tests still run in node. */
const environment = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};

export interface PropertyOptions<Ts> extends fc.Parameters<Ts> {
  /** The key in property-seeds.json; by default the running test's full name. */
  readonly name?: string;
}

function seedOfThisRun(): number {
  const given = environment.LT_PROPERTY_SEED;
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed)) throw new Error(`LT_PROPERTY_SEED must be an integer, got ${given}`);
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 31);
}

function failure(name: string, seed: number, fixed: boolean, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const advice = fixed ? `a fixed case in ${SEEDS_FILE}` : `add ${seed} to "${name}" in ${SEEDS_FILE} to keep it as a fixed case`;
  return new Error(`property "${name}" failed with seed ${seed} (${advice}; replay with LT_PROPERTY_SEED=${seed})\n${message}`, { cause: error });
}

interface Run {
  readonly seed: number;
  readonly fixed: boolean;
}

function runsOf(name: string, explicitSeed: number | undefined): Run[] {
  const fixed = (fixedSeedsByName[name] ?? []).map((seed) => ({ seed, fixed: true }));
  // A test that states its own seed is deterministic already: that seed is this run's seed.
  const seed = explicitSeed ?? seedOfThisRun();
  console.log(`property "${name}" seed ${seed}`);
  return [...fixed, { seed, fixed: false }];
}

/** fc.assert with the seed printed and the fixed seeds run first (async properties return a promise). */
export function checkProperty<Ts>(property: fc.IAsyncProperty<Ts>, options?: PropertyOptions<Ts>): Promise<void>;
export function checkProperty<Ts>(property: fc.IProperty<Ts>, options?: PropertyOptions<Ts>): void;
export function checkProperty<Ts>(property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>, options: PropertyOptions<Ts> = {}): Promise<void> | void {
  const { name: givenName, ...parameters } = options;
  const name = givenName ?? expect.getState().currentTestName ?? 'unnamed property';
  const runs = runsOf(name, parameters.seed);
  if (property.isAsync()) {
    const asyncProperty = property as fc.IAsyncProperty<Ts>;
    return (async () => {
      for (const run of runs) {
        try {
          await fc.assert(asyncProperty, { ...parameters, seed: run.seed });
        } catch (error) {
          throw failure(name, run.seed, run.fixed, error);
        }
      }
    })();
  }
  for (const run of runs) {
    try {
      fc.assert(property as fc.IProperty<Ts>, { ...parameters, seed: run.seed });
    } catch (error) {
      throw failure(name, run.seed, run.fixed, error);
    }
  }
}
