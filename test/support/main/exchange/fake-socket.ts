// An in-memory WebSocket peer: each connection the client opens is recorded; the test plays the
// server (open, send frames, close, fail) and reads what the client sent.
import type { SocketConnection, SocketFactory, SocketHandlers } from '../../../../main/exchange/socket';

export class FakeConnection implements SocketConnection {
  readonly sent: string[] = [];
  closedByClient: { code?: number; reason?: string } | null = null;
  terminated = false;

  constructor(
    readonly url: string,
    private readonly handlers: SocketHandlers,
  ) {}

  send(text: string): void {
    this.sent.push(text);
  }

  close(code?: number, reason?: string): void {
    this.closedByClient = { ...(code === undefined ? {} : { code }), ...(reason === undefined ? {} : { reason }) };
  }

  terminate(): void {
    this.terminated = true;
  }

  /** The JSON requests sent, PINGs left out. */
  requests(): Record<string, unknown>[] {
    return this.sent.filter((text) => text !== 'PING' && text !== 'PONG').map((text) => JSON.parse(text) as Record<string, unknown>);
  }

  pings(): number {
    return this.sent.filter((text) => text === 'PING').length;
  }

  open(): void {
    this.handlers.onOpen();
  }

  push(frame: unknown): void {
    this.handlers.onMessage(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  pushBinary(): void {
    this.handlers.onMessage(null);
  }

  serverClose(code = 1006, reason = ''): void {
    this.handlers.onClose(code, reason);
  }

  /** A connection attempt that fails: an error, then the close. */
  refuse(message = 'connect ECONNREFUSED 127.0.0.1:1'): void {
    this.handlers.onError(message);
    this.handlers.onClose(1006, '');
  }
}

export class FakeServer {
  readonly connections: FakeConnection[] = [];

  readonly factory: SocketFactory = (url, handlers) => {
    const connection = new FakeConnection(url, handlers);
    this.connections.push(connection);
    return connection;
  };

  get last(): FakeConnection {
    const connection = this.connections.at(-1);
    if (connection === undefined) throw new Error('no connection was opened');
    return connection;
  }
}
