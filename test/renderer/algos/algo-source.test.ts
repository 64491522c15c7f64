// The window's list of algorithms: main's first answer, then every pushed snapshot (a push wins
// over an answer to a request sent before it); until either arrives the panel is not live, and a
// failed read says why. The ticket keeps the algorithm chosen apart from the order kind.
import { createRoot, createSignal } from 'solid-js';
import { ManualClock } from '../../../shared/clock';
import type { FreshnessView, SourceFreshness } from '../../../shared/ipc/views';
import { describe, expect, it } from 'vitest';
import type { AlgoView } from '../../../shared/ipc/views/algos';
import { fail, ok, type Result } from '../../../shared/result';
import { createAlgoFreshness, createAlgoSource } from '../../../renderer/src/features/algos/algo-data';
import { createTicketStore } from '../../../renderer/src/stores/ticket-store';

function fakeApi() {
  const pending: ((result: Result<readonly AlgoView[]>) => void)[] = [];
  const listeners = new Set<(algos: readonly AlgoView[]) => void>();
  return {
    pending,
    push: (algos: readonly AlgoView[]) => listeners.forEach((listener) => listener(algos)),
    getAlgos: () => new Promise<Result<readonly AlgoView[]>>((resolve) => pending.push(resolve)),
    onAlgos: (listener: (algos: readonly AlgoView[]) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const view = (id: string) => ({ id }) as AlgoView;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the algorithms a window holds', () => {
  it('takes the first answer, then every push; an answer after a push is dropped', async () => {
    const api = fakeApi();
    await createRoot(async (dispose) => {
      const source = createAlgoSource(api);
      expect(source.received()).toBe(false);
      api.pending[0]!(ok([view('a')]));
      await flush();
      expect(source.received()).toBe(true);
      expect(source.algos().map((algo) => algo.id)).toEqual(['a']);
      api.push([view('a'), view('b')]);
      expect(source.algos().map((algo) => algo.id)).toEqual(['a', 'b']);
      dispose();
    });
    const late = fakeApi();
    await createRoot(async (dispose) => {
      const source = createAlgoSource(late);
      late.push([view('pushed')]);
      late.pending[0]!(ok([]));
      await flush();
      expect(source.algos().map((algo) => algo.id)).toEqual(['pushed']);
      dispose();
    });
  });

  it('says why the first read failed and stays not received until main answers', async () => {
    const api = fakeApi();
    await createRoot(async (dispose) => {
      const source = createAlgoSource(api);
      api.pending[0]!(fail('NOT_AVAILABLE', 'algorithms are not running'));
      await flush();
      expect(source.received()).toBe(false);
      expect(source.problem()).toBe('NOT_AVAILABLE: algorithms are not running');
      api.push([]);
      expect(source.received()).toBe(true);
      expect(source.problem()).toBeNull();
      dispose();
    });
  });

  it('the panel is resyncing until main’s list arrives, then as current as the order streams, stale when they go quiet', () => {
    const clock = new ManualClock(100_000);
    const orders = (state: SourceFreshness['state']): FreshnessView => {
      const source: SourceFreshness = { state, ageMs: 0, detail: state === 'live' ? null : 'the order stream is reconnecting' };
      return { networkId: 'sandbox', generation: 1, staleAfterMs: 8_000, link: source, orders: source, balances: source, markets: [] };
    };
    const [view, setView] = createSignal<FreshnessView | null>(orders('live'));
    const [receivedAt, setReceivedAt] = createSignal(clock.now());
    const [received, setReceived] = createSignal(false);
    const [problem, setProblem] = createSignal<string | null>(null);
    createRoot((dispose) => {
      const mark = createAlgoFreshness({ view, receivedAt, clock }, { received, problem });
      expect(mark.state()).toBe('resyncing');
      expect(mark.detail()).toBe("waiting for main's list of algorithms");
      setProblem('NOT_AVAILABLE: algorithms are not kept on this terminal');
      expect(mark.detail()).toBe('NOT_AVAILABLE: algorithms are not kept on this terminal');
      setReceived(true);
      expect(mark.live()).toBe(true);
      clock.advance(9_000);
      expect(mark.state()).toBe('stale');
      setView(orders('resyncing'));
      setReceivedAt(clock.now());
      expect(mark.state()).toBe('resyncing');
      expect(mark.detail()).toBe('the order stream is reconnecting');
      setView(orders('live'));
      expect(mark.live()).toBe(true);
      dispose();
    });
    expect(clock.pendingTimers()).toBe(0);
  });

  it('the ticket keeps the algorithm chosen and its texts apart from the order kind', () => {
    createRoot((dispose) => {
      const tickets = createTicketStore();
      tickets.update('m', { kind: 'PostOnly' });
      tickets.chooseAlgo('m', 'twap');
      tickets.setAlgoText('m', 'twap', 'duration', '5');
      tickets.setAlgoText('m', 'scale', 'count', '8');
      expect(tickets.draft('m').kind).toBe('PostOnly');
      expect(tickets.algo('m')).toEqual({ kind: 'twap', texts: { twap: { duration: '5' }, scale: { count: '8' } } });
      tickets.chooseAlgo('m', null);
      expect(tickets.algo('m').kind).toBeNull();
      expect(tickets.algo('m').texts.twap).toEqual({ duration: '5' });
      expect(tickets.algo('other').kind).toBeNull();
      dispose();
    });
  });
});
