// When an alert fires: pure functions of the alert, what main last saw of the market or the
// stream, and the time. A level (a price, a spread, a silence) fires when it goes beyond its mark
// while armed; it re-arms only once it is seen back on the near side (for a price, past the level
// by the alert's hysteresis), so a price hovering on the level fires once, not on every tick. An
// event (a fill, a refusal) fires as it comes. Either waits out the cool-down after a firing, and
// a one-shot alert turns itself off when it fires.
import type { AlertCondition } from '../../../shared/ipc/views/alerts';
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
}

export const NO_OBSERVATION: Observation = { bid: null, ask: null, last: null, tick: null, silentMs: null };

/** Where a level stands: past its mark, back on the near side (re-arming), in the hysteresis band, or unknown. */
export type Reading = { readonly state: 'beyond' | 'back'; readonly value: bigint | number } | { readonly state: 'between' | 'unknown' };

export type LevelCondition = Extract<AlertCondition, { kind: 'price' | 'spread' | 'stale' }>;
export type EventCondition = Extract<AlertCondition, { kind: 'fill' | 'rejected' }>;

export function isLevel(condition: AlertCondition): condition is LevelCondition {
  return condition.kind === 'price' || condition.kind === 'spread' || condition.kind === 'stale';
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
