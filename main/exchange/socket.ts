// The one place that touches the `ws` package. The stream client sees a socket through this small
// interface, so tests drive it with an in-memory fake and no network.
import WebSocket from 'ws';

/** Refuse larger frames: a depth snapshot of 500 levels per side is far below this. */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

export interface SocketHandlers {
  onOpen(): void;
  /** A text frame; `null` for a binary frame (the protocol has none). */
  onMessage(text: string | null): void;
  onClose(code: number, reason: string): void;
  onError(message: string): void;
}

export interface SocketConnection {
  send(text: string): void;
  /** Orderly close (close frame). */
  close(code?: number, reason?: string): void;
  /** Drop the connection at once (a dead peer never answers a close frame). */
  terminate(): void;
}

export type SocketFactory = (url: string, handlers: SocketHandlers) => SocketConnection;

export function wsSocketFactory(maxFrameBytes = DEFAULT_MAX_FRAME_BYTES): SocketFactory {
  return (url, handlers) => {
    const socket = new WebSocket(url, { maxPayload: maxFrameBytes, perMessageDeflate: false });
    socket.on('open', () => handlers.onOpen());
    socket.on('message', (data, isBinary) => {
      if (isBinary) return handlers.onMessage(null);
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
      handlers.onMessage(text);
    });
    socket.on('close', (code, reason) => handlers.onClose(code, reason.toString('utf8')));
    socket.on('error', (error) => handlers.onError(error.message));
    return {
      send: (text) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(text);
      },
      close: (code, reason) => socket.close(code, reason),
      terminate: () => socket.terminate(),
    };
  };
}
