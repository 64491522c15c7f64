// Trailing stops and moves to break-even, managed by main: it keeps working with every window
// closed and after a restart of the app (the stops are persisted). Main reads the reference price
// (bid, ask, last trade or mark) at a steady pace, works out where the stop belongs
// (trailing-stop.ts) and moves the leg on the exchange through the trigger service's move (cancel
// and replace in one signed batch: journaled, guarded and nonced like a click). Moves are
// coalesced: one in flight per stop, at least MIN_MOVE_MS apart, always to the latest target, and
// only ever tightening. The trader is told of the moves at most once per NOTICE_MS per stop. The
// kill switch stops them all before its sweep, waiting for a move in flight so that the sweep sees
// the leg that move left.
import type { Clock, TimerHandle } from '../../../shared/clock';
import { PollLoop } from '../../../shared/poll-loop';
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import type { PlacedTriggers, TriggerView } from '../../../shared/ipc/views/triggers';
import type { Market } from '../../../shared/market/market';
import { priceTick } from '../../../shared/market/tick';
import { fail, ok, type Result } from '../../../shared/result';
import { pairName } from '../trading/order-intents';
import { PROTECT_CODES } from './codes';
import { priceText } from '../../../shared/market/price-text';
import type { ProtectiveStop, ProtectiveStore, ReferenceKind } from './protective-store';
import { breakEvenTrigger, nextTrigger, trailingTrigger, type TrailDistance } from './trailing-stop';

/** How often the references are read. */
export const POLL_MS = 1_000;
/** The least time between two moves of one stop (each is a signed batch of two actions). */
export const MIN_MOVE_MS = 3_000;
/** The least time between two notices of one stop's moves. */
export const NOTICE_MS = 15_000;
/** After a refused move, the wait before the next try. */
const RETRY_MS = 30_000;

export interface ProtectiveStopsDeps {
  readonly networkId: string;
  readonly store: ProtectiveStore;
  readonly clock: Clock;
  readonly market: (marketId: string, turbo: boolean) => Result<Market>;
  /** The pending leg of this id as main knows it now, or undefined. */
  readonly leg: (triggerId: string) => TriggerView | undefined;
  /** Read the legs from the exchange again (a leg not known may only not be read yet); true when every book was read. */
  readonly refreshLegs: () => Promise<boolean>;
  readonly move: (input: { marketId: string; turbo: boolean; triggerId: B256; triggerPrice: bigint }) => Promise<Result<PlacedTriggers>>;
  readonly reference: (market: Market, turbo: boolean, kind: ReferenceKind) => Promise<Result<bigint>>;
  /** The average entry of the position on that book (break-even), or why it cannot be read. */
  readonly entry: (marketId: string, turbo: boolean) => Promise<Result<bigint>>;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string, code?: string) => void;
  readonly log: (line: string) => void;
  /** The stops changed (for the windows' views). */
  readonly publish: (stops: readonly ProtectiveStop[]) => void;
}

export interface ArmInput {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly triggerId: string;
  readonly reference: ReferenceKind;
  readonly distance: TrailDistance | null;
  /** Automatic break-even after this many ticks of profit; null: none. */
  readonly breakEvenAfterTicks: bigint | null;
}

interface Runtime {
  inflight: Promise<void> | null;
  lastMoveAt: number;
  lastNoticeAt: number;
  movesSinceNotice: number;
  retryAt: number;
  /** A notice held back by the pause, shown when it is over with the trigger of that moment. */
  noticeTimer: TimerHandle | null;
}

export class ProtectiveStops {
  private readonly runtime = new Map<string, Runtime>();
  private readonly loop: PollLoop;
  private ids = 0;

  constructor(private readonly deps: ProtectiveStopsDeps) {
    this.loop = new PollLoop(deps.clock, POLL_MS, () => this.pass());
  }

  /** The stops of this network. */
  list(): readonly ProtectiveStop[] {
    return this.deps.store.get().stops.filter((stop) => stop.networkId === this.deps.networkId);
  }

  /** Start following the stops, saying which ones were kept from before (a restart). */
  start(): void {
    for (const stop of this.list()) {
      const market = this.deps.market(stop.marketId, stop.turbo);
      const where = market.ok ? pairName(market.value) : stop.marketId;
      this.deps.notice('info', `Protective stop on ${where} kept working after the restart: ${describe(stop, market.ok ? market.value : null)}`, 'PROTECTIVE_STOP_RESUMED');
    }
    this.loop.start();
  }

