// The margin risk frames a panel shows belong to the network that is active now: a network round
// trip (sandbox → devnet → sandbox) replaces main's margin service and every subscription with it,
// so a panel that stays mounted subscribes again instead of keeping its last frame, marked live.
import { createRoot, createSignal } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { FreshnessView } from '../../shared/ipc/views';
import type { MarginRiskFrame } from '../../shared/ipc/views/margin';
import { fail, ok, type Result } from '../../shared/result';
import { createMarginRiskSource } from '../../renderer/src/features/margin/margin-risk-source';
import { TerminalContext, type TerminalContextValue } from '../../renderer/src/stores/terminal-context';

function fakeBridge() {
  const listeners = new Set<(frame: MarginRiskFrame) => void>();
  const pending: { marginAccountId: string; resolve: (result: Result<{ subscriptionId: string }>) => void }[] = [];
  const unsubscribed: string[] = [];
  return {
    listeners,
    pending,
    unsubscribed,
    push: (frame: MarginRiskFrame) => listeners.forEach((listener) => listener(frame)),
    subscribeMarginRisk: ({ marginAccountId }: { marginAccountId: string }) => new Promise<Result<{ subscriptionId: string }>>((resolve) => pending.push({ marginAccountId, resolve })),
    unsubscribeMarginRisk: async ({ subscriptionId }: { subscriptionId: string }) => {
      unsubscribed.push(subscriptionId);
      return ok(null);
    },
    onMarginRisk: (listener: (frame: MarginRiskFrame) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const frame = (subscriptionId: string, sequence: bigint): MarginRiskFrame =>
  ({ subscriptionId, marginAccountId: '0xacc', status: 'live', staleReason: null, sequence, computedAt: 1 }) as unknown as MarginRiskFrame;
const view = (generation: number): FreshnessView => ({ networkId: 'sandbox', generation, staleAfterMs: 5_000, link: { state: 'live', ageMs: 0, detail: null }, orders: { state: 'live', ageMs: 0, detail: null }, balances: { state: 'live', ageMs: 0, detail: null }, markets: [] });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('margin risk source', () => {
  it('subscribes again on every network activation and never shows the earlier network frame', async () => {
    const bridge = fakeBridge();
    const [freshness, setFreshness] = createSignal<FreshnessView | null>(view(1));
    const context = { freshness: { view: freshness, receivedAt: () => 0, clock: { now: () => 0 } } } as unknown as TerminalContextValue;
    await createRoot(async (dispose) => {
      let made: ReturnType<typeof createMarginRiskSource> | undefined;
      TerminalContext.Provider({
        value: context,
        get children() {
          made = createMarginRiskSource(bridge as never, () => '0xacc');
          return null;
        },
      });
      const source = made!;
      await flush(); // effects run once the root's body has returned
      expect(bridge.pending.map((call) => call.marginAccountId)).toEqual(['0xacc']);
      bridge.pending[0]!.resolve(ok({ subscriptionId: 'margin-risk-1' }));
      await flush();
      bridge.push(frame('margin-risk-1', 19n));
      expect(source.frame()?.sequence).toBe(19n);

      // devnet: a new generation; the frame of the sandbox is gone at once, and the account is unknown there
      setFreshness(view(2));
      expect(source.frame()).toBeNull();
      expect(bridge.unsubscribed).toEqual(['margin-risk-1']);
      bridge.pending[1]!.resolve(fail('MARGIN_UNKNOWN_ACCOUNT', 'not an account of this network'));
      await flush();
      expect(source.failure()?.code).toBe('MARGIN_UNKNOWN_ACCOUNT');

      // back on the sandbox: the new service numbers its subscriptions from 1 again
      setFreshness(view(3));
      expect(source.failure()).toBeNull();
      bridge.pending[2]!.resolve(ok({ subscriptionId: 'margin-risk-1' }));
      await flush();
      bridge.push(frame('margin-risk-1', 30n));
      expect(source.frame()?.sequence).toBe(30n);
      dispose();
    });
  });

  it('releases an answer that arrives after the key moved on, and adopts a frame that came before its answer', async () => {
    const bridge = fakeBridge();
    const [account, setAccount] = createSignal('0xa');
    await createRoot(async (dispose) => {
      const source = createMarginRiskSource(bridge as never, account);
      await flush();
      setAccount('0xb');
      bridge.pending[0]!.resolve(ok({ subscriptionId: 'margin-risk-1' }));
      await flush();
      expect(bridge.unsubscribed).toEqual(['margin-risk-1']);
      bridge.push(frame('margin-risk-2', 7n)); // before the answer naming margin-risk-2
      bridge.pending[1]!.resolve(ok({ subscriptionId: 'margin-risk-2' }));
      await flush();
      expect(source.frame()?.sequence).toBe(7n);
      dispose();
      expect(bridge.unsubscribed).toEqual(['margin-risk-1', 'margin-risk-2']);
    });
  });
});
