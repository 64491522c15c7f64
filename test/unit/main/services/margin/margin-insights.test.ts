// The margin insights main reads while a window shows them: parsed answers (a wrong member is an
// error naming it), rows as the windows show them, the events followed page by page from the
// newest, each part stale on its own when its read fails, and no read while nobody watches.
import { describe, expect, it } from 'vitest';
import { marginActivitySchema, marginStatisticsSchema, tiersResponseSchema, turboEventsPageSchema, type MarginActivityEntry, type MarginStatistics, type Tier, type TurboEventsPage } from '../../../../../shared/api/margin-schemas';
import { ManualClock } from '../../../../../shared/clock';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { MarginInsightsView } from '../../../../../shared/ipc/views';
import { fail, ok, type Result } from '../../../../../shared/result';
import { parseWith } from '../../../../../shared/schema';
import { activityRows, statisticsView, tierHistory } from '../../../../../main/services/margin/insight-rows';
import { MarginInsights, type InsightsReader } from '../../../../../main/services/margin/margin-insights';
import { TurboEventTail } from '../../../../../main/services/margin/turbo-event-tail';
import { WindowHub } from '../../../../../main/services/window-hub';

const USDC = `0x${'c0'.repeat(32)}`;
const ETH = `0x${'e7'.repeat(32)}`;
const MARKET = `0x${'a1'.repeat(32)}`;
const ORDER = `0x${'0c'.repeat(32)}`;
const ACCOUNT = `0x${'77'.repeat(32)}` as B256;

const tierBody = { tier_id: '3', version: 2, name: 'Weekly', published_at: '1700000000', on_sale: true, collateral_asset_id: USDC, line: '1000000000', max_credit_line_bps: '5000', threshold: '100', open_buffer: '20', maintenance: '5', profit_share_bps: '0', duration: '18446744073709551615', turbo: { forfeit_collateral: true, max_loss_bps: ['1000'], rollover_profit_bps: '0', max_rollovers: 0, term_seconds: '604800' } };

const execution = (sequence: number) => ({ sequence: String(sequence), type: 'SharedExecution', market_id: MARKET, house_order_id: ORDER, source_order_id: ORDER, turbo_order_id: ORDER, house_trader: {}, turbo_trader: {}, turbo_side: 'Buy', house_execution_role: 'Maker', quantity: '50000000', price: '3000000000', house_fee_amount: '0', turbo_fee_amount: '150', timestamp: '1700000100', tx_id: '0xabc' });

function parse<T>(schema: Parameters<typeof parseWith>[0], body: unknown): T {
  const parsed = parseWith(schema, body, 'GET test');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value as T;
}

