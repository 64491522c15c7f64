// The risk watch: the guards' state for the header, and the daily loss limit's breach actions
// (every window disarmed, and, when the trader chose so, the open orders cancelled and the
// positions flattened), once per breach and UTC day.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../shared/clock';
import type { CancelReport, FlattenReport, GuardStateView, Settings } from '../../../../../shared/ipc/views';
import { ok, fail, type Result } from '../../../../../shared/result';
import { DailyLoss, type DayBaseline } from '../../../../../main/services/guards/daily-loss';
import { RiskWatch } from '../../../../../main/services/guards/risk-watch';
import { DEFAULT_SETTINGS } from '../../../../../main/services/storage/preferences';

const QUOTE = '0xquote';
const EMPTY_CANCELS: CancelReport = { requested: 0, cancelled: [], failed: [], triggersRequested: 0, triggersCancelled: [], triggersFailed: [], unread: [], batches: 0 };
const FLATTENED: FlattenReport = { requested: 1, placed: [{ marketId: 'm', turbo: false, account: 'trading', orderIds: ['o'], quantity: 1n, remainder: 0n }], failed: [], batches: 1 };

function setup(options: { settings?: Partial<Settings>; pnl?: () => Result<bigint>; pnlOf?: (account: string) => Result<bigint>; turboAccounts?: readonly string[] } = {}) {
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 10));
  let settings: Settings = { ...DEFAULT_SETTINGS, dailyLossLimit: { [QUOTE]: 500n }, ...options.settings };
  let pnl = options.pnl ?? (() => ok(-100n));
  const saved = new Map<string, DayBaseline>();
  const events: string[] = [];
  const published: GuardStateView[] = [];
  let orders = 0;
  const watch = new RiskWatch({
    clock,
    settings: () => settings,
    account: () => 'trading',
    dayPnl: (account) => Promise.resolve(options.pnlOf ? options.pnlOf(account) : pnl()),
    ...(options.turboAccounts ? { turboAccounts: () => Promise.resolve(options.turboAccounts!) } : {}),
    ordersLastMinute: () => orders,
    dailyLoss: new DailyLoss({ now: () => clock.now(), load: (account) => saved.get(account) ?? null, save: (baseline) => void saved.set(baseline.account, baseline) }),
    amount: (_asset, raw) => `${raw} Q`,
    publish: (view) => published.push(view),
    disarm: (reason) => events.push(`disarm: ${reason}`),
    notice: (level, text) => events.push(`${level}: ${text}`),
    cancelAll: () => {
      events.push('cancel all');
      return Promise.resolve(ok(EMPTY_CANCELS));
    },
    flatten: (accounts) => {
      events.push(`flatten ${accounts.join(',')}`);
      return Promise.resolve(ok(FLATTENED));
    },
    log: () => undefined,
  });
  return {
    clock,
    watch,
    events,
    published,
    setPnl: (next: () => Result<bigint>) => void (pnl = next),
    setSettings: (patch: Partial<Settings>) => void (settings = { ...settings, ...patch }),
    setOrders: (count: number) => void (orders = count),
  };
}

