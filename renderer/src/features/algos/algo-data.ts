// The algorithms main runs, as a window holds them: getAlgos once, then every snapshot of the
// `algos` stream (a pushed snapshot always wins over the answer to a request sent before it).
// `received` says whether the window has main's word at all, and `problem` why the first read
// failed: the panel is resyncing until one of them is known, never showing an empty list as if
// nothing were running.
// Reactive (with cleanup): call inside a component or a root.
import { createSignal, onCleanup, type Accessor } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { AlgoView } from '../../../../shared/ipc/views/algos';
import { createFreshness, type FreshnessInput, type FreshnessMark } from '../../lib/freshness';

export interface AlgoSource {
  readonly algos: Accessor<readonly AlgoView[]>;
  readonly received: Accessor<boolean>;
  readonly problem: Accessor<string | null>;
}

export function createAlgoSource(api: Pick<TerminalApi, 'getAlgos' | 'onAlgos'>): AlgoSource {
  const [algos, setAlgos] = createSignal<readonly AlgoView[]>([]);
  const [received, setReceived] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  let pushed = false;
  onCleanup(
    api.onAlgos((next) => {
      pushed = true;
      setAlgos(next);
      setReceived(true);
      setProblem(null);
    }),
  );
  void api.getAlgos({}).then((first) => {
    if (pushed) return;
    if (first.ok) {
      setAlgos(first.value);
      setReceived(true);
    } else setProblem(`${first.code}: ${first.message}`);
  });
  return { algos, received, problem };
}

/**
 * How current the Working algorithms panel is: the account's order streams (the children's states
 * follow them) aged as every panel ages them, and resyncing until main's list has arrived (with why
 * the first read failed). Resume and a new limit wait for `live()`; pause and cancel never do.
 */
export function createAlgoFreshness(input: FreshnessInput, source: Pick<AlgoSource, 'received' | 'problem'>): FreshnessMark {
  return createFreshness(
    input,
    (view) => [view.orders],
    () => (source.received() ? null : { state: 'resyncing', detail: source.problem() ?? "waiting for main's list of algorithms" }),
  );
}
