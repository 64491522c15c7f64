// The window's copy of main's pushed state. Each slice is loaded once by request and then kept
// current by its push stream; lists are applied with `reconcile` keyed by a stable id (order id,
// asset id, network id) so unchanged rows keep their identity and their DOM; the open orders and
// fills, pushed whole on every change, through `applyKeyed`, which leaves what reconcile leaves
// without walking every row again.
import { batch } from 'solid-js';
import { createStore, produce, reconcile, unwrap, type SetStoreFunction } from 'solid-js/store';
import { sameFlatRecord } from '../../../shared/frozen-record';
import type { TerminalApi } from '../../../shared/ipc/contract';
import type {
  AccountState,
  BalanceView,
  ConnectionStatus,
  FillView,
  FreshnessView,
  MarketsView,
  NetworkView,
  Notice,
  OrderView,
  RateLimitView,
  Settings,
} from '../../../shared/ipc/views';
import type { JournalEntryView } from '../../../shared/ipc/views/journal';
import type { Result } from '../../../shared/result';
import { retryWhileNotReady, type RetryHandle } from '../lib/retry';

/** A notice as the window keeps it: read once the trader saw it in the centre or dismissed it; shown as a toast until closed. */
export interface NoticeEntry extends Notice {
  readonly read: boolean;
  /** The toast is closed (an info notice after a few seconds, any notice once read); the centre keeps it. */
  readonly closed: boolean;
}

export interface FillRow extends FillView {
  /** Fills have no id of their own: order id, time and amounts identify one. */
  readonly key: string;
}

export type SliceName = 'markets' | 'networks' | 'account' | 'orders' | 'balances' | 'settings' | 'rateLimits' | 'journal' | 'connection';

export interface TerminalState {
  connection: ConnectionStatus | null;
  /** Main's latest word on how current each source is, and when (window clock) it arrived. */
  freshness: FreshnessView | null;
  freshnessAt: number;
  networks: NetworkView[];
  markets: MarketsView | null;
  account: AccountState | null;
  openOrders: OrderView[];
  fills: FillRow[];
  balances: BalanceView[];
  settings: Settings | null;
  rateLimits: RateLimitView[];
  journal: JournalEntryView[];
  /** The notification centre's list, oldest first, bounded. */
  notices: NoticeEntry[];
  /** Why a slice could not be loaded (NOT_READY included), by slice. */
  problems: Partial<Record<SliceName, string>>;
}

/** The centre keeps this many notices; unread errors and warnings are dropped last. */
export const MAX_NOTICES = 100;

/** Append or replace (same id) a notice, keeping at most MAX_NOTICES: read ones and infos go first. */
export function withNotice(notices: readonly NoticeEntry[], notice: Notice): NoticeEntry[] {
  const entry: NoticeEntry = { ...notice, read: false, closed: false };
  const next = [...notices.filter((old) => old.id !== notice.id), entry];
  while (next.length > MAX_NOTICES) {
    const drop = next.findIndex((old) => old.read || old.level === 'info');
    next.splice(drop < 0 ? 0 : drop, 1);
  }
  return next;
}
export const MAX_JOURNAL = 500;

export function fillKey(fill: FillView, index: number): string {
  return `${fill.orderId}:${fill.time}:${fill.price}:${fill.quantity}:${index}`;
}

/**
 * Two lists of flat records (every field a string, number, boolean, bigint or null) with the same
 * records in the same order. A field holding an object counts as changed (unless the record is the
 * very same object).
 */
export function sameRecords<T extends object>(left: readonly T[], right: readonly T[]): boolean {
  if (left === right) return true;
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) {
    if (!sameFlatRecord(left[index]!, right[index]!)) return false;
  }
  return true;
}

/**
 * The rows of a keyed list whose members changed, when `next` holds the same keys in the same order
 * as `held` (the store's list, unwrapped); null when a row came, went or moved (keyedPlan).
 */
export function changedInPlace<T extends object>(held: readonly T[], next: readonly T[], key: keyof T): number[] | null {
  if (held.length !== next.length) return null;
  const changed: number[] = [];
  for (let index = 0; index < next.length; index++) {
    const kept = held[index] as T;
    const incoming = next[index] as T;
    if (kept[key] !== incoming[key]) return null;
    if (!sameRecords([kept], [incoming])) changed.push(index);
  }
  return changed;
}

/**
 * Where each row of `next` comes from when rows came, went or moved: the row object `held` keeps
 * under its key (listed in `changed` when its members differ), or `next`'s own record for a new key.
 * Null when a key repeats in `next`.
 */
export function keyedPlan<T extends object>(held: readonly T[], next: readonly T[], key: keyof T): { list: T[]; kept: boolean[]; changed: number[] } | null {
  const byKey = new Map<unknown, T>();
  for (const item of held) byKey.set(item[key], item);
  const seen = new Set<unknown>();
  const list: T[] = [];
  const kept: boolean[] = [];
  const changed: number[] = [];
  for (let index = 0; index < next.length; index++) {
    const incoming = next[index] as T;
    if (seen.has(incoming[key])) return null;
    seen.add(incoming[key]);
    const row = byKey.get(incoming[key]);
    list.push(row ?? incoming);
    kept.push(row !== undefined);
    if (row !== undefined && !sameRecords([row], [incoming])) changed.push(index);
  }
  return { list, kept, changed };
}

