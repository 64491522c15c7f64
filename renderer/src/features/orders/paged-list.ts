// Cursor pagination of getOrderHistory / getFills: pages are appended as the trader asks for
// older ones; a new market starts over.
import { createEffect, createSignal, on } from 'solid-js';
import type { Page } from '../../../../shared/ipc/views';
import type { Result } from '../../../../shared/result';

export function createPagedList<T>(load: (cursor: string | null) => Promise<Result<Page<T>>>, resetKey: () => string) {
  const [items, setItems] = createSignal<readonly T[]>([]);
  const [next, setNext] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [done, setDone] = createSignal(false);
  let generation = 0;

  const fetchPage = async (cursor: string | null, replace: boolean) => {
    const mine = generation;
    setLoading(true);
    const result = await load(cursor);
    if (mine !== generation) return;
    setLoading(false);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    setProblem(null);
    setItems(replace ? result.value.items : [...items(), ...result.value.items]);
    setNext(result.value.next);
    setDone(result.value.next === null);
  };

  createEffect(
    on(resetKey, () => {
      generation++;
      setItems([]);
      setNext(null);
      setDone(false);
      void fetchPage(null, true);
    }),
  );

  return {
    items,
    loading,
    problem,
    done,
    more: () => {
      const cursor = next();
      if (cursor !== null && !loading()) void fetchPage(cursor, false);
    },
    refresh: () => {
      generation++;
      void fetchPage(null, true);
    },
  };
}
