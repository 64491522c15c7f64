// Cursor pagination of getOrderHistory / getFills: pages are appended as the trader asks for
// older ones; a new market starts over. While shown, the list follows the account: when its
// orders or fills change (`changed`), the newest page is read again and merged in front of the
// older pages already loaded, so a new, filled or cancelled order shows without a reload.
import { createEffect, createSignal, on } from 'solid-js';
import type { FillView, OrderView, Page } from '../../../../shared/ipc/views';
import type { Result } from '../../../../shared/result';

/**
 * What changes whenever the account's orders or fills on the exchange change as main reports
 * them: the open orders with their fills, and the newest fill (the recent-fills list is capped, so
 * its length alone stops moving once it is full).
 */
export function accountActivity(open: readonly OrderView[], fills: readonly FillView[], journalHead?: { readonly seq: number } | null): string {
  const newest = fills[0];
  const openPart = open.map((order) => `${order.orderId}:${order.filled}:${order.status}`).join(',');
  // The journal's newest entry moves with every request this terminal signs and every outcome it
  // learns: an order that closed at once (a bounded market order with nothing in its bounds, a
  // fill-or-kill that did not fill) is never open and never fills, yet belongs in History.
  return `${openPart}|${fills.length}|${newest ? `${newest.orderId}:${newest.time}:${newest.price}:${newest.quantity}` : ''}|${journalHead?.seq ?? ''}`;
}

/**
 * When History and Fills start over: another market, another network, another trading account, or
 * the same account gone and back (an exchange that restarted empty, where the account is set up
 * again with the same id). Without the account in the key, a list whose activity did not change
 * across the restart (nothing open, no fill) would keep showing the orders of the exchange before
 * it.
 */
export function listResetKey(marketId: string, network: string | null, tradeAccountId: string | null): string {
  return `${marketId}|${network ?? ''}|${tradeAccountId ?? 'no account'}`;
}

/** The newest page in front, then every older item already loaded that it does not contain. */
export function mergeNewest<T>(newest: readonly T[], loaded: readonly T[], identity: (item: T) => string): T[] {
  const seen = new Set(newest.map(identity));
  return [...newest, ...loaded.filter((item) => !seen.has(identity(item)))];
}

export interface PagedListOptions<T> {
  /** Changes when the list's content may have changed on the exchange. */
  readonly changed?: () => string;
  /** Identity of an item across reads (for merging the newest page into what is loaded). */
  readonly identity?: (item: T) => string;
}

export function createPagedList<T>(load: (cursor: string | null) => Promise<Result<Page<T>>>, resetKey: () => string, options: PagedListOptions<T> = {}) {
  const [items, setItems] = createSignal<readonly T[]>([]);
  const [next, setNext] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [done, setDone] = createSignal(false);
  let generation = 0;

  let pagesLoaded = 0;
  const fetchPage = async (cursor: string | null, mode: 'replace' | 'append' | 'newest') => {
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
    if (mode === 'newest' && pagesLoaded > 1 && options.identity) {
      // Older pages stay as loaded (and so does the cursor past them).
      setItems(mergeNewest(result.value.items, items(), options.identity));
      return;
    }
    pagesLoaded = mode === 'append' ? pagesLoaded + 1 : 1;
    setItems(mode === 'append' ? [...items(), ...result.value.items] : result.value.items);
    setNext(result.value.next);
    setDone(result.value.next === null);
  };

  createEffect(
    on(resetKey, () => {
      generation++;
      setItems([]);
      setNext(null);
      setDone(false);
      void fetchPage(null, 'replace');
    }),
  );
  if (options.changed) {
    createEffect(
      on(
        options.changed,
        () => {
          generation++;
          void fetchPage(null, 'newest');
        },
        { defer: true },
      ),
    );
  }

  return {
    items,
    loading,
    problem,
    done,
    more: () => {
      const cursor = next();
      if (cursor !== null && !loading()) void fetchPage(cursor, 'append');
    },
    refresh: () => {
      generation++;
      void fetchPage(null, 'replace');
    },
  };
}
