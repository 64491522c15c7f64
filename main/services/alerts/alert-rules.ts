// When an alert fires: pure functions of the alert, what main last saw of the market, the stream
// or a Turbo Account's risk, and the time. A level (a price, a spread, a silence, a margin distance) fires when it goes beyond its mark
// while armed; it re-arms only once it is seen back on the near side (for a price, past the level
// by the alert's hysteresis), so a price hovering on the level fires once, not on every tick. An
// event (a fill, a refusal) fires as it comes. Either waits out the cool-down after a firing, and
// a one-shot alert turns itself off when it fires.
import type { AlertCondition, MarginAlertLine } from '../../../shared/ipc/views/alerts';
import type { MarginRiskFrame, MarginRiskView } from '../../../shared/ipc/views/margin';
import { referenceMark } from '../../../shared/market/reference-mark';

/** An alert as main keeps it (and writes it to disk). */
export interface AlertRecord {
  readonly id: string;
  readonly condition: AlertCondition;
  readonly repeat: boolean;
  readonly cooldownSeconds: number;
  readonly sound: boolean;
  readonly note: string;
  readonly enabled: boolean;
  readonly createdAt: number;
  readonly lastFiredAt: number | null;
}

/** What main saw last of one market, and of the stream. Null where it has nothing (yet). */
export interface Observation {
  readonly bid: bigint | null;
  readonly ask: bigint | null;
  readonly last: bigint | null;
  /** The market's price step, for spreads in ticks. */
  readonly tick: bigint | null;
  /** Milliseconds since anything arrived from the exchange, heartbeats included. */
  readonly silentMs: number | null;
  /** The latest risk frame of the Turbo Account a margin alert names (live or stale), as the risk panel gets it. */
  readonly margin: MarginFrame | null;
}

export type MarginFrame = Omit<MarginRiskFrame, 'subscriptionId'>;

export const NO_OBSERVATION: Observation = { bid: null, ask: null, last: null, tick: null, silentMs: null, margin: null };

/** Where a level stands: past its mark, back on the near side (re-arming), in the hysteresis band, or unknown. */
export type Reading = { readonly state: 'beyond' | 'back'; readonly value: bigint | number } | { readonly state: 'between' | 'unknown' };

export type LevelCondition = Extract<AlertCondition, { kind: 'price' | 'spread' | 'stale' | 'margin' }>;
export type EventCondition = Extract<AlertCondition, { kind: 'fill' | 'rejected' }>;

export function isLevel(condition: AlertCondition): condition is LevelCondition {
  return condition.kind === 'price' || condition.kind === 'spread' || condition.kind === 'stale' || condition.kind === 'margin';
}

const BASIS_POINTS = 10_000n;

/**
 * A Turbo Account's distance to a line as the risk panel shows it (computeRisk's
 * `distanceToThreshold` and `distanceToFreeze`, not recomputed), with the value that line is
 * measured on: V for the liquidation threshold (liquidatable when V <= threshold), the stressed
 * value min(V stressed-marked, V stressed-filled) for the freeze line. `bps` is the distance in
 * basis points of that value, cut toward zero; 0 when the value is 0 or less.
 */
export function marginDistance(risk: MarginRiskView, line: MarginAlertLine): { distance: bigint; base: bigint; bps: number } {
  const distance = line === 'liquidation' ? risk.health.distanceToThreshold : risk.health.distanceToFreeze;
  const base = line === 'liquidation' ? risk.accountValue : risk.stressedMarkedValue < risk.stressedFilledValue ? risk.stressedMarkedValue : risk.stressedFilledValue;
  return { distance, base, bps: base <= 0n ? 0 : Number((distance * BASIS_POINTS) / base) };
}


/** A margin alert re-arms once the distance is back above its % by a tenth of it (at least 0.1 %). */
export function marginRearmBps(belowBps: number): number {
  return Math.max(10, Math.floor(belowBps / 10));
}

