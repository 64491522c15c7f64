// The windows main pushes to. Each window (an Electron BrowserWindow or a browser-host tab) is a
// sink; a hidden or minimised window receives no frames it cannot draw.
import type { StreamName, StreamPayload } from '../../shared/ipc/contract';

export interface WindowSink {
  send(stream: StreamName, payload: unknown): void;
}

interface WindowEntry {
  readonly sink: WindowSink;
  visible: boolean;
}

export class WindowHub {
  private readonly windows = new Map<string, WindowEntry>();
  private readonly closeListeners = new Set<(windowId: string) => void>();
  private readonly observers = new Map<StreamName, Set<(payload: unknown) => void>>();

  attach(windowId: string, sink: WindowSink, visible = true): void {
    this.windows.set(windowId, { sink, visible });
  }

  detach(windowId: string): void {
    if (!this.windows.delete(windowId)) return;
    for (const listener of this.closeListeners) listener(windowId);
  }

  /** Services release what a window held (subscriptions) when it closes. */
  onWindowClosed(listener: (windowId: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  setVisible(windowId: string, visible: boolean): void {
    const entry = this.windows.get(windowId);
    if (entry) entry.visible = visible;
  }

  isVisible(windowId: string): boolean {
    return this.windows.get(windowId)?.visible ?? false;
  }

  ids(): string[] {
    return [...this.windows.keys()];
  }

  /** Push to one window, if it is open and visible. Returns whether it was sent. */
  sendTo<K extends StreamName>(windowId: string, stream: K, payload: StreamPayload<K>): boolean {
    const entry = this.windows.get(windowId);
    if (!entry?.visible) return false;
    entry.sink.send(stream, payload);
    return true;
  }

  /** Push state every window shows (connection, account). Hidden windows get it when shown again. */
  broadcast<K extends StreamName>(stream: K, payload: StreamPayload<K>): void {
    for (const entry of this.windows.values()) if (entry.visible) entry.sink.send(stream, payload);
    for (const observer of this.observers.get(stream) ?? []) observer(payload);
  }

  /** Main-side consumers of a broadcast stream (the desktop notification of a fill). */
  observe<K extends StreamName>(stream: K, listener: (payload: StreamPayload<K>) => void): () => void {
    let set = this.observers.get(stream);
    if (!set) this.observers.set(stream, (set = new Set()));
    const observer = listener as (payload: unknown) => void;
    set.add(observer);
    return () => set.delete(observer);
  }
}
