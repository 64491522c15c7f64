import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../shared/clock';
import type { Summary, Ticker } from '../../../../../shared/api/market-schemas';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { MarketOverviewView } from '../../../../../shared/ipc/views';
import { fail, ok, type Result } from '../../../../../shared/result';
import { MarketOverview, OVERVIEW_TRADE_PUSH_MS, type OverviewReader, type OverviewTrades } from '../../../../../main/services/market-data/market-overview';
import { changePercentText, withLastTrades } from '../../../../../main/services/market-data/overview-last-trade';
import { checkProperty } from '../../../../support/property';
import fc from 'fast-check';
import { overviewRows, percentFigure, rawFigure } from '../../../../../main/services/market-data/overview-rows';
import { WindowHub } from '../../../../../main/services/window-hub';

const ETH = `0x${'a1'.repeat(32)}` as B256;
const BTC = `0x${'b2'.repeat(32)}` as B256;

const ticker = (marketId: B256, fields: Partial<Ticker> = {}): Ticker => ({ market_id: marketId, last: '3000000000', open: '2900000000', high: '3100000000', low: '2800000000', bid: '2999000000', ask: '3001000000', base_volume: '12000000000', percentage: '3.44', ...fields });
const summary = (marketId: B256, fields: Partial<Summary> = {}): Summary => ({ market_id: marketId, last_price: '1', high_price: '2', low_price: '1', volume_24h: '5', change_24h: '-1.50', ...fields });

describe('overview rows from the ticker and the summary', () => {
  it('takes whole numbers as raw units and leaves out anything else', () => {
    expect(rawFigure('3000000000')).toBe(3_000_000_000n);
    expect(rawFigure('18446744073709551615')).toBe(0xffff_ffff_ffff_ffffn);
    expect(rawFigure('18446744073709551616')).toBeNull();
    for (const text of ['3000.5', '-1', '', '1e9', ' 1', undefined]) expect(rawFigure(text)).toBeNull();
    expect(percentFigure('+3.44')).toBe('3.44');
    expect(percentFigure('-0.5')).toBe('-0.5');
    expect(percentFigure('NaN')).toBeNull();
  });

  it('the ticker wins where both carry a figure; the summary fills what the ticker lacks', () => {
    const [row] = overviewRows([ticker(ETH, { high: undefined, percentage: undefined })], [summary(ETH)]);
    expect(row).toEqual({ marketId: ETH, last: 3_000_000_000n, open: 2_900_000_000n, high: 2n, low: 2_800_000_000n, bid: 2_999_000_000n, ask: 3_001_000_000n, volume: 12_000_000_000n, changePercent: '-1.50' });
  });

  it('a price of zero is no price (no trade in 24 hours); a volume of zero is a volume', () => {
    const [row] = overviewRows([ticker(ETH, { last: '0', open: '0', high: '0', low: '0', bid: '0', ask: '3001000000', base_volume: '0', percentage: '0' })], [summary(ETH, { last_price: '0', high_price: '0', low_price: '0' })]);
    expect(row).toMatchObject({ last: null, open: null, high: null, low: null, bid: null, ask: 3_001_000_000n, volume: 0n });
  });

  it('lists markets in the markets-list order, then any other either read names', () => {
    const rows = overviewRows([ticker(ETH)], [summary(BTC)], [BTC, ETH]);
    expect(rows.map((row) => row.marketId)).toEqual([BTC, ETH]);
    expect(rows[0]!.bid).toBeNull();
    expect(rows[0]!.last).toBe(1n);
  });
});

function setup(trades: OverviewTrades | null = null) {
  const clock = new ManualClock(1_000_000);
  const windows = new WindowHub();
  const received = new Map<string, MarketOverviewView[]>();
  const attach = (id: string) => {
    received.set(id, []);
    windows.attach(id, { send: (stream, payload) => stream === 'marketOverview' && received.get(id)!.push(payload as MarketOverviewView) });
  };
  let reads = 0;
  let answer: () => { ticker: Result<Ticker[]> | Promise<Result<Ticker[]>>; summary: Result<Summary[]> } = () => ({ ticker: ok([ticker(ETH)]), summary: ok([summary(ETH)]) });
  let turboAnswer: () => { ticker: Result<Ticker[]>; summary: Result<Summary[]> } = () => ({ ticker: ok([]), summary: ok([]) });
  let connected = true;
  const reader: OverviewReader = {
    networkId: 'sandbox',
    ticker: () => {
      reads++;
      return Promise.resolve(answer().ticker);
    },
    summary: () => Promise.resolve(answer().summary),
    turboTicker: () => Promise.resolve(turboAnswer().ticker),
    turboSummary: () => Promise.resolve(turboAnswer().summary),
    marketOrder: () => [ETH],
  };
  const overview = new MarketOverview(windows, clock, () => (connected ? reader : null), 5_000, trades);
  const flush = async (ms: number) => {
    clock.advance(ms);
    // The read and the scheduling of the next one chain several promises: let them all settle.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    clock,
    windows,
    overview,
    received,
    attach,
    flush,
    reads: () => reads,
    setAnswer: (next: typeof answer) => (answer = next),
    setTurboAnswer: (next: typeof turboAnswer) => (turboAnswer = next),
    setConnected: (next: boolean) => (connected = next),
  };
}