describe('the risk watch', () => {
  it('publishes the day’s P&L against each limit and the orders of the last minute, only when they change', async () => {
    const { watch, published, setOrders, setSettings } = setup({ settings: { maxOrdersPerMinute: 10 } });
    await watch.check();
    expect(published).toEqual([{ dayPnl: [{ quoteAsset: QUOTE, turboAccount: null, pnl: -100n, limit: 500n, breached: false, problem: null }], orderRate: { count: 0, limit: 10 } }]);
    await watch.check();
    expect(published).toHaveLength(1);
    setOrders(3);
    await watch.check();
    expect(published.at(-1)!.orderRate).toEqual({ count: 3, limit: 10 });
    setSettings({ dailyLossLimit: {}, maxOrdersPerMinute: 0 });
    await watch.check();
    expect(published.at(-1)).toEqual({ dayPnl: [], orderRate: null });
    expect(watch.state()).toEqual({ dayPnl: [], orderRate: null });
  });

  it('says why the P&L cannot be read, and takes no action then', async () => {
    const { watch, published, events } = setup({ pnl: () => fail('POSITION_UNKNOWN', 'the fills could not be read') });
    await watch.check();
    expect(published[0]!.dayPnl[0]).toEqual({ quoteAsset: QUOTE, turboAccount: null, pnl: null, limit: 500n, breached: false, problem: 'the fills could not be read' });
    expect(events).toEqual([]);
  });

  it('on a breach disarms every window and tells the trader the figure and the limit, leaving orders and positions when not asked to act', async () => {
    const { watch, events, published, setPnl } = setup();
    await watch.check();
    setPnl(() => ok(-512n));
    await watch.check();
    expect(published.at(-1)!.dayPnl[0]!.breached).toBe(true);
    expect(events[0]).toBe('disarm: the daily loss limit was reached (day P&L -512 Q, limit -500 Q)');
    expect(events[1]).toMatch(/^error: Day P&L -512 Q .*at or past your daily loss limit of -500 Q.*refuses every order that adds exposure.*disarmed every window.*left as they are/);
    expect(events).toHaveLength(2);
    // Once per breach: the next readings past the limit do nothing more.
    setPnl(() => ok(-600n));
    await watch.check();
    expect(events).toHaveLength(2);
  });

  it('cancels and flattens once per breach and day when the trader chose so; a limit raised since is a breach of its own', async () => {
    const { watch, events, setPnl, setSettings, clock } = setup({ settings: { flattenOnDailyLoss: true }, pnl: () => ok(-500n) });
    await watch.check();
    expect(events.filter((event) => event === 'cancel all' || event === 'flatten trading')).toEqual(['cancel all', 'flatten trading']);
    expect(events.some((event) => /^error: .*cancels your open orders and flattens your positions/.test(event))).toBe(true);
    expect(events.at(-1)).toMatch(/^info: .*1 position/);
    const after = events.length;
    await watch.check();
    expect(events).toHaveLength(after);
    setSettings({ dailyLossLimit: { [QUOTE]: 700n } });
    setPnl(() => ok(-701n));
    await watch.check();
    expect(events.filter((event) => event === 'flatten trading')).toHaveLength(2);
    // The next UTC day starts again.
    clock.advance(24 * 3_600_000);
    const before = events.length;
    await watch.check();
    expect(events.length).toBeGreaterThan(before);
  });

  it('checks again on its cadence once started, and stops', async () => {
    const { watch, published, clock, setOrders } = setup({ settings: { maxOrdersPerMinute: 5 } });
    watch.start();
    await watch.check();
    const count = published.length;
    setOrders(2);
    clock.advance(2_000);
    await watch.check();
    expect(published.length).toBeGreaterThan(count);
    watch.stop();
  });

  it("watches a Turbo Account's own day apart from the trading account's: its breach disarms, names it, and flattens only its positions", async () => {
    const turbo = `0x${'ab'.repeat(31)}cdef`;
    const { watch, events, published } = setup({
      settings: { flattenOnDailyLoss: true },
      turboAccounts: [turbo],
      pnlOf: (account) => ok(account === turbo ? -600n : -100n),
    });
    await watch.check();
    expect(published.at(-1)!.dayPnl).toEqual([
      { quoteAsset: QUOTE, turboAccount: null, pnl: -100n, limit: 500n, breached: false, problem: null },
      { quoteAsset: QUOTE, turboAccount: turbo, pnl: -600n, limit: 500n, breached: true, problem: null },
    ]);
    expect(events[0]).toBe('disarm: the daily loss limit was reached (Turbo Account 0xabab…cdef: day P&L -600 Q, limit -500 Q)');
    expect(events).toContain(`flatten ${turbo}`);
    // Once per breach and day.
    const before = events.length;
    await watch.check();
    expect(events).toHaveLength(before);
  });
});
