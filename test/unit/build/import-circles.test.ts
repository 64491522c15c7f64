// The import graph of every source folder reads in one direction. A circle, even of type-only
// imports, means a reader cannot understand either file without the other, and a change to one
// can break the other's build. The renderer's features sit above the app layer that assembles
// them: a feature reaches the terminal through the store layer, never through `renderer/src/app`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circlePath, importCircles, relativeImports } from '../../support/import-cycles';

const root = join(import.meta.dirname, '..', '..', '..');
const SOURCE_FOLDERS = ['shared', 'main', 'preload', 'renderer', 'sandbox'];

/** Circles allowed, each as its files sorted and joined by ' + ': none. */
const KNOWN_CIRCLES = new Set<string>([]);

/** Features that import `renderer/src/app`, as `feature file -> app file`: none may. */
const KNOWN_FEATURE_IMPORTS_OF_APP = new Set<string>([]);

// Paths are compared with forward slashes whatever the platform.
const graph = new Map([...relativeImports(root, SOURCE_FOLDERS)].map(([file, targets]) => [file.replaceAll('\\', '/'), targets.map((target) => target.replaceAll('\\', '/'))]));

/** What differs between what is found and what is known, one line each, for the failure message. */
function differences(found: ReadonlyMap<string, string>, known: ReadonlySet<string>, what: string): string[] {
  const lines: string[] = [];
  for (const [key, shown] of found) if (!known.has(key)) lines.push(`new ${what}: ${shown}`);
  for (const key of known) if (!found.has(key)) lines.push(`gone, remove it from the known list: ${key}`);
  return lines;
}

describe('the import graph', () => {
  it('reads every source folder', () => {
    for (const folder of SOURCE_FOLDERS) expect([...graph.keys()].some((file) => file.startsWith(`${folder}/`)), folder).toBe(true);
  });

  it('has no import circle in shared, main, preload, renderer or sandbox (type-only imports included)', () => {
    const found = new Map(importCircles(graph).map((group) => [group.join(' + '), `${circlePath(graph, group)}   (all ${group.length}: ${group.join(', ')})`]));
    expect(differences(found, KNOWN_CIRCLES, 'import circle')).toEqual([]);
  });

  it('no renderer feature imports the app layer', () => {
    const found = new Map<string, string>();
    for (const [file, targets] of graph) {
      if (!file.startsWith('renderer/src/features/')) continue;
      for (const target of targets) if (target.startsWith('renderer/src/app/')) found.set(`${file} -> ${target}`, `${file} -> ${target}`);
    }
    expect(differences(found, KNOWN_FEATURE_IMPORTS_OF_APP, 'feature import of the app layer')).toEqual([]);
  });
});

describe('the circle finder', () => {
  it('finds a circle of two, a circle of three and a self import, and nothing in a chain', () => {
    const sample = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['f']],
      ['g', ['h']],
      ['h', []],
    ]);
    const circles = importCircles(sample);
    expect(circles).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f']]);
    expect(circles.map((group) => circlePath(sample, group))).toEqual(['a -> b -> a', 'c -> d -> e -> c', 'f -> f']);
  });
});