describe('MarketOverview', () => {
  it('reads at once when a window follows it, then every interval, and stops when the last window leaves', async () => {
    const test = setup();
    test.attach('w1');
    expect(test.overview.watch('w1').state).toBe('resyncing');
    await test.flush(0);
    expect(test.reads()).toBe(1);
    const first = test.received.get('w1')!.at(-1)!;
    expect(first.state).toBe('live');
    expect(first.readAt).toBe(1_000_000);
    expect(first.rows[0]!.last).toBe(3_000_000_000n);
    await test.flush(5_000);
    await test.flush(5_000);
    expect(test.reads()).toBe(3);
    test.overview.unwatch('w1');
    await test.flush(60_000);
    expect(test.reads()).toBe(3);
  });

  it('two windows share one read; a closed window stops being sent to', async () => {
    const test = setup();
    test.attach('w1');
    test.attach('w2');
    test.overview.watch('w1');
    test.overview.watch('w2');
    await test.flush(0);
    expect(test.reads()).toBe(1);
    expect(test.received.get('w2')!.length).toBe(1);
    test.windows.detach('w2');
    await test.flush(5_000);
    expect(test.reads()).toBe(2);
    expect(test.received.get('w2')!.length).toBe(1);
    expect(test.received.get('w1')!.length).toBe(2);
  });

  it('a failed read keeps the rows, marked stale with the reason; a network change empties them', async () => {
    const test = setup();
    test.attach('w1');
    test.overview.watch('w1');
    await test.flush(0);
    test.setAnswer(() => ({ ticker: fail('HTTP_500', 'server error'), summary: fail('HTTP_500', 'server error') }));
    await test.flush(5_000);
    const stale = test.received.get('w1')!.at(-1)!;
    expect(stale.state).toBe('stale');
    expect(stale.problem).toMatch(/HTTP_500/);
    expect(stale.rows.length).toBe(1);
    test.overview.networkChanged();
    const cleared = test.received.get('w1')!.at(-1)!;
    expect(cleared).toMatchObject({ state: 'resyncing', rows: [], readAt: null });
  });

  it('a read of the previous network that answers after the switch is dropped', async () => {
    const test = setup();
    test.attach('w1');
    let release: (value: Result<Ticker[]>) => void = () => undefined;
    const late = new Promise<Result<Ticker[]>>((resolve) => (release = resolve));
    test.setAnswer(() => ({ ticker: late, summary: ok([summary(ETH)]) }));
    test.overview.watch('w1');
    await test.flush(0);
    test.overview.networkChanged();
    release(ok([ticker(ETH)]));
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    expect(test.received.get('w1')!.at(-1)).toMatchObject({ state: 'resyncing', rows: [] });
  });

  it('without a network the view says so and no read is made', async () => {
    const test = setup();
    test.attach('w1');
    test.setConnected(false);
    test.overview.watch('w1');
    await test.flush(0);
    expect(test.reads()).toBe(0);
    expect(test.received.get('w1')!.at(-1)).toMatchObject({ state: 'resyncing', problem: 'the network is not connected' });
  });
});

