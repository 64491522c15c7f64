// One arming model for every one-action way of trading: a ladder click or drag, a chart click
// (click-to-place), and the buy/sell-at-best hotkeys (Shift+B / Shift+S by default) send an order only while this
// window is armed for that market and book. Arming is explicit (the ladder's ARM button), shown
// (the ladder's ARMED banner and data-armed, the header's arming badge), and dropped:
// - when the book or market it was armed for leaves the ladder (Ladder.tsx),
// - when the network or the account changes (the environment key below),
// - after the kill switch, in every window of the app (a BroadcastChannel message),
// - when main says so (a daily loss limit's breach: the `guardDisarm` push to every window).
// The ticket is not governed by it: it sends only on its own explicit submit (with its confirmation).
// Cancels (cancel last, cancel all, the kill switch) are never gated: they only reduce risk.
import { createEffect, createRoot, createSignal, on, type Accessor } from 'solid-js';

export interface ArmingScope {
  readonly marketId: string;
  readonly turbo: boolean;
}

export interface ArmedState extends ArmingScope {
  /** Network and account the arming was made on. */
  readonly environment: string;
}

export interface Arming {
  /** What this window is armed for now, or null. */
  readonly current: Accessor<ArmedState | null>;
  /** Why it was last disarmed (shown until the next arming), or null. */
  readonly lastDisarm: Accessor<string | null>;
  armed(scope: ArmingScope): boolean;
  arm(scope: ArmingScope): void;
  /** Drop the arming, saying why. `everywhere`: every window of the app drops it too. */
  disarm(reason: string, everywhere?: boolean): void;
  dispose(): void;
}

const CHANNEL = 'ledger-terminal-arming';

interface DisarmMessage {
  readonly kind: 'disarm';
  readonly reason: string;
}

function isDisarmMessage(data: unknown): data is DisarmMessage {
  return typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === 'disarm' && typeof (data as { reason?: unknown }).reason === 'string';
}

/**
 * `environment`: the network and account the window trades on now (any change disarms).
 * `channel`: how windows tell each other to disarm (BroadcastChannel when there is one).
 */
export function createArming(environment: Accessor<string>, channel: BroadcastChannel | null = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL)): Arming {
  const [current, setCurrent] = createSignal<ArmedState | null>(null);
  const [lastDisarm, setLastDisarm] = createSignal<string | null>(null);
  const drop = (reason: string) => {
    if (current() === null) return;
    setCurrent(null);
    setLastDisarm(reason);
  };
  const listener = (event: MessageEvent) => {
    if (isDisarmMessage(event.data)) drop(event.data.reason.slice(0, 200));
  };
  channel?.addEventListener('message', listener);
  const disposeRoot = createRoot((dispose) => {
    createEffect(
      on(
        environment,
        (next, previous) => {
          if (previous !== undefined && next !== previous) drop('the network or the account changed');
        },
      ),
    );
    return dispose;
  });
  return {
    current,
    lastDisarm,
    armed(scope) {
      const armedFor = current();
      return armedFor !== null && armedFor.marketId === scope.marketId && armedFor.turbo === scope.turbo && armedFor.environment === environment();
    },
    arm(scope) {
      setCurrent({ marketId: scope.marketId, turbo: scope.turbo, environment: environment() });
      setLastDisarm(null);
    },
    disarm(reason, everywhere = false) {
      drop(reason);
      if (everywhere) channel?.postMessage({ kind: 'disarm', reason } satisfies DisarmMessage);
    },
    dispose() {
      channel?.removeEventListener('message', listener);
      channel?.close();
      disposeRoot();
    },
  };
}

/** The network and account a window trades on, as one key (the arming is dropped when it changes). */
export function armingEnvironment(state: { readonly connection: { readonly networkId: string } | null; readonly account: { readonly networkId: string; readonly activeOwner: { readonly address: string } | null; readonly tradeAccount: { readonly tradeAccountId: string } | null } | null }): string {
  return [state.connection?.networkId ?? '', state.account?.networkId ?? '', state.account?.activeOwner?.address ?? '', state.account?.tradeAccount?.tradeAccountId ?? ''].join('|');
}

/** Main's word to every window (`guardDisarm`, a daily loss limit's breach): this window drops its arming, saying why. */
export function followMainDisarm(onGuardDisarm: (listener: (event: { readonly reason: string }) => void) => () => void, arming: Pick<Arming, 'disarm'>): () => void {
  return onGuardDisarm((event) => arming.disarm(event.reason.slice(0, 200)));
}