  dispose(): void {
    this.loop.stop();
    for (const id of [...this.runtime.keys()]) this.forget(id);
  }

  /** Arm a trailing stop and/or an automatic break-even on a pending stop leg. */
  async arm(input: ArmInput): Promise<Result<ProtectiveStop>> {
    if (input.distance === null && input.breakEvenAfterTicks === null) return fail(PROTECT_CODES.NOTHING_TO_MANAGE, 'Choose a trailing distance, a break-even after N ticks, or both.', { field: 'distance' });
    const market = this.deps.market(input.marketId, input.turbo);
    if (!market.ok) return market;
    let leg = this.deps.leg(input.triggerId);
    if (leg === undefined) {
      await this.deps.refreshLegs();
      leg = this.deps.leg(input.triggerId);
    }
    if (leg === undefined || leg.state !== 'pending') return fail(PROTECT_CODES.STOP_NOT_PENDING, `trigger ${input.triggerId} is not a pending leg of this account`, { field: 'triggerId' });
    if (leg.marketId !== input.marketId || leg.turbo !== input.turbo) return fail(PROTECT_CODES.STOP_NOT_PENDING, `trigger ${input.triggerId} is on another book`, { field: 'triggerId' });
    if (this.list().some((stop) => stop.triggerId === input.triggerId)) return fail(PROTECT_CODES.ALREADY_MANAGED, `trigger ${input.triggerId} is already managed; disarm it first`, { field: 'triggerId' });
    const reference = await this.deps.reference(market.value, input.turbo, input.reference);
    if (!reference.ok) return reference;
    // A stop loss sits on the losing side of the price: below it for a sell, above it for a buy.
    const losingSide = leg.side === 'Sell' ? leg.triggerPrice < reference.value : leg.triggerPrice > reference.value;
    if (!losingSide) {
      return fail(PROTECT_CODES.NOT_A_STOP_LOSS, `The leg ${leg.side.toLowerCase()}s at ${showPrice(market.value, leg.triggerPrice)}, on the profit side of the ${input.reference} ${showPrice(market.value, reference.value)}: only a stop-loss can trail.`, { field: 'triggerId' });
    }
    let breakEven: ProtectiveStop['breakEven'] = null;
    if (input.breakEvenAfterTicks !== null) {
      const entry = await this.deps.entry(input.marketId, input.turbo);
      if (!entry.ok) return fail(PROTECT_CODES.ENTRY_UNKNOWN, `Break-even needs the position's entry: ${entry.message}`, { field: 'breakEvenAfterTicks' });
      breakEven = { entry: entry.value, afterTicks: input.breakEvenAfterTicks, done: false };
    }
    const stop: ProtectiveStop = {
      id: `protect-${this.deps.clock.now().toString(36)}-${(++this.ids).toString(36)}`,
      networkId: this.deps.networkId,
      marketId: input.marketId,
      turbo: input.turbo,
      triggerId: input.triggerId,
      side: leg.side,
      reference: input.reference,
      distance: input.distance,
      breakEven,
      trigger: leg.triggerPrice,
      armedAt: this.deps.clock.now(),
    };
    const saved = this.save((stops) => [...stops, stop]);
    if (!saved.ok) return saved;
    this.deps.notice('info', `Armed on ${pairName(market.value)}: ${describe(stop, market.value)}`, 'PROTECTIVE_STOP_ARMED');
    this.schedule(0);
    return ok(stop);
  }

  /** Stop managing one stop; the leg stays on the exchange where it is. */
  disarm(id: string): Result<null> {
    const stop = this.list().find((candidate) => candidate.id === id);
    if (stop === undefined) return fail(PROTECT_CODES.NOT_MANAGED, `no managed stop ${id}`, { field: 'id' });
    const saved = this.save((stops) => stops.filter((candidate) => candidate.id !== id));
    if (!saved.ok) return saved;
    this.forget(id);
    return ok(null);
  }