/**
 * Apply `next` to the keyed list at `field` as reconcile(next, { key }) does: the same row object
 * per key, its members updated in place, the list itself changed in place. Rows that only changed
 * go through changedInPlace; rows that came, went or moved are placed index by index (Solid's
 * `produce`), each kept row as the store's own proxy of it, so no row is walked again: a placement
 * with 505 orders resting cost each window about 2.8 ms in reconcile, most of it Solid's `unwrap`
 * walking every row of the new list.
 */
export function applyKeyed<S, T extends object>(setState: SetStoreFunction<S>, rows: readonly T[], field: keyof S, next: readonly T[], key: keyof T & string): void {
  const set = setState as unknown as (...path: unknown[]) => void;
  const held = unwrap(rows) as readonly T[];
  const inPlace = changedInPlace(held, next, key);
  if (inPlace !== null) {
    for (const index of inPlace) set(field, index, reconcile(next[index] as T, { key }));
    return;
  }
  const plan = keyedPlan(held, next, key);
  if (plan === null) {
    set(field, reconcile([...next], { key }));
    return;
  }
  const proxies = new Map<unknown, T>();
  for (let index = 0; index < held.length; index++) proxies.set((held[index] as T)[key], rows[index] as T);
  set(
    field,
    produce((draft: T[]) => {
      for (let index = 0; index < plan.list.length; index++) {
        const row = plan.list[index] as T;
        // `held` is the list being changed, but only at indexes already passed: this one is as it was.
        if (held[index] === row) continue;
        draft[index] = plan.kept[index] ? (proxies.get(row[key]) as T) : row;
      }
      if (draft.length !== plan.list.length) draft.length = plan.list.length;
    }),
  );
  for (const index of plan.changed) set(field, index, reconcile(next[index] as T, { key }));
}

/**
 * A journal entry pushed: newest first, an entry already listed under the same seq taken out (the
 * new one goes on top), at most MAX_JOURNAL kept. Applied to the store's list in place (through `produce`), so the entries kept
 * are not walked again: setting a new list of 500 entries had Solid's `unwrap` walk every one on each
 * push, about 1.8 ms of the window's thread per journal entry (0.4 ms now) while orders were placed.
 */
export function addJournalEntry(journal: JournalEntryView[], entry: JournalEntryView): void {
  const listed = journal.findIndex((old) => old.seq === entry.seq);
  if (listed >= 0) journal.splice(listed, 1);
  journal.unshift(entry);
  if (journal.length > MAX_JOURNAL) journal.length = MAX_JOURNAL;
}

export function withFillKeys(fills: readonly FillView[]): FillRow[] {
  return fills.map((fill, index) => ({ ...fill, key: fillKey(fill, fills.length - index) }));
}

export interface TerminalStore {
  readonly state: TerminalState;
  /** Add a notice of the renderer's own (order results, refusals) beside main's. */
  notify(level: Notice['level'], text: string, more?: { readonly title?: string; readonly details?: string; readonly code?: string }): void;
  /** Show a notice under a key of the window's own, replacing the one shown under it (a growing fill). */
  showNotice(key: string, level: Notice['level'], text: string): void;
  /** Close a notice's toast and count it as read (the centre keeps it). */
  dismissNotice(id: string): void;
  /** Close a toast without reading it (an info notice's timer). */
  closeToast(id: string): void;
  /** The trader saw these in the centre. */
  markRead(ids?: readonly string[]): void;
  /** Empty the centre. */
  clearNotices(): void;
  /** Reload a slice by request (after an action whose push may lag). */
  reload(slice: 'orders' | 'balances' | 'account' | 'networks' | 'markets' | 'settings'): void;
  setSettings(settings: Settings): void;
  setAccount(account: AccountState): void;
  dispose(): void;
}

