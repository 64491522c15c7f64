// A position's take-profit / stop-loss pair, managed by main: an OCO pair of explicit size on the
// closing side, kept sized to the position as it changes (a fill that adds grows it, a partial
// close shrinks it, flat or flipped takes it away: position-legs-plan.ts). Because it is sized to
// the position and bound to no order, an amend of the entry leaves it as it is. Every change is one
// signed batch through the trigger service (cancel the pair, place the new one: journaled, nonced
// and guarded like a click), paced like the trailing stops. Persisted with them
// (protective-stops.json): after a restart it keeps working and says so. The kill switch stops it
// before its sweep; a close from the Positions panel holds it (its legs lock the base the close
// sells) and it is placed again at the size left.
import type { Clock } from '../../../shared/clock';
import { PollLoop } from '../../../shared/poll-loop';
import type { B256 } from '../../../shared/encoding/b256';
import type { PlacedTriggers, TriggerView } from '../../../shared/ipc/views/triggers';
import { bookKey, type Market } from '../../../shared/market/market';
import type { Side } from '../../../shared/market/order-type';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import { pairName } from '../trading/order-intents';
import { PROTECT_CODES } from './codes';
import { autoBracketPrices, planPositionLegs, signablePairSize, type LegsPending, type PositionLegsPlan } from './position-legs-plan';
import { priceText, sizeText } from '../../../shared/market/price-text';
import type { AutoBracket, PositionBracket, ProtectiveStore } from './protective-store';
import { priceTick } from '../../../shared/market/tick';
import { MIN_MOVE_MS, NOTICE_MS } from './protective-stops';

/** How often the positions are read (each read lists the account's fills on every book). */
export const BRACKET_POLL_MS = 2_000;

/** After a refused change, the wait before the next try. */
const RETRY_MS = 30_000;
/** The stop-loss leg executes within this many basis points of its trigger (a bounded leg). */
export const STOP_SLIPPAGE_BPS = 100;

export interface PositionBracketsDeps {
  readonly networkId: string;
  readonly store: ProtectiveStore;
  readonly clock: Clock;
  readonly market: (marketId: string, turbo: boolean) => Result<Market>;
  /** The trading account's position on that book, signed (positive long), raw base units, and its average entry. */
  /** `afterTrade`: a close was just answered, so the fills are read from the exchange first, not only as the stream reported them. */
  readonly position: (marketId: string, turbo: boolean, options?: { readonly afterTrade?: boolean }) => Promise<Result<{ size: bigint; entry: bigint | null }>>;
  /** Whether the leg of this id is pending as main knows it now. */
  readonly pending: (triggerId: string) => boolean;
  /** The legs pending on a book as main knows them now (to find a pair placed before a crash recorded it). */
  readonly pendingLegs: (marketId: string, turbo: boolean) => readonly TriggerView[];
  /** Read the legs from the exchange again; true when every book was read. */
  readonly refreshLegs: () => Promise<boolean>;
  /** The mark (midpoint of the best bid and ask) the prices are judged against when armed. */
  readonly mark: (market: Market, turbo: boolean) => Promise<Result<bigint>>;
  readonly replace: (input: {
    marketId: string;
    turbo: boolean;
    cancel: readonly B256[];
    side: Side;
    takeProfit: bigint | null;
    stopLoss: bigint | null;
    quantity: bigint | null;
    stopSlippageBps: number;
    description: string;
  }) => Promise<Result<PlacedTriggers>>;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string, code?: string) => void;
  readonly log: (line: string) => void;
  readonly publish: (brackets: readonly PositionBracket[]) => void;
}

export interface ArmBracketInput {
  readonly marketId: string;
  readonly turbo: boolean;
  readonly takeProfit: bigint | null;
  readonly stopLoss: bigint | null;
  readonly automatic?: boolean;
}

interface Runtime {
  inflight: Promise<void> | null;
  lastChangeAt: number;
  lastNoticeAt: number;
  retryAt: number;
  /** Whether this run looked on the book for a lifted pair's legs (once, after a fresh read). */
  lookedForLegs: boolean;
}

