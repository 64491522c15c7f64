// The main and preload code is typechecked against types/electron (tsconfig paths), a vendored copy
// of Electron's own electron.d.ts, because the `electron` package is an optional dependency that npm
// installs only on Node >= 22.12 (README "Node versions"). Where it is installed, the copy must be
// the installed version's file, byte for byte: an Electron upgrade must update the copy with it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const installed = join(root, 'node_modules', 'electron', 'electron.d.ts');
const vendored = join(root, 'types', 'electron', 'electron.d.ts');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; optional?: boolean }> };

describe('vendored Electron types', () => {
  it('are the types of the Electron version package-lock.json pins', () => {
    const pinned = lock.packages['node_modules/electron'];
    expect(pinned?.optional).toBe(true);
    const header = readFileSync(vendored, 'utf8').split('\n', 1)[0];
    expect(header).toBe(`// Type definitions for Electron ${pinned?.version}`);
  });

  it.skipIf(!existsSync(installed))('are byte for byte the installed package\'s electron.d.ts (skipped where npm skipped Electron: Node < 22.12)', () => {
    const same = readFileSync(installed).equals(readFileSync(vendored));
    expect(same, 'types/electron/electron.d.ts differs from node_modules/electron/electron.d.ts: cp node_modules/electron/electron.d.ts types/electron/electron.d.ts').toBe(true);
  });
});