  /** Move a managed stop to its entry now (manual break-even), when that tightens it and the price allows. */
  async breakEvenNow(id: string): Promise<Result<ProtectiveStop>> {
    // A move in flight replaces the leg: read the stop once it has landed.
    await this.waitInflight(id);
    const stop = this.list().find((candidate) => candidate.id === id);
    if (stop === undefined) return fail(PROTECT_CODES.NOT_MANAGED, `no managed stop ${id}`, { field: 'id' });
    const market = this.deps.market(stop.marketId, stop.turbo);
    if (!market.ok) return market;
    const entry = stop.breakEven?.entry ?? null;
    const entryRead = entry === null ? await this.deps.entry(stop.marketId, stop.turbo) : ok(entry);
    if (!entryRead.ok) return fail(PROTECT_CODES.ENTRY_UNKNOWN, `Break-even needs the position's entry: ${entryRead.message}`);
    const reference = await this.deps.reference(market.value, stop.turbo, stop.reference);
    if (!reference.ok) return reference;
    const target = nextTrigger(stop.side, stop.trigger, breakEvenTrigger({ side: stop.side, entry: entryRead.value, reference: reference.value, afterTicks: 0n, tick: priceTick(market.value) }));
    if (target === null) {
      return fail(PROTECT_CODES.BREAK_EVEN_NOT_REACHED, `The stop cannot go to the entry ${showPrice(market.value, entryRead.value)} now: the ${stop.reference} ${showPrice(market.value, reference.value)} is not past it, or the stop is already tighter.`);
    }
    // Held as the stop's move in flight: a pass of the poll waits for it instead of moving the same leg.
    const state = this.state(stop.id);
    if (state.inflight !== null) return fail(PROTECT_CODES.MOVE_IN_FLIGHT, 'The stop is being moved now; try again in a moment.');
    const moving = this.moveTo(stop, market.value, target, 'break-even');
    state.inflight = moving.then(() => undefined).finally(() => {
      state.inflight = null;
    });
    const moved = await moving;
    if (!moved.ok) return moved;
    return ok(moved.value);
  }

  /**
   * The kill switch: stop managing every stop (of a market, or all), before the sweep cancels the
   * legs. A move already in flight is waited for, so the sweep lists the leg it left.
   */
  async stopAll(marketId: string | undefined): Promise<number> {
    const stopping = this.list().filter((stop) => marketId === undefined || stop.marketId === marketId);
    if (stopping.length === 0) return 0;
    const ids = new Set(stopping.map((stop) => stop.id));
    const saved = this.save((stops) => stops.filter((stop) => !ids.has(stop.id)));
    if (!saved.ok) this.deps.log(`protective stops: could not save after the kill switch: ${saved.message}`);
    await Promise.all(stopping.map((stop) => this.waitInflight(stop.id)));
    for (const id of ids) this.forget(id);
    this.deps.notice('warning', `${stopping.length} trailing / break-even ${stopping.length === 1 ? 'stop was' : 'stops were'} disarmed by the kill switch.`, 'PROTECTIVE_STOP_DISARMED');
    return stopping.length;
  }

  // ---- following ---------------------------------------------------------------------------

  /** One pass over them now (tests call it directly); a pass under way is joined, not doubled. */
  poll(): Promise<void> {
    return this.loop.poll();
  }

  private schedule(ms?: number): void {
    this.loop.schedule(ms);
  }

  private async pass(): Promise<void> {
    for (const stop of this.list()) {
      const state = this.state(stop.id);
      if (state.inflight !== null || this.deps.clock.now() < state.retryAt) continue;
      state.inflight = this.follow(stop).finally(() => {
        state.inflight = null;
      });
    }
    await Promise.all(this.list().map((stop) => this.runtime.get(stop.id)?.inflight));
  }

