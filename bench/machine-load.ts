// The load of the machine from outside the bench: how many cores other processes kept busy while a
// bench ran. The machine's busy time (/proc/stat) minus the CPU time of the bench's own process
// tree (this process and every descendant: the sandbox, the browser host, Chromium and its
// renderers, from /proc/<pid>/stat), over the same interval. A load average cannot tell the two
// apart: a bench that keeps both cores busy itself would read as a loaded machine.
//
// A sampler reads both every half second (a process that ends between two samples loses at most
// that much of its time); `mark()` takes a sample and returns the running totals, `between()`
// turns two marks into cores. Linux only: elsewhere the load is unknown and said so.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface MachineTicks {
  /** Busy ticks of every CPU together (user, nice, system, irq, softirq, steal). */
  readonly busy: number;
  /** All ticks of every CPU together (busy, idle, iowait). */
  readonly total: number;
}

export interface ProcessTicks {
  readonly pid: number;
  readonly parent: number;
  /** When the process started (ticks after boot): a pid reused by a new process is a new key. */
  readonly started: number;
  /** Its own user and system time (ticks), all threads. */
  readonly ticks: number;
}

export interface LoadMark {
  readonly machine: MachineTicks;
  /** Ticks the bench's own process tree used since the sampler started. */
  readonly own: number;
}

export interface Load {
  readonly cores: number;
  /** Cores' worth of work by other processes over the interval. */
  readonly other: number;
  /** Cores' worth of work by the bench's own process tree. */
  readonly own: number;
}

/** The first (aggregate) `cpu` line of /proc/stat. */
export function parseMachineTicks(stat: string): MachineTicks | null {
  const line = stat.split('\n').find((text) => text.startsWith('cpu '));
  if (line === undefined) return null;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** /proc/<pid>/stat: the command may hold spaces and parentheses, so fields are read after the last ')'. */
export function parseProcessTicks(stat: string): ProcessTicks | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number(stat.slice(0, stat.indexOf(' ')));
  // After ") ": state(3) ppid(4) … utime(14) stime(15) … starttime(22), numbered as in proc(5).
  const fields = stat.slice(close + 2).trim().split(/\s+/);
  const parent = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  const started = Number(fields[19]);
  if (![pid, parent, ticks, started].every(Number.isFinite)) return null;
  return { pid, parent, started, ticks };
}

/** `root` and every process under it. */
export function treeOf(root: number, processes: readonly ProcessTicks[]): ProcessTicks[] {
  const children = new Map<number, ProcessTicks[]>();
  for (const process of processes) children.set(process.parent, [...(children.get(process.parent) ?? []), process]);
  const tree = processes.filter((process) => process.pid === root);
  for (let index = 0; index < tree.length; index++) tree.push(...(children.get((tree[index] as ProcessTicks).pid) ?? []));
  return tree;
}

/**
 * The ticks a tree used since the previous sample: each process's growth since it was last seen,
 * all of its time for one not seen before (it started since). `seen` is updated in place.
 */
export function ownGrowth(tree: readonly ProcessTicks[], seen: Map<string, number>): number {
  let growth = 0;
  for (const process of tree) {
    const key = `${process.pid}/${process.started}`;
    growth += Math.max(0, process.ticks - (seen.get(key) ?? 0));
    seen.set(key, process.ticks);
  }
  return growth;
}

export function loadBetween(from: LoadMark, to: LoadMark, cores: number): Load | undefined {
  const total = to.machine.total - from.machine.total;
  if (total <= 0) return undefined;
  const busy = to.machine.busy - from.machine.busy;
  const own = Math.min(busy, to.own - from.own);
  return { cores, other: (Math.max(0, busy - own) / total) * cores, own: (own / total) * cores };
}

export function describeLoad(load: Load | undefined): string {
  return load === undefined ? 'other load: unknown (no /proc here)' : `other load: ${load.other.toFixed(1)} of ${load.cores} cores`;
}

function readProcesses(): ProcessTicks[] {
  const processes: ProcessTicks[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const parsed = parseProcessTicks(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (parsed !== null) processes.push(parsed);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return processes;
}

export interface LoadWatch {
  mark(): LoadMark | undefined;
  between(from: LoadMark | undefined, to: LoadMark | undefined): Load | undefined;
  stop(): void;
}

/** Start sampling; undefined marks (and an unknown load) where /proc cannot be read. */
export function watchLoad(intervalMs = 500): LoadWatch {
  const cores = cpus().length;
  const seen = new Map<string, number>();
  let own = 0;
  const sample = (): LoadMark | undefined => {
    try {
      const machine = parseMachineTicks(readFileSync('/proc/stat', 'utf8'));
      if (machine === null) return undefined;
      own += ownGrowth(treeOf(process.pid, readProcesses()), seen);
      return { machine, own };
    } catch {
      return undefined;
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    mark: sample,
    between: (from, to) => (from === undefined || to === undefined ? undefined : loadBetween(from, to, cores)),
    stop: () => clearInterval(timer),
  };
}
