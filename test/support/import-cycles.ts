// The import circles among our own sources, found by reading the files (nothing is run). Every
// relative import counts: `import type` and `import()` too, since a circle of types or of lazy
// loads is still a circle for the reader who follows the imports to understand a file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORT = /(?:^|[^.\w$])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s*)?['"](\.[^'"]*)['"]|(?:^|[^.\w$])(?:import|require)\s*\(\s*['"](\.[^'"]*)['"]\s*\)/gm;

const EXTENSIONS = ['.ts', '.tsx'];

function isSource(file: string): boolean {
  return EXTENSIONS.some((extension) => file.endsWith(extension)) && !file.endsWith('.d.ts');
}

function sourcesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules') continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...sourcesUnder(path));
    else if (isSource(path)) found.push(path);
  }
  return found;
}

function resolveRelative(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...EXTENSIONS.map((extension) => `${base}${extension}`), ...EXTENSIONS.map((extension) => join(base, `index${extension}`))];
  for (const candidate of candidates) if (existsSync(candidate) && statSync(candidate).isFile() && isSource(candidate)) return candidate;
  return null;
}

/** Each source file under `folders` (paths relative to `root`) with the sources it imports by relative path. */
export function relativeImports(root: string, folders: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const file of sourcesUnder(join(root, folder))) {
      const targets = new Set<string>();
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = (match[1] ?? match[2])!;
        const target = resolveRelative(file, specifier);
        // Stylesheets, JSON and other assets import nothing back.
        if (target === null && existsSync(resolve(dirname(file), specifier))) continue;
        if (target === null) throw new Error(`${relative(root, file)}: cannot resolve ${specifier}`);
        targets.add(relative(root, target));
      }
      graph.set(relative(root, file), [...targets].sort());
    }
  }
  return graph;
}

/**
 * The strongly connected groups of more than one file (or a file importing itself), each sorted,
 * found with Tarjan's algorithm. Edges to files outside the graph are ignored.
 */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;

  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const frames: { file: string; targets: readonly string[]; position: number }[] = [];
    const enter = (file: string): void => {
      index.set(file, next);
      lowest.set(file, next);
      next += 1;
      stack.push(file);
      onStack.add(file);
      frames.push({ file, targets: (graph.get(file) ?? []).filter((target) => graph.has(target)), position: 0 });
    };
    enter(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.position < frame.targets.length) {
        const target = frame.targets[frame.position]!;
        frame.position += 1;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) lowest.set(frame.file, Math.min(lowest.get(frame.file)!, index.get(target)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) lowest.set(parent.file, Math.min(lowest.get(parent.file)!, lowest.get(frame.file)!));
      if (lowest.get(frame.file) !== index.get(frame.file)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.file);
      const selfImport = graph.get(frame.file)?.includes(frame.file) ?? false;
      if (group.length > 1 || selfImport) circles.push(group.sort());
    }
  }
  return circles.sort((left, right) => left[0]!.localeCompare(right[0]!));
}

/** One shortest path from `from` back to itself inside `group`, as `a -> b -> a`, for the failure message. */
export function circlePath(graph: ReadonlyMap<string, readonly string[]>, group: readonly string[]): string {
  const members = new Set(group);
  const from = group[0]!;
  const previous = new Map<string, string>();
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!members.has(target)) continue;
      if (target === from) {
        const chain = [from];
        for (let step: string | undefined = file; step !== undefined && step !== from; step = previous.get(step)) chain.unshift(step);
        chain.unshift(from);
        return chain.join(' -> ');
      }
      if (previous.has(target) || target === from) continue;
      previous.set(target, file);
      queue.push(target);
    }
  }
  return group.join(' , ');
}