describe('margin insight answers', () => {
  it('statistics: counts and amounts typed, a wrong member named', () => {
    const body = parse<MarginStatistics>(marginStatisticsSchema, { active_sessions: 2, active_turbo: '1', lent: { [USDC]: '5000' }, bad_debt: '0', pool_paused: false, extra: 'kept' });
    expect(statisticsView(body)).toMatchObject({ activeSessions: 2, activeTurbo: 1, activeLegacy: null, lent: [{ assetId: USDC, amount: 5000n }], badDebt: 0n, poolPaused: false });
    const bad = parseWith(marginStatisticsSchema, { bad_debt: '-3' }, 'GET /v1/margin/statistics');
    expect(bad).toMatchObject({ ok: false });
    expect(!bad.ok && bad.message).toMatch(/^GET \/v1\/margin\/statistics\.bad_debt:/);
    expect(!parseWith(marginStatisticsSchema, { active_sessions: 1.5 }).ok).toBe(true);
  });

  it('activity: amounts as bigint in the collateral asset unless the entry names one, newest first, a wrong amount named', () => {
    const entries = parse<MarginActivityEntry[]>(marginActivitySchema, {
      account: ACCOUNT,
      activity: [
        { sequence: '4', kind: 'Draw', timestamp: '1700000000', tx_id: '0x1', details: { amount: '2500', drawn_total: '7500', tx_id: '0x1' } },
        { sequence: '5', kind: 'Borrow', timestamp: '1700000001', tx_id: null, details: { asset_id: ETH, amount: '9', debt_total: '9' } },
        { sequence: '3', kind: 'SessionStarted', timestamp: '1699999999', details: { tier_id: '3', period: 'Week', amount: '100' } },
      ],
    });
    const rows = activityRows(entries, USDC, 2);
    expect(rows.ok && rows.value.map((row) => row.kind)).toEqual(['Borrow', 'Draw']);
    expect(rows.ok && rows.value[0]!.amounts).toEqual([
      { key: 'amount', assetId: ETH, amount: 9n },
      { key: 'debt_total', assetId: ETH, amount: 9n },
    ]);
    expect(rows.ok && rows.value[1]!.amounts).toEqual([
      { key: 'amount', assetId: USDC, amount: 2500n },
      { key: 'drawn_total', assetId: USDC, amount: 7500n },
    ]);
    const started = activityRows(entries, USDC, 5);
    expect(started.ok && started.value[2]!.notes).toEqual([
      { key: 'tier_id', text: '3' },
      { key: 'period', text: 'Week' },
    ]);
    const wrong = activityRows([{ sequence: 1n, kind: 'Draw', timestamp: 1n, details: { amount: '1.5' } }], USDC, 5);
    expect(wrong).toMatchObject({ ok: false, code: 'BAD_RESPONSE', details: { field: 'GET /v1/margin/activity[0].details.amount' } });
    expect(!parseWith(marginActivitySchema, { activity: [{ sequence: '1', kind: '', timestamp: '1' }] }).ok).toBe(true);
  });

  it('tier history: cohort from the turbo key, no-expiry duration as none, the collateral asset learnt', () => {
    const tiers = parse<Tier[]>(tiersResponseSchema, { tiers: [tierBody, { ...tierBody, version: 1, turbo: undefined, duration: '86400' }] });
    const history = tierHistory(tiers);
    expect(history.ok && history.value.collateralAssetId).toBe(USDC);
    expect(history.ok && history.value.rows.map((row) => [row.version, row.cohort, row.durationSeconds, row.publishedAt, row.name])).toEqual([
      [2n, 'Turbo', null, 1_700_000_000_000, 'Weekly'],
      [1n, 'Legacy', 86_400n, 1_700_000_000_000, 'Weekly'],
    ]);
    const wrong = tierHistory(parse<Tier[]>(tiersResponseSchema, [{ ...tierBody, published_at: 'yesterday' }]));
    expect(wrong).toMatchObject({ ok: false, code: 'BAD_RESPONSE' });
    expect(!wrong.ok && wrong.message).toMatch(/published_at/);
  });
});

