// The live risk frame of one Turbo Account for a form that checks amounts against it: its own
// subscription (main reference-counts them per account), released with the form.
import { createSignal, onCleanup, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { MarginRiskFrame } from '../../../../shared/ipc/views/margin';

/** Frames may arrive before the subscription's answer names its id: the latest few are kept. */
const MAX_EARLY_FRAMES = 8;

export function createMarginRisk(bridge: Pick<TerminalApi, 'subscribeMarginRisk' | 'unsubscribeMarginRisk' | 'onMarginRisk'>, marginAccountId: string): Accessor<MarginRiskFrame | null> {
  const [frame, setFrame] = createSignal<MarginRiskFrame | null>(null);
  let subscriptionId: string | null = null;
  let released = false;
  const early = new Map<string, MarginRiskFrame>();
  const stop = bridge.onMarginRisk((payload) => {
    if (payload.subscriptionId === subscriptionId) setFrame(payload);
    else if (subscriptionId === null) {
      early.set(payload.subscriptionId, payload);
      if (early.size > MAX_EARLY_FRAMES) early.delete(early.keys().next().value as string);
    }
  });
  void bridge.subscribeMarginRisk({ marginAccountId }).then((result) => {
    if (!result.ok) return;
    if (released) {
      void bridge.unsubscribeMarginRisk({ subscriptionId: result.value.subscriptionId });
      return;
    }
    subscriptionId = result.value.subscriptionId;
    const waiting = early.get(subscriptionId);
    early.clear();
    if (waiting) setFrame(waiting);
  });
  onCleanup(() => {
    released = true;
    stop();
    if (subscriptionId !== null) void bridge.unsubscribeMarginRisk({ subscriptionId });
  });
  return frame;
}
