// The daily loss guard: the day's P&L per quote asset (realized plus unrealized now, less what it
// was at the day's first reading after UTC midnight), and the check that, past the limit, refuses
// every order that adds exposure while a reducing order still passes.
import { describe, expect, it } from 'vitest';
import { ok, fail } from '../../../../../shared/result';
import type { GuardFacts } from '../../../../../main/services/guards/guard-facts';
import type { OrderIntent } from '../../../../../main/services/guards/order-intent';
import { checkDailyLoss } from '../../../../../main/services/guards/daily-loss-check';
import { DailyLoss, utcDay, type DayBaseline } from '../../../../../main/services/guards/daily-loss';
import { ORDER_CHECKS } from '../../../../../main/services/guards/order-guard';
import { ethUsdc } from '../../../../support/shared/market/fixtures';

const USDC = 1_000_000_000n;
const ETH = 1_000_000_000n;
const quote = ethUsdc.quote.asset;

function facts(options: { limit?: bigint; dayPnl?: bigint | null; size?: bigint }): GuardFacts {
  return {
    market: () => ok(ethUsdc),
    maxQuantity: () => undefined,
    maxNotional: () => undefined,
    maxPosition: () => undefined,
    dailyLossLimit: () => options.limit,
    dayPnl: () => Promise.resolve(options.dayPnl === null ? fail('POSITION_UNKNOWN', 'the fills could not be read') : ok(options.dayPnl ?? 0n)),
    bandBps: () => 0,
    bookPrices: () => Promise.resolve(ok({ bestBid: null, bestAsk: null, source: 'the live book' })),
    position: () => Promise.resolve(ok({ size: options.size ?? 0n, restingClosing: 0n, legsClosing: 0n, legsUnknown: null })),
    restingOrders: () => ({ buy: 0n, sell: 0n }),
  };
}

function intent(change: Partial<OrderIntent> = {}): OrderIntent {
  return { marketId: ethUsdc.market_id, turbo: false, account: '0xa', side: 'Buy', kind: 'Limit', price: 3_000n * USDC, quantity: ETH, reduceOnly: false, ...change };
}

describe('the daily loss check', () => {
  it('passes while the day’s P&L is above the limit and refuses an order that adds exposure once it is at or past it', async () => {
    expect((await checkDailyLoss(intent(), ethUsdc, facts({ limit: 500n * USDC, dayPnl: -499n * USDC }))).ok).toBe(true);
    const refused = await checkDailyLoss(intent(), ethUsdc, facts({ limit: 500n * USDC, dayPnl: -512n * USDC }));
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.code).toBe('GUARD_DAILY_LOSS');
    expect(refused.message).toContain('Day P&L -512.00 USDC');
    expect(refused.message).toContain('daily loss limit of -500.00 USDC');
    expect(refused.message).toContain('Nothing was signed');
    expect(refused.details).toMatchObject({ value: (-512n * USDC).toString(), maximum: (-500n * USDC).toString() });
  });

  it('lets an order through that only reduces the position past the limit, and refuses one that flips it', async () => {
    const long = facts({ limit: 500n * USDC, dayPnl: -600n * USDC, size: 2n * ETH });
    expect((await checkDailyLoss(intent({ side: 'Sell', quantity: 2n * ETH }), ethUsdc, long)).ok).toBe(true);
    expect((await checkDailyLoss(intent({ side: 'Sell', quantity: 3n * ETH }), ethUsdc, long)).ok).toBe(false);
  });

  it('refuses an adding order when the day’s P&L cannot be read, and passes everything with no limit', async () => {
    const refused = await checkDailyLoss(intent(), ethUsdc, facts({ limit: 500n * USDC, dayPnl: null }));
    expect(refused.ok ? 'passed' : refused.code).toBe('GUARD_DAILY_LOSS_UNKNOWN');
    expect((await checkDailyLoss(intent(), ethUsdc, facts({ dayPnl: -1_000_000n * USDC }))).ok).toBe(true);
  });

  it('is one of the checks every signing path runs', () => {
    expect(ORDER_CHECKS).toContain(checkDailyLoss);
  });
});

describe('the day’s P&L', () => {
  const day = Date.UTC(2026, 10, 27, 10);
  it('names the UTC day', () => {
    expect(utcDay(Date.UTC(2026, 10, 27, 23, 59))).toBe('2026-11-27');
    expect(utcDay(Date.UTC(2026, 10, 28, 0, 0))).toBe('2026-11-28');
  });

  it('measures from the day’s first reading, keeps that baseline through the day, and starts again after UTC midnight', () => {
    let saved: DayBaseline | null = null;
    let now = day;
    const loss = new DailyLoss({ now: () => now, load: () => saved, save: (baseline) => void (saved = baseline) });
    expect(loss.dayPnl('acct', quote, 100n)).toBe(0n);
    expect(saved).toEqual({ day: '2026-11-27', account: 'acct', totals: { [quote]: '100' } });
    expect(loss.dayPnl('acct', quote, -312n)).toBe(-412n);
    // A restart reads the same baseline back.
    const again = new DailyLoss({ now: () => now, load: () => saved, save: (baseline) => void (saved = baseline) });
    expect(again.dayPnl('acct', quote, -312n)).toBe(-412n);
    now = Date.UTC(2026, 10, 28, 0, 1);
    expect(again.dayPnl('acct', quote, -312n)).toBe(0n);
    // Another account starts its own day.
    expect(again.dayPnl('other', quote, 50n)).toBe(0n);
  });
});

describe('the day’s baselines of several accounts', () => {
  const day = Date.UTC(2026, 10, 27, 10);
  const store = () => {
    const saved = new Map<string, DayBaseline>();
    return { saved, deps: { now: () => day, load: (account: string) => saved.get(account) ?? null, save: (baseline: DayBaseline) => void saved.set(baseline.account, baseline) } };
  };

  it('keeps each account’s baseline: a Turbo Account’s reading does not start the trading account’s day again', () => {
    const { deps } = store();
    const loss = new DailyLoss(deps);
    expect(loss.dayPnl('trading', quote, 100n)).toBe(0n);
    expect(loss.dayPnl('turbo', quote, 7n)).toBe(0n);
    expect(loss.dayPnl('trading', quote, -312n)).toBe(-412n);
  });

  it('remembers the limit whose breach main acted on, per account, quote asset and day', () => {
    let now = day;
    const { deps } = store();
    const loss = new DailyLoss({ ...deps, now: () => now });
    expect(loss.breachActedOn('trading', quote, 500n)).toBe(false);
    loss.recordBreach('trading', quote, 500n);
    expect(loss.breachActedOn('trading', quote, 500n)).toBe(true);
    // A limit raised since is a breach of its own; another account or asset is not touched.
    expect(loss.breachActedOn('trading', quote, 600n)).toBe(false);
    expect(loss.breachActedOn('turbo', quote, 500n)).toBe(false);
    expect(loss.breachActedOn('trading', 'another', 500n)).toBe(false);
    // A restart keeps it; the next UTC day forgets it.
    expect(new DailyLoss({ ...deps, now: () => now }).breachActedOn('trading', quote, 500n)).toBe(true);
    now = Date.UTC(2026, 10, 28, 0, 1);
    expect(loss.breachActedOn('trading', quote, 500n)).toBe(false);
  });
});