  private async follow(stop: ProtectiveStop): Promise<void> {
    const market = this.deps.market(stop.marketId, stop.turbo);
    if (!market.ok) return;
    if (!(await this.stillPending(stop, market.value))) return;
    const reference = await this.deps.reference(market.value, stop.turbo, stop.reference);
    if (!reference.ok) {
      this.deps.log(`protective stop ${stop.id}: no ${stop.reference} to follow: ${reference.message}`);
      return;
    }
    const tick = priceTick(market.value);
    const trailing = stop.distance === null ? null : nextTrigger(stop.side, stop.trigger, trailingTrigger({ side: stop.side, reference: reference.value, distance: stop.distance, tick }));
    const breakEven =
      stop.breakEven === null || stop.breakEven.done
        ? null
        : nextTrigger(stop.side, stop.trigger, breakEvenTrigger({ side: stop.side, entry: stop.breakEven.entry, reference: reference.value, afterTicks: stop.breakEven.afterTicks, tick }));
    const target = tightest(stop.side, trailing, breakEven);
    if (target === null) return;
    const state = this.state(stop.id);
    // Coalesce: the next pass moves to the latest target once the pause is over.
    if (this.deps.clock.now() - state.lastMoveAt < MIN_MOVE_MS) return;
    const why = target === breakEven && target !== trailing ? 'break-even' : 'trailing';
    await this.moveTo(stop, market.value, target, why);
  }

  /**
   * Whether the leg is still pending; a leg that fired or was cancelled ends its management. Only a
   * complete read of the legs says a leg is gone (before the account is followed after a restart,
   * or while the exchange does not answer, nothing is known and the stop waits).
   */
  private async stillPending(stop: ProtectiveStop, market: Market): Promise<boolean> {
    if (this.deps.leg(stop.triggerId)?.state === 'pending') return true;
    const complete = await this.deps.refreshLegs();
    if (this.deps.leg(stop.triggerId)?.state === 'pending') return true;
    if (!complete) return false;
    this.save((stops) => stops.filter((candidate) => candidate.id !== stop.id));
    this.forget(stop.id);
    this.deps.notice('info', `The ${stop.side.toLowerCase()} stop on ${pairName(market)} at ${showPrice(market, stop.trigger)} is no longer pending (it fired or was cancelled): it is no longer managed.`, 'PROTECTIVE_STOP_ENDED');
    return false;
  }

  private async moveTo(stop: ProtectiveStop, market: Market, target: bigint, why: 'trailing' | 'break-even'): Promise<Result<ProtectiveStop>> {
    const state = this.state(stop.id);
    state.lastMoveAt = this.deps.clock.now();
    const moved = await this.deps.move({ marketId: stop.marketId, turbo: stop.turbo, triggerId: stop.triggerId as B256, triggerPrice: target });
    // Disarmed (the kill switch) while the move was in flight: nothing more is recorded.
    const current = this.list().find((candidate) => candidate.id === stop.id);
    if (!moved.ok) {
      state.retryAt = this.deps.clock.now() + RETRY_MS;
      this.deps.notice('warning', `The ${stop.side.toLowerCase()} stop on ${pairName(market)} could not be moved to ${showPrice(market, target)} (${why}); it stays at ${showPrice(market, stop.trigger)}: ${moved.message}`, moved.code);
      return moved;
    }
    const replacement = moved.value.triggers.find((leg) => leg.side === stop.side && leg.triggerPrice === target && leg.marketId === stop.marketId);
    if (replacement === undefined) {
      this.deps.log(`protective stop ${stop.id}: moved, but the new leg was not reported; reading the legs again`);
      await this.deps.refreshLegs();
    }
    if (current === undefined) return fail(PROTECT_CODES.NOT_MANAGED, 'The stop was disarmed while it moved.');
    const next: ProtectiveStop = {
      ...current,
      triggerId: replacement?.triggerId ?? current.triggerId,
      trigger: target,
      breakEven: current.breakEven === null ? null : { ...current.breakEven, done: current.breakEven.done || why === 'break-even' || breakEvenReached(current, target) },
    };
    const saved = this.save((stops) => stops.map((candidate) => (candidate.id === stop.id ? next : candidate)));
    if (!saved.ok) this.deps.log(`protective stop ${stop.id}: could not save the new trigger: ${saved.message}`);
    if (replacement === undefined) this.deps.notice('warning', `The stop on ${pairName(market)} was moved to ${showPrice(market, target)}, but its new leg was not found: check the Stops list.`, 'PROTECTIVE_STOP_LOST');
    this.tell(next, market, why);
    return ok(next);
  }