function priceOf(condition: Extract<AlertCondition, { kind: 'price' }>, seen: Observation): bigint | null {
  switch (condition.source) {
    case 'bid':
      return seen.bid;
    case 'ask':
      return seen.ask;
    case 'last':
      return seen.last;
    case 'mark':
      return referenceMark(seen.bid, seen.ask);
  }
}

export function read(condition: LevelCondition, seen: Observation): Reading {
  switch (condition.kind) {
    case 'price': {
      const value = priceOf(condition, seen);
      if (value === null) return { state: 'unknown' };
      if (condition.direction === 'above') {
        if (value >= condition.price) return { state: 'beyond', value };
        return value < condition.price - condition.hysteresis ? { state: 'back', value } : { state: 'between' };
      }
      if (value <= condition.price) return { state: 'beyond', value };
      return value > condition.price + condition.hysteresis ? { state: 'back', value } : { state: 'between' };
    }
    case 'spread': {
      if (seen.bid === null || seen.ask === null || seen.tick === null) return { state: 'unknown' };
      const spread = seen.ask - seen.bid;
      return { state: spread > BigInt(condition.ticks) * seen.tick ? 'beyond' : 'back', value: spread };
    }
    case 'stale': {
      if (seen.silentMs === null) return { state: 'unknown' };
      return { state: seen.silentMs > condition.seconds * 1000 ? 'beyond' : 'back', value: seen.silentMs };
    }
    case 'margin': {
      // Only figures of a live state: a stale frame's are the last live ones, not the account's now.
      const frame = seen.margin;
      if (frame === null || frame.status !== 'live' || frame.risk === null) return { state: 'unknown' };
      const { distance, base, bps } = marginDistance(frame.risk, condition.line);
      // An account worth nothing has no distance left to any line.
      if (base <= 0n) return { state: 'beyond', value: 0 };
      // Compared exactly (distance / base < X / 10,000), never through the rounded %.
      if (distance * BASIS_POINTS < BigInt(condition.belowBps) * base) return { state: 'beyond', value: bps };
      return distance * BASIS_POINTS >= BigInt(condition.belowBps + marginRearmBps(condition.belowBps)) * base ? { state: 'back', value: bps } : { state: 'between' };
    }
  }
}

/**
 * Armed when it is created? A price alert waits until the price is seen on the near side (a level
 * already passed when the alert is set is not a crossing); a spread or a silence is a state, and
 * one that already holds is worth saying at once.
 */
export function armedAtStart(condition: AlertCondition): boolean {
  return condition.kind !== 'price';
}

export function coolingDown(alert: AlertRecord, now: number): boolean {
  return alert.lastFiredAt !== null && now - alert.lastFiredAt < alert.cooldownSeconds * 1000;
}

export interface LevelStep {
  readonly fire: boolean;
  readonly armed: boolean;
  /** The value that fired it (a price, a spread, milliseconds of silence). */
  readonly value: bigint | number | null;
}

/** One evaluation of a level alert. A firing the cool-down holds back stays armed and fires once the cool-down is over. */
export function stepLevel(alert: AlertRecord, armed: boolean, reading: Reading, now: number): LevelStep {
  if (!alert.enabled) return { fire: false, armed, value: null };
  if (reading.state === 'back') return { fire: false, armed: true, value: null };
  if (reading.state !== 'beyond' || !armed || coolingDown(alert, now)) return { fire: false, armed, value: null };
  return { fire: true, armed: false, value: reading.value };
}

/** Does an event alert fire for this event? */
export function firesOnEvent(alert: AlertRecord, event: { kind: 'fill'; marketId: string } | { kind: 'rejected' }, now: number): boolean {
  if (!alert.enabled || coolingDown(alert, now) || alert.condition.kind !== event.kind) return false;
  if (alert.condition.kind === 'fill' && event.kind === 'fill') return alert.condition.marketId === null || alert.condition.marketId === event.marketId;
  return true;
}

/** The alert after it fired: stamped, and off when it was a one-shot. */
export function afterFiring(alert: AlertRecord, now: number): AlertRecord {
  return { ...alert, lastFiredAt: now, enabled: alert.repeat ? alert.enabled : false };
}
