// When a level alert fires: on a crossing while armed, re-armed only past the hysteresis, held
// back by the cool-down, and a one-shot turned off by its firing.
import { describe, expect, it } from 'vitest';
import { afterFiring, armedAtStart, firesOnEvent, NO_OBSERVATION, read, stepLevel, type AlertRecord, type LevelCondition } from '../../../../../main/services/alerts/alert-rules';
import { referenceMark } from '../../../../../shared/market/reference-mark';

const MARKET = `0x${'a1'.repeat(32)}`;
const above: LevelCondition = { kind: 'price', marketId: MARKET, turbo: false, source: 'bid', direction: 'above', price: 3_000n, hysteresis: 10n };

function alert(condition: LevelCondition | AlertRecord['condition'], extra: Partial<AlertRecord> = {}): AlertRecord {
  return { id: 'alert-1', condition, repeat: true, cooldownSeconds: 0, sound: false, note: '', enabled: true, createdAt: 0, lastFiredAt: null, ...extra };
}

/** Feed bids one per second through an alert; the times (ms) at which it fired. */
function run(record: AlertRecord, bids: readonly bigint[]): number[] {
  let current = record;
  let armed = armedAtStart(current.condition);
  const fired: number[] = [];
  bids.forEach((bid, index) => {
    const now = index * 1000;
    const step = stepLevel(current, armed, read(current.condition as LevelCondition, { ...NO_OBSERVATION, bid }), now);
    armed = step.armed;
    if (step.fire) {
      fired.push(now);
      current = afterFiring(current, now);
    }
  });
  return fired;
}

describe('price crossing', () => {
  it('fires once when the bid crosses up, not again while it hovers inside the hysteresis', () => {
    expect(run(alert(above), [2_980n, 3_000n, 2_995n, 3_001n, 2_991n, 3_005n])).toEqual([1000]);
  });

  it('fires again once the bid went back past the hysteresis and crosses anew (repeating)', () => {
    expect(run(alert(above), [2_980n, 3_000n, 2_989n, 3_000n])).toEqual([1000, 3000]);
  });

  it('does not fire for a level already passed when the alert was set', () => {
    expect(run(alert(above), [3_050n, 3_060n, 3_000n])).toEqual([]);
    expect(run(alert(above), [3_050n, 2_980n, 3_000n])).toEqual([2000]);
  });

  it('reads a downward crossing the other way round', () => {
    const below: LevelCondition = { ...above, direction: 'below', price: 2_000n };
    expect(run(alert(below), [2_100n, 2_000n, 2_005n, 1_990n, 2_011n, 1_999n])).toEqual([1000, 5000]);
  });

  it('a one-shot alert turns itself off when it fires', () => {
    const once = alert(above, { repeat: false });
    expect(run(once, [2_980n, 3_000n, 2_900n, 3_100n])).toEqual([1000]);
    expect(afterFiring(once, 5).enabled).toBe(false);
    expect(afterFiring(once, 5).lastFiredAt).toBe(5);
  });

  it('the cool-down holds a crossing back and lets it fire when it is over, if the price is still past', () => {
    const cooled = alert(above, { cooldownSeconds: 3 });
    // Fires at 1 s; crosses again at 3 s (inside the cool-down), still past at 4 s: fires at 4 s.
    expect(run(cooled, [2_980n, 3_000n, 2_980n, 3_000n, 3_001n])).toEqual([1000, 4000]);
    // Back before the cool-down ends: nothing at all.
    expect(run(cooled, [2_980n, 3_000n, 2_980n, 3_000n, 2_980n])).toEqual([1000]);
  });

  it('reads the mark (the midpoint of bid and ask, as a trailing stop reads it), and nothing while a side is missing', () => {
    const mark: LevelCondition = { ...above, source: 'mark' };
    expect(read(mark, { ...NO_OBSERVATION, bid: 2_990n, ask: 3_010n })).toEqual({ state: 'beyond', value: 3_000n });
    // Rounded down, like the trailing stop's reference: (2,989 + 3,010) / 2 = 2,999.5 → 2,999.
    expect(read(mark, { ...NO_OBSERVATION, bid: 2_989n, ask: 3_010n })).toEqual({ state: 'between' });
    expect(referenceMark(2_989n, 3_010n)).toBe(2_999n);
    expect(read(mark, { ...NO_OBSERVATION, bid: 2_990n })).toEqual({ state: 'unknown' });
    expect(read(mark, { ...NO_OBSERVATION, bid: 2_990n, ask: 3_010n, last: 2_000n })).toEqual({ state: 'beyond', value: 3_000n });
  });
});

describe('spread and silence', () => {
  const spread: LevelCondition = { kind: 'spread', marketId: MARKET, turbo: false, ticks: 3 };

  it('a spread wider than N ticks fires (armed from the start), and re-arms once it narrows', () => {
    expect(read(spread, { ...NO_OBSERVATION, bid: 100n, ask: 130n, tick: 10n })).toEqual({ state: 'back', value: 30n });
    expect(read(spread, { ...NO_OBSERVATION, bid: 100n, ask: 140n, tick: 10n })).toEqual({ state: 'beyond', value: 40n });
    expect(armedAtStart(spread)).toBe(true);
    const record = alert(spread);
    const first = stepLevel(record, true, { state: 'beyond', value: 40n }, 0);
    expect(first).toEqual({ fire: true, armed: false, value: 40n });
    expect(stepLevel(afterFiring(record, 0), false, { state: 'beyond', value: 40n }, 10_000).fire).toBe(false);
  });

  it('a stream silent longer than N s fires', () => {
    const stale: LevelCondition = { kind: 'stale', seconds: 5 };
    expect(read(stale, { ...NO_OBSERVATION, silentMs: 5_000 }).state).toBe('back');
    expect(read(stale, { ...NO_OBSERVATION, silentMs: 5_001 }).state).toBe('beyond');
    expect(read(stale, NO_OBSERVATION).state).toBe('unknown');
  });

  it('a disabled alert never fires', () => {
    expect(stepLevel(alert(spread, { enabled: false }), true, { state: 'beyond', value: 40n }, 0).fire).toBe(false);
  });
});

describe('events', () => {
  it('a fill alert fires for its market (or any), within its cool-down once', () => {
    const any = alert({ kind: 'fill', marketId: null }, { cooldownSeconds: 10 });
    const one = alert({ kind: 'fill', marketId: MARKET });
    expect(firesOnEvent(any, { kind: 'fill', marketId: `0x${'b2'.repeat(32)}` }, 0)).toBe(true);
    expect(firesOnEvent(one, { kind: 'fill', marketId: `0x${'b2'.repeat(32)}` }, 0)).toBe(false);
    expect(firesOnEvent(one, { kind: 'fill', marketId: MARKET }, 0)).toBe(true);
    expect(firesOnEvent(afterFiring(any, 0), { kind: 'fill', marketId: MARKET }, 9_999)).toBe(false);
    expect(firesOnEvent(afterFiring(any, 0), { kind: 'fill', marketId: MARKET }, 10_000)).toBe(true);
    expect(firesOnEvent(any, { kind: 'rejected' }, 0)).toBe(false);
  });
});