export class PositionBrackets {
  private readonly runtime = new Map<string, Runtime>();
  /** Books held by a close in progress (by book key: how many closes). */
  private readonly holds = new Map<string, number>();
  /** Books whose hold was released after a close: the next size is read after that close's trade. */
  private readonly afterTrade = new Set<string>();
  /** The size of the position last read on each book with an automatic bracket. */
  private readonly seen = new Map<string, bigint>();
  private readonly loop: PollLoop;
  private ids = 0;

  constructor(private readonly deps: PositionBracketsDeps) {
    this.loop = new PollLoop(deps.clock, BRACKET_POLL_MS, () => this.pass());
  }

  list(): readonly PositionBracket[] {
    return this.deps.store.get().brackets.filter((bracket) => bracket.networkId === this.deps.networkId);
  }

  /** The markets with an automatic bracket on fill. */
  autoList(): readonly AutoBracket[] {
    return this.deps.store.get().autoBrackets.filter((auto) => auto.networkId === this.deps.networkId);
  }

  /**
   * Set a market's automatic bracket on fill (its confirmation is the caller's): from the next fill
   * that adds to the trading account's position on its canonical book while no pair protects it,
   * a position TP/SL at the average entry plus / minus the offsets. It never opens exposure.
   */
  setAuto(input: Omit<AutoBracket, 'networkId' | 'armedAt'>): Result<readonly AutoBracket[]> {
    if (input.takeProfit === null && input.stopLoss === null) return fail(PROTECT_CODES.NOTHING_TO_MANAGE, 'takeProfit: give a take-profit offset, a stop-loss offset, or both.', { field: 'takeProfit' });
    const market = this.deps.market(input.marketId, false);
    if (!market.ok) return market;
    const auto: AutoBracket = { ...input, networkId: this.deps.networkId, armedAt: this.deps.clock.now() };
    const saved = this.deps.store.update((current) => ({ ...current, autoBrackets: [...current.autoBrackets.filter((one) => one.networkId !== auto.networkId || one.marketId !== auto.marketId), auto] }));
    if (!saved.ok) return saved;
    this.deps.notice('info', `Automatic bracket on fill set on ${pairName(market.value)}: ${describeAuto(auto)}.`, 'AUTO_BRACKET_ARMED');
    this.schedule(0);
    return ok(this.autoList());
  }

  /** Stop bracketing a market's fills (a pair already placed stays managed). */
  clearAuto(marketId: string): Result<readonly AutoBracket[]> {
    const saved = this.deps.store.update((current) => ({ ...current, autoBrackets: current.autoBrackets.filter((one) => one.networkId !== this.deps.networkId || one.marketId.toLowerCase() !== marketId.toLowerCase()) }));
    if (!saved.ok) return saved;
    return ok(this.autoList());
  }

  /**
   * Why a leg may not be moved or trailed on its own (null when it may): a leg of a pair main keeps
   * sized to a position is replaced as the position changes, and a move elsewhere would leave the
   * pair following a leg that is gone. The pair changes as one, from Positions (Change TP/SL).
   */
  ownLegRefusal(triggerId: string): Failure | null {
    const wanted = triggerId.toLowerCase();
    const bracket = this.list().find((candidate) => candidate.legIds.some((leg) => leg.toLowerCase() === wanted));
    if (bracket === undefined) return null;
    const market = this.deps.market(bracket.marketId, bracket.turbo);
    const where = market.ok ? pairName(market.value) : bracket.marketId;
    return fail(PROTECT_CODES.LEG_OF_POSITION_TPSL, `trigger ${triggerId} is a leg of the position TP/SL on ${where}, which main keeps sized to the position: change its prices with Change TP/SL in Positions, or cancel the TP/SL first`, { field: 'triggerId' });
  }

  /** The pair on a book, if main keeps one there. */
  on(marketId: string, turbo: boolean): PositionBracket | undefined {
    return this.list().find((bracket) => bracket.marketId === marketId && bracket.turbo === turbo);
  }

  start(): void {
    for (const bracket of this.list()) {
      const market = this.deps.market(bracket.marketId, bracket.turbo);
      const where = market.ok ? pairName(market.value) : bracket.marketId;
      this.deps.notice('info', `Position TP/SL on ${where} kept working after the restart: ${describeBracket(bracket, market.ok ? market.value : null)}`, 'POSITION_BRACKET_RESUMED');
    }
    this.loop.start();
  }

