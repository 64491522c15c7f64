// The modules a source file can load, found by reading the files (nothing is run): our TypeScript
// by relative path, then into node_modules through Node's own resolution. For the "no network"
// checks of the offline signer and the offline terminal.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

/** Node built-ins and packages that open sockets or start processes. */
export const NETWORK_MODULES = new Set(['http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'dns/promises', 'child_process', 'cluster', 'inspector', 'ws', 'undici']);

const STATIC = /(?:^|[^.\w$])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]|(?:^|[^.\w$])require\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;
const DYNAMIC = /(?:^|[^.\w$])import\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

function resolveTypeScript(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate;
  return null;
}

export interface ImportGraph {
  /** Every file reached: our .ts sources and the packages' .js files. */
  readonly files: Set<string>;
  /** Node built-ins named, without `node:`. */
  readonly builtins: Set<string>;
  /** Packages named (`@scope/name` or `name`). */
  readonly packages: Set<string>;
}

/**
 * Every file reachable from `entry`. `followDynamic`: also follow `import(...)` in our TypeScript
 * (a package's dynamic imports are always followed: nothing tells when it takes them).
 */
export function importGraph(entry: string, followDynamic: boolean): ImportGraph {
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
    const found = [...source.matchAll(STATIC)].map((match) => (match[1] ?? match[2])!);
    if (followDynamic || !file.endsWith('.ts')) found.push(...[...source.matchAll(DYNAMIC)].map((match) => match[1]!));
    for (const specifier of found) {
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
