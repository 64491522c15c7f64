// The waiting order the order path's queues share (the sequential nonce, the rate limiter): first
// come, first served, except that a waiter `ahead` (the trader's own request) goes before every
// waiter without it, and after the ones ahead already waiting.

/** Put `waiter` into `queue` (served from the front) at its place. */
export function enqueueAhead<T extends { readonly ahead: boolean }>(queue: T[], waiter: T): void {
  const at = waiter.ahead ? queue.findIndex((waiting) => !waiting.ahead) : -1;
  queue.splice(at < 0 ? queue.length : at, 0, waiter);
}