  dispose(): void {
    this.loop.stop();
  }

  /**
   * Place a take-profit and/or a stop-loss sized to the position on a book, or change the prices of
   * the pair main keeps there (the old pair is cancelled in the same batch).
   */
  async arm(input: ArmBracketInput): Promise<Result<PositionBracket>> {
    if (input.takeProfit === null && input.stopLoss === null) return fail(PROTECT_CODES.NOTHING_TO_MANAGE, 'takeProfit: give a take-profit price, a stop-loss price, or both.', { field: 'takeProfit' });
    const market = this.deps.market(input.marketId, input.turbo);
    if (!market.ok) return market;
    const existing = this.on(input.marketId, input.turbo);
    if (existing !== undefined) await this.waitInflight(existing.id);
    const read = await this.deps.position(input.marketId, input.turbo);
    if (!read.ok) return fail(PROTECT_CODES.POSITION_UNKNOWN, `The position on ${pairName(market.value)} could not be read: ${read.message}`, { field: 'marketId' });
    const position = ok(read.value.size);
    if (position.value === 0n) return fail(PROTECT_CODES.POSITION_FLAT, `There is no position on ${pairName(market.value)}${input.turbo ? ' (Turbo book)' : ''} to protect.`, { field: 'marketId' });
    const long = position.value > 0n;
    const side: Side = long ? 'Sell' : 'Buy';
    const mark = await this.deps.mark(market.value, input.turbo);
    if (!mark.ok) return mark;
    // A take-profit sits on the profit side of the price, a stop-loss on the losing side.
    const wrong = sideProblem(market.value, long, mark.value, input.takeProfit, input.stopLoss);
    if (wrong !== null) return fail(PROTECT_CODES.PRICE_WRONG_SIDE, wrong.message, { field: wrong.field });
    const prices = [input.takeProfit, input.stopLoss].filter((price): price is bigint => price !== null);
    const size = long ? position.value : -position.value;
    const quantity = signablePairSize(market.value, size, prices);
    if (quantity === 0n) return fail(PROTECT_CODES.POSITION_TOO_SMALL, `The position of ${sizeText(market.value, size)} is below what a leg may close on ${pairName(market.value)} (dust or the minimum order).`, { field: 'marketId' });
    const cancel = existing === undefined ? [] : existing.legIds.filter((id) => this.deps.pending(id));
    const draft: PositionBracket = {
      id: existing?.id ?? `bracket-${this.deps.clock.now().toString(36)}-${(++this.ids).toString(36)}`,
      networkId: this.deps.networkId,
      marketId: input.marketId,
      turbo: input.turbo,
      side,
      takeProfit: input.takeProfit,
      stopLoss: input.stopLoss,
      legIds: [],
      placed: 0n,
      automatic: input.automatic ?? false,
      armedAt: this.deps.clock.now(),
    };
    const state = this.state(draft.id);
    let result: Result<PositionBracket> = fail('BUG', 'not placed');
    const placing = (async () => {
      const placed = await this.deps.replace({ marketId: input.marketId, turbo: input.turbo, cancel: cancel as B256[], side, takeProfit: input.takeProfit, stopLoss: input.stopLoss, quantity, stopSlippageBps: STOP_SLIPPAGE_BPS, description: `Position TP/SL on ${pairName(market.value)}: ${describeBracket({ ...draft, placed: quantity }, market.value)}` });
      if (!placed.ok) {
        result = placed;
        return;
      }
      state.lastChangeAt = this.deps.clock.now();
      const bracket: PositionBracket = { ...draft, legIds: placed.value.triggers.map((leg) => leg.triggerId), placed: quantity };
      const saved = this.save((brackets) => [...brackets.filter((candidate) => candidate.id !== bracket.id), bracket]);
      if (!saved.ok) {
        this.deps.log(`position TP/SL ${bracket.id}: could not save: ${saved.message}`);
        result = saved;
        return;
      }
      this.deps.notice('info', `Position TP/SL armed on ${pairName(market.value)}: ${describeBracket(bracket, market.value)}; resized as the position changes.`, 'POSITION_BRACKET_ARMED');
      result = ok(bracket);
    })();
    state.inflight = placing.finally(() => {
      state.inflight = null;
    });
    await placing;
    this.schedule();
    return result;
  }

