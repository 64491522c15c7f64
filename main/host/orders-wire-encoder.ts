// The sending end of shared/ipc/orders-wire.ts for the browser host: one for all its connections.
// A broadcast hands the same orders payload to every window; the first connection to send it
// numbers it and writes its frames (the change against the state before it, and the whole state,
// only when a connection needs it), and the others reuse the texts. Each connection keeps the
// number of the state it last received: the change when it had the state before, the whole state
// otherwise (a window that just connected, or was hidden while states went by, or asked to resync).
import type { OrdersSnapshot } from '../../shared/ipc/views/trading';
import { diffOrders, type OrdersWire } from '../../shared/ipc/orders-wire';
import { retainedCopy, sameData } from '../services/window-hub';

interface Numbered {
  /** The payload as broadcast (its identity tells a repeat of it). */
  payload: unknown;
  /** A copy later changes to the payload cannot reach (frozen views kept by reference). */
  readonly state: OrdersSnapshot;
  readonly version: number;
  allText: string | null;
  /** The change from the state numbered `base`, written as a frame. */
  readonly change: { readonly base: number; readonly text: string } | null;
}

export class OrdersWireEncoder {
  private latest: Numbered | null = null;
  private nextVersion = 1;

  /** `encode` writes a wire payload as the text of a push frame. */
  constructor(private readonly encode: (wire: OrdersWire) => string) {}

  /**
   * The frame to send a connection whose last state is numbered `had` (0: none) so it holds
   * `payload`, and that state's number; null when it holds that state already.
   */
  frameFor(payload: OrdersSnapshot, had: number): { readonly text: string; readonly version: number } | null {
    const latest = this.numbered(payload);
    if (had === latest.version) return null;
    if (latest.change !== null && latest.change.base === had) return { text: latest.change.text, version: latest.version };
    latest.allText ??= this.encode({ kind: 'all', version: latest.version, open: latest.state.open, fills: latest.state.fills });
    return { text: latest.allText, version: latest.version };
  }

  /** The whole latest state for a connection that asked to resync; null before any. */
  resync(): { readonly text: string; readonly version: number } | null {
    return this.latest === null ? null : this.frameFor(this.latest.state, 0);
  }

  private numbered(payload: OrdersSnapshot): Numbered {
    const latest = this.latest;
    if (latest !== null && latest.payload === payload) return latest;
    const state = retainedCopy(payload);
    // The same state again (a hidden window shown, a repeat the hub let through): same number.
    if (latest !== null && sameData(latest.state, state)) {
      latest.payload = payload;
      return latest;
    }
    const version = this.nextVersion++;
    const diff = latest === null ? null : diffOrders(latest.state, state);
    const change = latest === null || diff === null ? null : { base: latest.version, text: this.encode({ kind: 'change', version, base: latest.version, ...diff }) };
    this.latest = { payload, state, version, allText: null, change };
    return this.latest;
  }
}