/** A trade stream main follows, as the market data hub reports it. */
function followedTrades() {
  const last = new Map<string, bigint>();
  const listeners = new Set<(marketId: string, turbo: boolean) => void>();
  const trades: OverviewTrades = {
    lastTrade: (marketId, turbo) => last.get(`${marketId}:${turbo}`) ?? null,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const trade = (marketId: string, price: bigint | null, turbo = false) => {
    if (price === null) last.delete(`${marketId}:${turbo}`);
    else last.set(`${marketId}:${turbo}`, price);
    for (const listener of listeners) listener(marketId, turbo);
  };
  return { trades, trade };
}

describe('the overview last price of a market whose trade stream main follows', () => {
  it('is the stream\'s last trade, pushed soon after each trade; the change is measured from the open again', async () => {
    const stream = followedTrades();
    const test = setup(stream.trades);
    test.attach('w1');
    stream.trade(ETH, 2_998_500_000n);
    expect(test.overview.watch('w1').rows).toEqual([]);
    await test.flush(0);
    // The ticker says 3,000.00 (read up to one interval ago); the stream's newest trade wins.
    expect(test.received.get('w1')!.at(-1)!.rows[0]).toMatchObject({ last: 2_998_500_000n, changePercent: '3.39' });
    const pushed = test.received.get('w1')!.length;
    stream.trade(ETH, 3_001_550_000n);
    stream.trade(ETH, 3_101_000_000n);
    await test.flush(OVERVIEW_TRADE_PUSH_MS - 1);
    expect(test.received.get('w1')!.length).toBe(pushed);
    await test.flush(1);
    // Two trades, one push, before the next read (5 s away): the high follows a trade above it.
    expect(test.received.get('w1')!.length).toBe(pushed + 1);
    expect(test.received.get('w1')!.at(-1)!.rows[0]).toMatchObject({ last: 3_101_000_000n, high: 3_101_000_000n, low: 2_800_000_000n, changePercent: '6.93' });
    expect(test.reads()).toBe(1);
    // The stream closed (no window shows the market): the ticker's figure again.
    stream.trade(ETH, null);
    await test.flush(OVERVIEW_TRADE_PUSH_MS);
    expect(test.received.get('w1')!.at(-1)!.rows[0]).toMatchObject({ last: 3_000_000_000n, high: 3_100_000_000n, changePercent: '3.44' });
  });

  it('pushes nothing for a trade while no window follows the overview, and answers the fresh figure when asked', async () => {
    const stream = followedTrades();
    const test = setup(stream.trades);
    test.attach('w1');
    test.overview.watch('w1');
    await test.flush(0);
    test.overview.unwatch('w1');
    const pushed = test.received.get('w1')!.length;
    stream.trade(ETH, 2_950_000_000n);
    await test.flush(OVERVIEW_TRADE_PUSH_MS);
    expect(test.received.get('w1')!.length).toBe(pushed);
    expect(test.overview.current().rows[0]!.last).toBe(2_950_000_000n);
  });

  it('reads the Turbo books\' own 24-hour figures beside the canonical ones, each with its own book\'s last trade', async () => {
    const stream = followedTrades();
    const test = setup(stream.trades);
    test.setTurboAnswer(() => ({ ticker: ok([ticker(ETH, { last: '3010000000', open: '3000000000', percentage: '0.33' })]), summary: ok([]) }));
    test.attach('w1');
    test.overview.watch('w1');
    await test.flush(0);
    expect(test.received.get('w1')!.at(-1)!.turboRows).toEqual([expect.objectContaining({ marketId: ETH, last: 3_010_000_000n, changePercent: '0.33' })]);
    // A Turbo trade moves the Turbo row only; the canonical row keeps the canonical book's figure.
    stream.trade(ETH, 3_030_000_000n, true);
    await test.flush(OVERVIEW_TRADE_PUSH_MS);
    const view = test.received.get('w1')!.at(-1)!;
    expect(view.turboRows![0]).toMatchObject({ last: 3_030_000_000n, changePercent: '1.00' });
    expect(view.rows[0]!.last).toBe(3_000_000_000n);
    // The Turbo reads failing leave their rows as read and the view live.
    test.setTurboAnswer(() => ({ ticker: fail('HTTP_400', 'turbo'), summary: fail('HTTP_400', 'turbo') }));
    await test.flush(5_000);
    expect(test.received.get('w1')!.at(-1)).toMatchObject({ state: 'live', turboRows: [expect.objectContaining({ marketId: ETH })] });
  });

  it('a market without a ticker open keeps the exchange\'s percentage; a row without a high is not given one', () => {
    const [row] = withLastTrades(overviewRows([ticker(ETH, { open: undefined, high: undefined })], []), () => 3_200_000_000n);
    expect(row).toMatchObject({ last: 3_200_000_000n, high: null, changePercent: '3.44' });
  });

  it('the change text reads back to the basis points the market bar computes from the same last and open', () => {
    checkProperty(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 15n }), (last, open) => {
        const text = changePercentText(last, open);
        const match = /^(-?)(\d+)\.(\d{2})$/.exec(text);
        expect(match).not.toBeNull();
        const bps = BigInt(match![2]!) * 100n + BigInt(match![3]!);
        expect(match![1] === '-' ? -bps : bps).toBe(((last - open) * 10_000n) / open);
      }),
    );
  });
});
