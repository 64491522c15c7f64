// The offline signer's "no network" promise, checked structurally: walk every module main/offline/cli.ts
// can load — our TypeScript, then into node_modules (qrcode, pngjs, zod, @noble) — and collect the
// Node built-ins they reach. None may be a network module, and our own sources may not name the
// networking globals.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, NETWORK_MODULES } from '../../../support/import-graph';

const root = resolve(import.meta.dirname, '../../../..');
const entry = join(root, 'main/offline/cli.ts');

describe('the offline signer opens no network socket', () => {
  const graph = importGraph(entry, true);

  it('reaches no network module through any import, ours or a dependency', () => {
    const reached = [...graph.builtins].filter((name) => NETWORK_MODULES.has(name));
    expect(reached).toEqual([]);
    for (const name of graph.packages) expect(NETWORK_MODULES.has(name)).toBe(false);
    // The walk really went through the dependencies (otherwise the check above proves nothing).
    expect(graph.packages).toContain('qrcode');
    expect(graph.packages).toContain('pngjs');
    expect(graph.builtins).toContain('crypto');
    expect(graph.builtins).toContain('fs');
    expect(graph.files.size).toBeGreaterThan(40);
  });

  it('our own sources never name the networking globals, and cli.ts removes them', () => {
    const ours = [...graph.files].filter((file) => file.startsWith(root) && !file.includes('node_modules'));
    expect(ours.some((file) => file.includes('/main/exchange/') || file.includes('/main/services/'))).toBe(false);
    for (const file of ours) {
      const code = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');
      expect(/\b(fetch|WebSocket|XMLHttpRequest|EventSource)\s*\(/.test(code), file).toBe(false);
      expect(/new\s+(WebSocket|XMLHttpRequest|EventSource)\b/.test(code), file).toBe(false);
    }
    expect(readFileSync(entry, 'utf8')).toMatch(/for \(const name of \['fetch', 'WebSocket'/);
  });
});