export function createTerminalStore(api: TerminalApi, now: () => number = () => Date.now()): TerminalStore {
  const [state, setState] = createStore<TerminalState>({
    connection: null,
    freshness: null,
    freshnessAt: 0,
    networks: [],
    markets: null,
    account: null,
    openOrders: [],
    fills: [],
    balances: [],
    settings: null,
    rateLimits: [],
    journal: [],
    notices: [],
    problems: {},
  });
  let localNotice = 0;
  const retries: RetryHandle[] = [];
  const stops: (() => void)[] = [];

  const noteProblem = (slice: SliceName, result: Result<unknown>) => {
    setState('problems', slice, result.ok ? undefined : result.message);
  };

  // The last lists applied, as main sent them: a push that repeats one (the fills on each order
  // placed or acknowledged) is not reconciled again, which walked every row of it.
  let appliedOpen: readonly OrderView[] = [];
  let appliedFills: readonly FillView[] = [];
  const applyOrders = (open: readonly OrderView[], fills: readonly FillView[]) =>
    batch(() => {
      if (!sameRecords(appliedOpen, open)) applyKeyed(setState, state.openOrders, 'openOrders', open, 'orderId');
      if (!sameRecords(appliedFills, fills)) applyKeyed(setState, state.fills, 'fills', withFillKeys(fills), 'key');
      appliedOpen = open;
      appliedFills = fills;
    });
  const applyBalances = (balances: readonly BalanceView[]) => setState('balances', reconcile([...balances], { key: 'assetId' }));
  const applyNetworks = (networks: readonly NetworkView[]) => setState('networks', reconcile([...networks], { key: 'id' }));
  const applyMarkets = (markets: MarketsView) => setState('markets', reconcile(markets, { key: 'market_id' }));
  const applyRateLimits = (limits: readonly RateLimitView[]) => setState('rateLimits', reconcile([...limits], { key: 'limiter' }));
  const applyAccount = (account: AccountState) => setState('account', reconcile(account, { key: 'id' }));
  const applySettings = (settings: Settings) => setState('settings', reconcile(settings));
  const applyFreshness = (view: FreshnessView) =>
    batch(() => {
      setState('freshness', view);
      setState('freshnessAt', now());
    });

  const loaders = {
    networks: () =>
      retryWhileNotReady(() => api.listNetworks({}), (result) => {
        noteProblem('networks', result);
        if (result.ok) applyNetworks(result.value);
      }),
    markets: () =>
      retryWhileNotReady(() => api.listMarkets({}), (result) => {
        noteProblem('markets', result);
        if (result.ok) applyMarkets(result.value);
      }),
    account: () =>
      retryWhileNotReady(() => api.getAccountState({}), (result) => {
        noteProblem('account', result);
        if (result.ok) applyAccount(result.value);
      }),
    orders: () =>
      retryWhileNotReady(() => api.getOrders({}), (result) => {
        noteProblem('orders', result);
        if (result.ok) applyOrders(result.value.open, result.value.fills);
      }),
    balances: () =>
      retryWhileNotReady(() => api.getBalances({}), (result) => {
        noteProblem('balances', result);
        if (result.ok) applyBalances(result.value);
      }),
    settings: () =>
      retryWhileNotReady(() => api.getSettings({}), (result) => {
        noteProblem('settings', result);
        if (result.ok) applySettings(result.value);
      }),
  };

  stops.push(
    api.onConnection((status) => {
      const wasUp = state.connection?.rest === 'up';
      setState('connection', reconcile(status));
      // Markets come from REST: reload them whenever it comes (back) up.
      if (status.rest === 'up' && (!wasUp || state.markets === null)) retries.push(loaders.markets());
    }),
    api.onFreshness(applyFreshness),
    api.onAccount(applyAccount),
    api.onOrders((snapshot) => applyOrders(snapshot.open, snapshot.fills)),
    api.onBalances(applyBalances),
    api.onSettings(applySettings),
    api.onRateLimits(applyRateLimits),
    api.onJournal((entry) => setState('journal', produce((journal: JournalEntryView[]) => addJournalEntry(journal, entry)))),
    api.onNotice((notice) => setState('notices', (notices) => withNotice(notices, notice))),
  );

  void api.getFreshness({}).then((result) => {
    // A push that came first is newer than this answer.
    if (result.ok && state.freshness === null) applyFreshness(result.value);
  });
  void api.getConnection({}).then((result) => {
    noteProblem('connection', result);
    if (result.ok) setState('connection', reconcile(result.value));
  });
  for (const load of Object.values(loaders)) retries.push(load());
  retries.push(
    retryWhileNotReady(() => api.getRateLimits({}), (result) => {
      noteProblem('rateLimits', result);
      if (result.ok) applyRateLimits(result.value);
    }),
    retryWhileNotReady(() => api.getJournal({ limit: 200 }), (result) => {
      noteProblem('journal', result);
      if (result.ok) setState('journal', reconcile([...result.value].sort((a, b) => b.seq - a.seq), { key: 'seq' }));
    }),
  );

  return {
    state,
    notify(level, text, more = {}) {
      const notice: Notice = { id: `local-${++localNotice}`, level, text, time: now(), ...more };
      setState('notices', (notices) => withNotice(notices, notice));
    },
    showNotice(key, level, text) {
      const notice: Notice = { id: `local-${key}`, level, text, time: now() };
      setState('notices', (notices) => withNotice(notices, notice));
    },
    dismissNotice(id) {
      setState('notices', (notice) => notice.id === id, { read: true, closed: true });
    },
    closeToast(id) {
      setState('notices', (notice) => notice.id === id, { closed: true });
    },
    markRead(ids) {
      const wanted = ids === undefined ? null : new Set(ids);
      setState('notices', (notice) => !notice.read && (wanted === null || wanted.has(notice.id)), { read: true, closed: true });
    },
    clearNotices() {
      setState('notices', []);
    },
    reload(slice) {
      retries.push(loaders[slice]());
    },
    setSettings: applySettings,
    setAccount: applyAccount,
    dispose() {
      for (const stop of stops) stop();
      for (const retry of retries) retry.stop();
    },
  };
}