  /** Stop managing a pair; `cancel`: take its legs off the exchange too (else they stay at their size). */
  async disarm(id: string, cancel: boolean): Promise<Result<null>> {
    const bracket = this.list().find((candidate) => candidate.id === id);
    if (bracket === undefined) return fail(PROTECT_CODES.NOT_MANAGED, `no position TP/SL ${id}`, { field: 'id' });
    await this.waitInflight(id);
    const current = this.list().find((candidate) => candidate.id === id) ?? bracket;
    if (cancel) {
      const pending = current.legIds.filter((leg) => this.deps.pending(leg));
      if (pending.length > 0) {
        const market = this.deps.market(current.marketId, current.turbo);
        const where = market.ok ? pairName(market.value) : current.marketId;
        const cancelled = await this.deps.replace({ marketId: current.marketId, turbo: current.turbo, cancel: pending as B256[], side: current.side, takeProfit: null, stopLoss: null, quantity: null, stopSlippageBps: STOP_SLIPPAGE_BPS, description: `Cancel the position TP/SL on ${where}` });
        if (!cancelled.ok) return cancelled;
      }
    }
    const saved = this.save((brackets) => brackets.filter((candidate) => candidate.id !== id));
    if (!saved.ok) return saved;
    this.runtime.delete(id);
    return ok(null);
  }

  /** The kill switch (and cancel-all): stop managing every pair (of a market, or all) before the sweep cancels the legs. */
  async stopAll(marketId: string | undefined): Promise<number> {
    const stopping = this.list().filter((bracket) => marketId === undefined || bracket.marketId === marketId);
    if (stopping.length === 0) return 0;
    const ids = new Set(stopping.map((bracket) => bracket.id));
    const saved = this.save((brackets) => brackets.filter((bracket) => !ids.has(bracket.id)));
    if (!saved.ok) this.deps.log(`position TP/SL: could not save after the kill switch: ${saved.message}`);
    await Promise.all(stopping.map((bracket) => this.waitInflight(bracket.id)));
    for (const id of ids) this.runtime.delete(id);
    this.deps.notice('warning', `${stopping.length} position TP/SL ${stopping.length === 1 ? 'pair was' : 'pairs were'} stopped by the kill switch: no longer resized.`, 'POSITION_BRACKET_STOPPED');
    return stopping.length;
  }

  /**
   * Before a close of the position on a book: its pair locks the base (or quote) the close needs,
   * so the pair is cancelled and not placed again until `release` (then at the size left).
   */
  async hold(marketId: string, turbo: boolean): Promise<() => void> {
    const key = bookKey(marketId, turbo);
    this.holds.set(key, (this.holds.get(key) ?? 0) + 1);
    const release = () => {
      // The close that held it was answered: the next size is read after its trade, not before.
      this.afterTrade.add(key);
      const left = (this.holds.get(key) ?? 1) - 1;
      if (left <= 0) this.holds.delete(key);
      else this.holds.set(key, left);
      this.schedule(0);
    };
    const bracket = this.on(marketId, turbo);
    if (bracket === undefined) return release;
    await this.waitInflight(bracket.id);
    const current = this.on(marketId, turbo);
    if (current === undefined) return release;
    const pending = current.legIds.filter((leg) => this.deps.pending(leg));
    if (pending.length === 0) return release;
    const market = this.deps.market(marketId, turbo);
    const where = market.ok ? pairName(market.value) : marketId;
    const cancelled = await this.deps.replace({ marketId, turbo, cancel: pending as B256[], side: current.side, takeProfit: null, stopLoss: null, quantity: null, stopSlippageBps: STOP_SLIPPAGE_BPS, description: `Lift the position TP/SL on ${where} for a close` });
    if (!cancelled.ok) {
      this.deps.log(`position TP/SL ${current.id}: could not be lifted for a close: ${cancelled.message}`);
      return release;
    }
    this.save((brackets) => brackets.map((candidate) => (candidate.id === current.id ? { ...candidate, legIds: [], placed: 0n } : candidate)));
    return release;
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
    await this.bracketFills();
    for (const bracket of this.list()) {
      const state = this.state(bracket.id);
      if (state.inflight !== null || this.deps.clock.now() < state.retryAt || this.holds.has(bookKey(bracket.marketId, bracket.turbo))) continue;
      state.inflight = this.follow(bracket).finally(() => {
        state.inflight = null;
      });
    }
    await Promise.all(this.list().map((bracket) => this.runtime.get(bracket.id)?.inflight));
  }