describe('Turbo event tail', () => {
  /** An exchange holding events 1..latest, answering like the sandbox's envelope. */
  function exchange(latest: () => number) {
    const asked: Record<string, string>[] = [];
    const fetch = (selectors: Readonly<Record<string, string>>): Promise<Result<TurboEventsPage>> => {
      asked.push({ ...selectors });
      const after = Number(selectors.after ?? '0');
      const count = Number(selectors.count ?? '100');
      const events = [];
      for (let sequence = after + 1; sequence <= latest() && events.length < count; sequence++) events.push(execution(sequence));
      const last = events[events.length - 1];
      return Promise.resolve(ok(parse<TurboEventsPage>(turboEventsPageSchema, { events, next_after: last?.sequence ?? String(after), latest: String(latest()) })));
    };
    return { fetch, asked };
  }

  it('starts at the newest events, then reads only what is new, newest first', async () => {
    let latest = 6_000;
    const { fetch, asked } = exchange(() => latest);
    const tail = new TurboEventTail(5);
    const first = await tail.read(fetch);
    expect(first.ok && first.value.map((row) => row.sequence)).toEqual([6000n, 5999n, 5998n, 5997n, 5996n]);
    expect(asked.slice(0, 2)).toEqual([{ count: '1' }, { after: '4000', type: 'SharedExecution,SharedTradePerformed,SidecarChanged', count: '500' }]);
    latest = 6_002;
    const second = await tail.read(fetch);
    expect(second.ok && second.value.map((row) => row.sequence)).toEqual([6002n, 6001n, 6000n, 5999n, 5998n]);
    expect(asked[asked.length - 1]).toEqual({ after: '6000', type: 'SharedExecution,SharedTradePerformed,SidecarChanged', count: '500' });
    expect(second.ok && second.value[0]).toMatchObject({ type: 'SharedExecution', marketId: MARKET, side: 'Buy', price: 3_000_000_000n, quantity: 50_000_000n, turboFee: 150n, role: 'Maker', txId: '0xabc', time: 1_700_000_100_000 });
  });

  it('a burst beyond the pages it reads jumps to the newest', async () => {
    let latest = 10;
    const { fetch } = exchange(() => latest);
    const tail = new TurboEventTail(3);
    await tail.read(fetch);
    latest = 10 + 500 * 20;
    await tail.read(fetch);
    const third = await tail.read(fetch);
    expect(third.ok && third.value.map((row) => row.sequence)).toEqual([10010n, 10009n, 10008n]);
  });

  it('a bare array (no envelope) is the whole tail each time', async () => {
    const tail = new TurboEventTail(2);
    const page = parse<TurboEventsPage>(turboEventsPageSchema, [execution(1), execution(2), execution(3)]);
    const rows = await tail.read(() => Promise.resolve(ok(page)));
    expect(rows.ok && rows.value.map((row) => row.sequence)).toEqual([3n, 2n]);
  });
});

describe('MarginInsights', () => {
  function setup() {
    const clock = new ManualClock(1_000_000);
    const windows = new WindowHub();
    const received: MarginInsightsView[] = [];
    windows.attach('w1', { send: (stream, payload) => stream === 'marginInsights' && received.push(payload as MarginInsightsView) });
    let reads = 0;
    let statisticsFails = false;
    const reader: InsightsReader = {
      networkId: 'sandbox',
      statistics: () => {
        reads++;
        return Promise.resolve(statisticsFails ? fail('TIMEOUT', 'no answer') : ok(parse<MarginStatistics>(marginStatisticsSchema, { active_sessions: 1 })));
      },
      tierHistory: () => Promise.resolve(ok(parse<Tier[]>(tiersResponseSchema, [tierBody]))),
      activity: () => Promise.resolve(ok(parse<MarginActivityEntry[]>(marginActivitySchema, [{ sequence: '1', kind: 'Draw', timestamp: '5', details: { amount: '10' } }]))),
      events: () => Promise.resolve(ok({ events: [], nextAfter: null, latest: null })),
    };
    const insights = new MarginInsights(windows, clock, () => reader, 5_000);
    const flush = async (ms: number) => {
      clock.advance(ms);
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    return { insights, received, flush, reads: () => reads, failStatistics: (value: boolean) => (statisticsFails = value) };
  }

  it('reads only while watched; each part live, and a failed read marks only its part stale', async () => {
    const { insights, received, flush, reads, failStatistics } = setup();
    await flush(10_000);
    expect(reads()).toBe(0);
    const first = insights.watch('w1', ACCOUNT);
    expect(first.statistics.state).toBe('resyncing');
    await flush(0);
    const live = received[received.length - 1]!;
    expect([live.statistics.state, live.tierHistory.state, live.activity.state, live.events.state]).toEqual(['live', 'live', 'live', 'live']);
    expect(live.activity.value[0]!.amounts).toEqual([{ key: 'amount', assetId: USDC, amount: 10n }]);
    failStatistics(true);
    await flush(5_000);
    const stale = received[received.length - 1]!;
    expect(stale.statistics).toMatchObject({ state: 'stale', problem: 'TIMEOUT: no answer', value: { activeSessions: 1 } });
    expect(stale.tierHistory.state).toBe('live');
    insights.unwatch('w1');
    const before = reads();
    await flush(20_000);
    expect(reads()).toBe(before);
    insights.close();
  });
});
