// A read that many callers ask for at once (balances and open orders after a request, positions,
// trigger legs). Callers share a read, but never one that began before they asked: a caller that
// asks while a read is running gets the next read, which starts when the running one ends. A read
// that began before a mint or a fill landed cannot answer "what is there now" (the faucet's funds
// never reached the ticket when the post-mint refresh joined a read started before the mint).
// At most one read runs and at most one waits, however many callers there are.

export class FreshRead<T> {
  private running: Promise<T> | null = null;
  private queued: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  /** A read that starts at or after this call; joins the waiting one when there is one. */
  run(): Promise<T> {
    if (this.queued !== null) return this.queued;
    if (this.running === null) return this.start();
    const after = this.running.then(
      () => undefined,
      () => undefined,
    );
    this.queued = after.then(() => {
      this.queued = null;
      return this.start();
    });
    return this.queued;
  }

  /** Whether a read is running or waiting. */
  busy(): boolean {
    return this.running !== null || this.queued !== null;
  }

  private start(): Promise<T> {
    const running: Promise<T> = this.read().finally(() => {
      if (this.running === running) this.running = null;
    });
    this.running = running;
    return running;
  }
}