  /**
   * The automatic brackets: a position that grew since the last read (a fill of an entry) on a
   * market with one set, and no pair on it, gets a position TP/SL at its entry ± the offsets. The
   * first read of a book is only a baseline: a position found at a start is not bracketed by itself.
   */
  private async bracketFills(): Promise<void> {
    for (const auto of this.autoList()) {
      const key = bookKey(auto.marketId, false);
      if (this.holds.has(key)) continue;
      const read = await this.deps.position(auto.marketId, false);
      if (!read.ok) continue;
      const size = read.value.size < 0n ? -read.value.size : read.value.size;
      const before = this.seen.get(key);
      this.seen.set(key, size);
      if (before === undefined || size <= before || this.on(auto.marketId, false) !== undefined || read.value.entry === null) continue;
      const market = this.deps.market(auto.marketId, false);
      if (!market.ok) continue;
      const prices = autoBracketPrices({ entry: read.value.entry, long: read.value.size > 0n, unit: auto.unit, takeProfit: auto.takeProfit, stopLoss: auto.stopLoss, tick: priceTick(market.value) });
      const armed = prices.takeProfit === null && prices.stopLoss === null ? fail(PROTECT_CODES.NOTHING_TO_MANAGE, 'the offsets leave no price above zero') : await this.arm({ marketId: auto.marketId, turbo: false, ...prices, automatic: true });
      if (!armed.ok) this.deps.notice('error', `The automatic bracket on ${pairName(market.value)} could not protect the fill: ${armed.message}`, 'POSITION_UNPROTECTED');
    }
  }

  private async legsPending(bracket: PositionBracket): Promise<LegsPending> {
    const count = () => bracket.legIds.filter((id) => this.deps.pending(id)).length;
    if (bracket.legIds.length === 0) return 'none';
    if (count() === bracket.legIds.length) return 'all';
    const complete = await this.deps.refreshLegs();
    const now = count();
    if (now === bracket.legIds.length) return 'all';
    if (!complete) return 'unknown';
    return now === 0 ? 'none' : 'some';
  }

  private async follow(followed: PositionBracket): Promise<void> {
    let bracket = followed;
    const market = this.deps.market(bracket.marketId, bracket.turbo);
    if (!market.ok) return;
    let pending = await this.legsPending(bracket);
    if (pending === 'none') {
      const state = this.state(bracket.id);
      // A lifted pair (no legs recorded) is looked for once per run after a fresh read of the
      // legs: the resize that placed it again may have landed after main stopped recording.
      if (bracket.legIds.length === 0 && !state.lookedForLegs) {
        state.lookedForLegs = true;
        await this.deps.refreshLegs();
      }
      const adopted = bracket.legIds.length > 0 || state.lookedForLegs ? this.adoptLegs(bracket, market.value) : null;
      if (adopted !== null) {
        bracket = adopted;
        pending = 'all';
      }
    }
    const key = bookKey(bracket.marketId, bracket.turbo);
    const afterTrade = this.afterTrade.delete(key);
    const read = await this.deps.position(bracket.marketId, bracket.turbo, { afterTrade });
    if (!read.ok) {
      this.deps.log(`position TP/SL ${bracket.id}: the position could not be read: ${read.message}`);
      return;
    }
    const position = ok(read.value.size);
    const prices = [bracket.takeProfit, bracket.stopLoss].filter((price): price is bigint => price !== null);
    const plan = planPositionLegs({ side: bracket.side, position: position.value, placed: bracket.placed, pending, signable: (size) => signablePairSize(market.value, size, prices) });
    await this.carryOut(bracket, market.value, plan, position.value);
  }

