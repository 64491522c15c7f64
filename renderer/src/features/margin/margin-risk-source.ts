// The live risk frames of one Turbo Account, for the risk panel and for a form that checks amounts
// against them: a subscription of its own (main reference-counts them per account), released with
// its owner and taken again whenever the network is activated again. A network switch replaces
// main's margin service and with it every subscription, so a panel that stays mounted across a
// round trip (devnet and back) would otherwise keep its last frame, marked live, forever.
import { createEffect, createSignal, on, onCleanup, useContext, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { MarginRiskFrame } from '../../../../shared/ipc/views/margin';
import type { Failure } from '../../../../shared/result';
import { TerminalContext } from '../../stores/terminal-context';

/** Frames may arrive before the subscription's answer names its id: the latest few are kept. */
const MAX_EARLY_FRAMES = 8;

type RiskBridge = Pick<TerminalApi, 'subscribeMarginRisk' | 'unsubscribeMarginRisk' | 'onMarginRisk'>;

export interface MarginRiskSource {
  /** The newest frame of the current subscription; null while (re)subscribing. */
  readonly frame: Accessor<MarginRiskFrame | null>;
  /** Why the subscription was refused, until the next attempt. */
  readonly failure: Accessor<Failure | null>;
}

/**
 * Subscribes to `account()`'s risk and subscribes again when the account or the network's
 * generation (main's count of network activations, from the freshness view) changes. Frames of
 * an earlier subscription are never shown: the frame is cleared the moment the key changes.
 */
export function createMarginRiskSource(bridge: RiskBridge, account: Accessor<string>, onFrame?: (frame: MarginRiskFrame) => void): MarginRiskSource {
  const terminal = useContext(TerminalContext);
  const generation = () => terminal?.freshness.view()?.generation ?? 0;
  const [frame, setFrame] = createSignal<MarginRiskFrame | null>(null);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  let subscriptionId: string | null = null;
  // Each attempt has its own number: an answer to an earlier attempt is released, never adopted.
  let attempt = 0;
  const early = new Map<string, MarginRiskFrame>();
  const show = (payload: MarginRiskFrame) => {
    setFrame(payload);
    onFrame?.(payload);
  };
  const stop = bridge.onMarginRisk((payload) => {
    if (subscriptionId !== null && payload.subscriptionId === subscriptionId) show(payload);
    else if (subscriptionId === null) {
      early.set(payload.subscriptionId, payload);
      if (early.size > MAX_EARLY_FRAMES) early.delete(early.keys().next().value as string);
    }
  });
  const release = () => {
    if (subscriptionId !== null) void bridge.unsubscribeMarginRisk({ subscriptionId });
    subscriptionId = null;
  };
  createEffect(
    on([account, generation], ([marginAccountId]) => {
      release();
      early.clear();
      setFrame(null);
      setFailure(null);
      const mine = ++attempt;
      void bridge.subscribeMarginRisk({ marginAccountId }).then((result) => {
        if (mine !== attempt) {
          if (result.ok) void bridge.unsubscribeMarginRisk({ subscriptionId: result.value.subscriptionId });
          return;
        }
        if (!result.ok) {
          setFailure(result);
          return;
        }
        subscriptionId = result.value.subscriptionId;
        const waiting = early.get(subscriptionId);
        early.clear();
        if (waiting) show(waiting);
      });
    }),
  );
  onCleanup(() => {
    attempt += 1;
    stop();
    release();
  });
  return { frame, failure };
}

/** The frame alone, for a form bound to one account for its whole life. */
export function createMarginRisk(bridge: RiskBridge, marginAccountId: string): Accessor<MarginRiskFrame | null> {
  return createMarginRiskSource(bridge, () => marginAccountId).frame;
}