  /**
   * A notice per move, but at most one per NOTICE_MS per stop: a move inside the pause is counted
   * and told when the pause is over, with the trigger the stop has then (never an older one).
   */
  private tell(stop: ProtectiveStop, market: Market, why: 'trailing' | 'break-even'): void {
    const state = this.state(stop.id);
    state.movesSinceNotice += 1;
    const now = this.deps.clock.now();
    if (why !== 'break-even' && now - state.lastNoticeAt < NOTICE_MS) {
      state.noticeTimer ??= this.deps.clock.setTimeout(() => {
        state.noticeTimer = null;
        const current = this.list().find((candidate) => candidate.id === stop.id);
        if (current !== undefined && state.movesSinceNotice > 0) this.announce(current, market, 'trailing');
      }, state.lastNoticeAt + NOTICE_MS - now);
      return;
    }
    this.announce(stop, market, why);
  }

  private announce(stop: ProtectiveStop, market: Market, why: 'trailing' | 'break-even'): void {
    const state = this.state(stop.id);
    if (state.noticeTimer !== null) this.deps.clock.clearTimeout(state.noticeTimer);
    state.noticeTimer = null;
    const count = state.movesSinceNotice;
    state.movesSinceNotice = 0;
    state.lastNoticeAt = this.deps.clock.now();
    const what = why === 'break-even' ? 'moved to break-even' : count > 1 ? `trailed (${count} moves)` : 'trailed';
    this.deps.notice('info', `The ${stop.side.toLowerCase()} stop on ${pairName(market)} ${what}: trigger now ${showPrice(market, stop.trigger)}.`, 'PROTECTIVE_STOP_MOVED');
  }

  /** Forget a stop's pacing, and a notice it was holding back. */
  private forget(id: string): void {
    const timer = this.runtime.get(id)?.noticeTimer;
    if (timer != null) this.deps.clock.clearTimeout(timer);
    this.runtime.delete(id);
  }

  private async waitInflight(id: string): Promise<void> {
    const inflight = this.runtime.get(id)?.inflight;
    if (inflight) await inflight;
  }

  private state(id: string): Runtime {
    let state = this.runtime.get(id);
    if (state === undefined) {
      state = { inflight: null, lastMoveAt: Number.NEGATIVE_INFINITY, lastNoticeAt: Number.NEGATIVE_INFINITY, movesSinceNotice: 0, retryAt: 0, noticeTimer: null };
      this.runtime.set(id, state);
    }
    return state;
  }

  private save(change: (stops: readonly ProtectiveStop[]) => ProtectiveStop[]): Result<null> {
    const saved = this.deps.store.update((current) => {
      const mine = current.stops.filter((stop) => stop.networkId === this.deps.networkId);
      const others = current.stops.filter((stop) => stop.networkId !== this.deps.networkId);
      return { ...current, stops: [...others, ...change(mine)] };
    });
    if (!saved.ok) return saved;
    this.deps.publish(this.list());
    return ok(null);
  }
}

function tightest(side: 'Buy' | 'Sell', one: bigint | null, two: bigint | null): bigint | null {
  if (one === null) return two;
  if (two === null) return one;
  return side === 'Sell' ? (one > two ? one : two) : one < two ? one : two;
}

/** A trailing move that took the stop to or past the entry makes the break-even done. */
function breakEvenReached(stop: ProtectiveStop, trigger: bigint): boolean {
  if (stop.breakEven === null) return false;
  return stop.side === 'Sell' ? trigger >= stop.breakEven.entry : trigger <= stop.breakEven.entry;
}

function showPrice(market: Market, price: bigint): string {
  return priceText(market, price);
}

/** "sell stop at 2,990 USDC, trailing 50 ticks from the bid, break-even after 10 ticks". */
export function describe(stop: ProtectiveStop, market: Market | null): string {
  const price = (raw: bigint) => (market === null ? raw.toString() : showPrice(market, raw));
  const parts = [`${stop.side.toLowerCase()} stop at ${price(stop.trigger)}`];
  if (stop.distance !== null) {
    const distance = stop.distance.kind === 'ticks' ? `${stop.distance.ticks} ticks` : stop.distance.kind === 'percent' ? `${formatUnits(stop.distance.basisPoints, 2)} %` : price(stop.distance.amount);
    parts.push(`trailing ${distance} from the ${stop.reference}`);
  }
  if (stop.breakEven !== null) parts.push(stop.breakEven.done ? 'at break-even' : `break-even at ${price(stop.breakEven.entry)} after ${stop.breakEven.afterTicks} ticks of profit`);
  return parts.join(', ');
}