  /**
   * The recorded legs are gone but the book holds a pair at this bracket's side and prices: the
   * resize that placed them was answered after main stopped (a crash, or a quit mid-request) and
   * never recorded. Those legs are the pair: recorded and managed again instead of ending the
   * bracket and leaving them unmanaged on the book.
   */
  private adoptLegs(bracket: PositionBracket, market: Market): PositionBracket | null {
    const prices = [bracket.takeProfit, bracket.stopLoss].filter((price): price is bigint => price !== null);
    const legs = this.deps.pendingLegs(bracket.marketId, bracket.turbo).filter((leg) => leg.side === bracket.side && prices.includes(leg.triggerPrice));
    const byPrice = prices.map((price) => legs.filter((leg) => leg.triggerPrice === price));
    if (byPrice.some((found) => found.length !== 1)) return null;
    const found = byPrice.map((one) => one[0]!);
    const quantity = found[0]!.quantity;
    if (quantity === null || found.some((leg) => leg.quantity !== quantity)) return null;
    const adopted: PositionBracket = { ...bracket, legIds: found.map((leg) => leg.triggerId), placed: quantity };
    const saved = this.save((brackets) => brackets.map((candidate) => (candidate.id === bracket.id ? adopted : candidate)));
    if (!saved.ok) return null;
    this.deps.notice('info', `Position TP/SL on ${pairName(market)}: its legs placed just before the app stopped were found on the book and are managed again (${describeBracket(adopted, market)}).`, 'POSITION_BRACKET_RESUMED');
    return adopted;
  }

  private async carryOut(bracket: PositionBracket, market: Market, plan: PositionLegsPlan, position: bigint): Promise<void> {
    if (plan.kind === 'keep') return;
    const where = pairName(market);
    if (plan.kind === 'end') {
      this.end(bracket);
      const why = plan.why === 'legs-gone' ? 'its legs are no longer pending (one fired, or they were cancelled)' : plan.why === 'flat' ? 'the position is flat' : 'the position changed side';
      this.deps.notice('info', `Position TP/SL on ${where} ended: ${why}.`, 'POSITION_BRACKET_ENDED');
      return;
    }
    const state = this.state(bracket.id);
    // Paced like the trailing stops: the next pass resizes to the latest position once the pause is over.
    if (plan.kind === 'place' && this.deps.clock.now() - state.lastChangeAt < MIN_MOVE_MS) return;
    const cancel = bracket.legIds.filter((id) => this.deps.pending(id)) as B256[];
    const quantity = plan.kind === 'place' ? plan.quantity : null;
    state.lastChangeAt = this.deps.clock.now();
    const description = plan.kind === 'place' ? `Resize the position TP/SL on ${where} to ${sizeText(market, plan.quantity)}` : `Cancel the position TP/SL on ${where} (${plan.why})`;
    const replaced = await this.deps.replace({ marketId: bracket.marketId, turbo: bracket.turbo, cancel, side: bracket.side, takeProfit: bracket.takeProfit, stopLoss: bracket.stopLoss, quantity, stopSlippageBps: STOP_SLIPPAGE_BPS, description });
    const current = this.list().find((candidate) => candidate.id === bracket.id);
    if (!replaced.ok) {
      state.retryAt = this.deps.clock.now() + RETRY_MS;
      this.deps.notice('warning', `The position TP/SL on ${where} could not be ${plan.kind === 'place' ? `resized to ${sizeText(market, plan.quantity)}` : 'cancelled'}; it stays at ${sizeText(market, bracket.placed)}: ${replaced.message}`, replaced.code);
      return;
    }
    // Stopped (the kill switch) while the change was in flight: nothing more is recorded.
    if (current === undefined) return;
    if (plan.kind === 'cancel' && plan.end) {
      this.end(current);
      this.deps.notice('info', `Position TP/SL on ${where} cancelled: ${plan.why === 'flat' ? 'the position is flat' : 'the position changed side'}.`, 'POSITION_BRACKET_ENDED');
      return;
    }
    const next: PositionBracket = { ...current, legIds: replaced.value.triggers.map((leg) => leg.triggerId), placed: quantity ?? 0n };
    const saved = this.save((brackets) => brackets.map((candidate) => (candidate.id === next.id ? next : candidate)));
    if (!saved.ok) this.deps.log(`position TP/SL ${next.id}: could not save: ${saved.message}`);
    const now = this.deps.clock.now();
    if (plan.kind === 'cancel') {
      this.deps.notice('warning', `Position TP/SL on ${where} lifted: the position of ${sizeText(market, position < 0n ? -position : position)} is too small for a leg; placed again when it grows.`, 'POSITION_UNPROTECTED');
      state.lastNoticeAt = now;
      return;
    }
    if (now - state.lastNoticeAt < NOTICE_MS) return;
    state.lastNoticeAt = now;
    this.deps.notice('info', `Position TP/SL on ${where} resized to the position: ${describeBracket(next, market)}.`, 'POSITION_BRACKET_RESIZED');
  }

