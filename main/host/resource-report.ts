// `--report-resources-ms N` (the soak's diagnostic, off by default): every N ms the host prints one
// line `resources {json}` on stdout with what a long run watches for growth: the heap after a full
// collection (when Node runs with --expose-gc; `collected` says whether it did), the process's
// memory, its active handles and requests by type (timers, sockets, file requests) and the
// listeners on `process`. Sizes and counts only: nothing of the keys, the account or the trades.

export interface ResourceSample {
  readonly at: number;
  /** Whether the heap was measured after a forced full collection. */
  readonly collected: boolean;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly arrayBuffers: number;
  readonly rss: number;
  /** Active handles and requests by type (`Timeout`, `TCPSocketWrap`, `FSReqCallback`, …). */
  readonly resources: Readonly<Record<string, number>>;
  /** Listeners on `process`, all events together. */
  readonly processListeners: number;
}

export interface ResourceProbe {
  readonly now: () => number;
  readonly gc: (() => void) | undefined;
  readonly memory: () => NodeJS.MemoryUsage;
  readonly activeResources: () => readonly string[];
  readonly processListeners: () => number;
}

export const nodeResourceProbe: ResourceProbe = {
  now: () => Date.now(),
  gc: (globalThis as { gc?: () => void }).gc,
  memory: () => process.memoryUsage(),
  activeResources: () => process.getActiveResourcesInfo(),
  processListeners: () => process.eventNames().reduce((sum, name) => sum + process.listenerCount(name), 0),
};

export function sampleResources(probe: ResourceProbe): ResourceSample {
  probe.gc?.();
  const memory = probe.memory();
  const resources: Record<string, number> = {};
  for (const type of probe.activeResources()) resources[type] = (resources[type] ?? 0) + 1;
  return {
    at: probe.now(),
    collected: probe.gc !== undefined,
    heapUsed: memory.heapUsed,
    heapTotal: memory.heapTotal,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
    rss: memory.rss,
    resources,
    processListeners: probe.processListeners(),
  };
}

/** Print a sample every `everyMs`; the timer does not keep the process alive. Returns the stop. */
export function startResourceReport(everyMs: number, write: (line: string) => void, probe: ResourceProbe = nodeResourceProbe): () => void {
  const timer = setInterval(() => write(`resources ${JSON.stringify(sampleResources(probe))}\n`), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
