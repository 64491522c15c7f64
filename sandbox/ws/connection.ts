// One client connection: its subscriptions, its idle timer and its bounded outgoing queue.
// Slow-consumer policy (docs/sandbox.md): the spec's server write buffer is 4 KiB. Messages
// are never dropped from the delta streams (a lost depth delta corrupts the client's book);
// instead, once more than MAX_BUFFERED_BYTES wait in the socket, the connection is closed
// with 1008 "slow consumer" and the client resubscribes to fresh snapshots. The smoothed
// depth_view skips a tick while more than WRITE_BUFFER_BYTES wait (its next tick is whole).
import type { WebSocket } from 'ws';

export const WRITE_BUFFER_BYTES = 4 * 1024;
export const MAX_BUFFERED_BYTES = 256 * 1024;
/** Messages held for a stalled connection at most; past that it is closed as a slow consumer. */
export const MAX_HELD_MESSAGES = 20_000;

export class Connection {
  /** Topic keys this connection is subscribed to (for cleanup). */
  readonly topics = new Set<string>();
  /** Which nonce stream this connection chose; the two are exclusive. */
  nonceStream: 'nonce' | 'nonce_v2' | undefined;
  /** The periodic depth views (`subscribe_depth_view`) this connection receives, by view key. */
  private readonly depthViews = new Map<string, NodeJS.Timeout>();
  private idle: NodeJS.Timeout | undefined;
  closed = false;
  /** A stalled connection (control surface: a frozen network path) holds what it would send. */
  private stallTimer: NodeJS.Timeout | undefined;
  private held: string[] | null = null;

  constructor(
    readonly socket: WebSocket,
    private readonly idleMs: number,
    private readonly onIdle: (connection: Connection) => void,
  ) {
    this.touch();
  }

  /** A client message arrived: the inactivity clock starts again. */
  touch(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.onIdle(this), this.idleMs);
    this.idle.unref();
  }

  get congested(): boolean {
    return this.socket.bufferedAmount > WRITE_BUFFER_BYTES;
  }

  /**
   * Send nothing (not even a PONG) for `ms`, then everything held, in order: what a client sees
   * when the path to the exchange freezes without the socket closing.
   */
  stall(ms: number): void {
    if (this.closed) return;
    this.held ??= [];
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => this.resume(), ms);
    this.stallTimer.unref();
  }

  private resume(): void {
    const held = this.held ?? [];
    this.held = null;
    this.stallTimer = undefined;
    for (const text of held) this.send(text);
  }

  send(message: unknown): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.held !== null) {
      if (this.held.length >= MAX_HELD_MESSAGES) this.close(1008, 'slow consumer');
      else this.held.push(typeof message === 'string' ? message : JSON.stringify(message));
      return;
    }
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(1008, 'slow consumer');
      return;
    }
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.dispose();
    this.socket.close(code, reason);
  }

  /** Send `send()` now and every `periodMs` under `key`, in place of an earlier view under that key. */
  startDepthView(key: string, periodMs: number, send: () => void): void {
    this.stopDepthView(key);
    send();
    const timer = setInterval(send, periodMs);
    timer.unref();
    this.depthViews.set(key, timer);
  }

  stopDepthView(key: string): void {
    const timer = this.depthViews.get(key);
    if (timer) clearInterval(timer);
    this.depthViews.delete(key);
  }

  dispose(): void {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.held = null;
    for (const timer of this.depthViews.values()) clearInterval(timer);
    this.depthViews.clear();
  }
}
