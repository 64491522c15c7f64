// The offline signer's "no network" promise, checked structurally: walk every module main/offline/cli.ts
// can load — our TypeScript, then into node_modules (qrcode, pngjs, zod, @noble) — and collect the
// Node built-ins they reach. None may be a network module, and our own sources may not name the
// networking globals.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../../..');
const entry = join(root, 'main/offline/cli.ts');

const NETWORK_MODULES = new Set(['http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'dns/promises', 'child_process', 'cluster', 'inspector', 'ws', 'undici']);
const SPECIFIER = /(?:^|[^.\w$])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]|(?:^|[^.\w$])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[^.\w$])require\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(SPECIFIER)) found.push((match[1] ?? match[2] ?? match[3])!);
  return found;
}

function resolveTypeScript(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate;
  return null;
}

function walk(): { files: Set<string>; builtins: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const builtins = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    const require = createRequire(file);
    for (const specifier of specifiers(source)) {
      const bare = specifier.replace(/^node:/, '');
      if (specifier.startsWith('node:') || builtinModules.includes(bare)) {
        builtins.add(bare);
        continue;
      }
      if (file.endsWith('.ts') && specifier.startsWith('.')) {
        const target = resolveTypeScript(file, specifier);
        if (target === null) throw new Error(`${file}: cannot resolve ${specifier}`);
        queue.push(target);
        continue;
      }
      if (!specifier.startsWith('.')) packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
      let target: string;
      try {
        target = require.resolve(specifier);
      } catch {
        // Optional requires inside packages (feature probes) that are not installed cannot load either.
        continue;
      }
      if (/\.(c|m)?js$/.test(target)) queue.push(target);
    }
  }
  return { files, builtins, packages };
}

describe('the offline signer opens no network socket', () => {
  const graph = walk();

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
