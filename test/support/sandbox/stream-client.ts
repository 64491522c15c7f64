// A WebSocket test client that collects every message and waits for the one a test expects.
import { WebSocket } from 'ws';

export class StreamClient {
  readonly messages: unknown[] = [];
  private waiters: { predicate: (message: unknown) => boolean; resolve: (message: unknown) => void }[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      const text = data.toString();
      const message = !isBinary && text === 'PONG' ? text : (JSON.parse(text) as unknown);
      this.messages.push(message);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.predicate(message)) return true;
        waiter.resolve(message);
        return false;
      });
    });
    socket.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  static async open(httpUrl: string): Promise<StreamClient> {
    const socket = new WebSocket(`${httpUrl.replace('http', 'ws')}/v1/ws`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new StreamClient(socket);
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message (already received or to come) that satisfies `predicate`. */
  waitFor<T = Record<string, unknown>>(predicate: (message: Record<string, unknown>) => boolean, timeoutMs = 5000): Promise<T> {
    const test = (message: unknown) => typeof message === 'object' && message !== null && predicate(message as Record<string, unknown>);
    const seen = this.messages.find(test);
    if (seen !== undefined) {
      this.messages.splice(this.messages.indexOf(seen), 1);
      return Promise.resolve(seen as T);
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 500)}`)), timeoutMs);
      this.waiters.push({
        predicate: test,
        resolve: (message) => {
          clearTimeout(timer);
          this.messages.splice(this.messages.indexOf(message), 1);
          resolve(message as T);
        },
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}