  private end(bracket: PositionBracket): void {
    this.save((brackets) => brackets.filter((candidate) => candidate.id !== bracket.id));
    this.runtime.delete(bracket.id);
  }

  private async waitInflight(id: string): Promise<void> {
    const inflight = this.runtime.get(id)?.inflight;
    if (inflight) await inflight;
  }

  private state(id: string): Runtime {
    let state = this.runtime.get(id);
    if (state === undefined) {
      state = { inflight: null, lastChangeAt: Number.NEGATIVE_INFINITY, lastNoticeAt: Number.NEGATIVE_INFINITY, retryAt: 0, lookedForLegs: false };
      this.runtime.set(id, state);
    }
    return state;
  }

  private save(change: (brackets: readonly PositionBracket[]) => PositionBracket[]): Result<null> {
    const saved = this.deps.store.update((current) => {
      const mine = current.brackets.filter((bracket) => bracket.networkId === this.deps.networkId);
      const others = current.brackets.filter((bracket) => bracket.networkId !== this.deps.networkId);
      return { ...current, brackets: [...others, ...change(mine)] };
    });
    if (!saved.ok) return saved;
    this.deps.publish(this.list());
    return ok(null);
  }
}

function sideProblem(market: Market, long: boolean, mark: bigint, takeProfit: bigint | null, stopLoss: bigint | null): { field: string; message: string } | null {
  const at = `the mark ${priceText(market, mark)}`;
  if (takeProfit !== null && (long ? takeProfit <= mark : takeProfit >= mark)) return { field: 'takeProfit', message: `takeProfit: ${priceText(market, takeProfit)} is not ${long ? 'above' : 'below'} ${at}; a take-profit of a ${long ? 'long' : 'short'} sits ${long ? 'above' : 'below'} the price.` };
  if (stopLoss !== null && (long ? stopLoss >= mark : stopLoss <= mark)) return { field: 'stopLoss', message: `stopLoss: ${priceText(market, stopLoss)} is not ${long ? 'below' : 'above'} ${at}; a stop-loss of a ${long ? 'long' : 'short'} sits ${long ? 'below' : 'above'} the price.` };
  return null;
}

/** "sell 0.5 ETH: TP 3,100.00 USDC, SL 2,900.00 USDC". */
export function describeBracket(bracket: PositionBracket, market: Market | null): string {
  const price = (raw: bigint) => (market === null ? raw.toString() : priceText(market, raw));
  const size = market === null ? bracket.placed.toString() : sizeText(market, bracket.placed);
  const legs = [bracket.takeProfit === null ? null : `TP ${price(bracket.takeProfit)}`, bracket.stopLoss === null ? null : `SL ${price(bracket.stopLoss)}`].filter((part) => part !== null);
  return `${bracket.side.toLowerCase()} ${size}: ${legs.join(', ')}`;
}

/** "TP 20 ticks, SL 10 ticks from the entry" / "TP 1.5 %, SL 0.75 % from the entry". */
export function describeAuto(auto: Pick<AutoBracket, 'unit' | 'takeProfit' | 'stopLoss'>): string {
  const offset = (value: bigint) => (auto.unit === 'ticks' ? `${value} ticks` : `${Number(value) / 100} %`);
  const legs = [auto.takeProfit === null ? null : `TP ${offset(auto.takeProfit)}`, auto.stopLoss === null ? null : `SL ${offset(auto.stopLoss)}`].filter((part) => part !== null);
  return `${legs.join(', ')} from the entry`;
}
