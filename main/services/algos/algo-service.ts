// Execution algorithms run by main (TWAP, scale, iceberg, chase): main places and follows their
// children through the trading service's own paths (submitter: guards, journal, nonce), so each
// child is guarded, journaled and nonced like a click, and tagged with its parent in the journal.
// Every child is written to the algorithms' file (status `signing`) before it is signed; a crash at
// any later point leaves it there to be found again through the journal and the exchange (never
// signed again). Schedules run on an injected clock. After a restart every algorithm that was
// running comes back paused: nothing restarts trading by itself.
import { priceText } from '../../../shared/market/price-text';
import type { Clock } from '../../../shared/clock';
import type { B256 } from '../../../shared/encoding/b256';
import { formatUnits } from '../../../shared/encoding/units';
import type { CancelReport, OrderView, PlacedOrder } from '../../../shared/ipc/views';
import type { AlgoPlannedChild, AlgoPreview, AlgoSpec, AlgoView } from '../../../shared/ipc/views/algos';
import type { Market } from '../../../shared/market/market';
import type { Side } from '../../../shared/market/order-type';
import { truncateQuantity } from '../../../shared/market/tick';
import { validateOrder } from '../../../shared/market/validate-order';
import { PollLoop } from '../../../shared/poll-loop';
import { fail, ok, type Failure, type Result } from '../../../shared/result';
import { packBatches } from '../../../shared/algos/batches';
import { AmendWindow, chasePrice } from '../../../shared/algos/chase-plan';
import { averagePrice, slippageBps } from '../../../shared/algos/fill-stats';
import { nextIcebergSlice } from '../../../shared/algos/iceberg-plan';
import { planScale } from '../../../shared/algos/scale-plan';
import { seededRandom } from '../../../shared/algos/seeded-random';
import { planTwap } from '../../../shared/algos/twap-plan';
import type { JournalRecord, SignedEntry } from '../journal/journal';
import { pairName } from '../trading/order-intents';
import type { AlgoParent } from '../trading/trading-service';
import type { PlaceIntent } from '../trading/order-intents';
import type { AlgoChild, AlgoRecord, AlgoStore } from './algo-store';
import { ALGO_CODES, ALGO_REASONS } from './codes';

/** How often main looks at the algorithms (fills, the touch, the schedule). */
export const POLL_MS = 1_000;
/** Ended algorithms kept (per network) for the panel; older ones are dropped from the file. */
const ENDED_KEPT = 50;
/** Children shown per algorithm (the view's last 200). */
const CHILDREN_SHOWN = 200;
/** The rate budget's slots an algorithm leaves to the trader's clicks (docs/protocol.md). */
export const RATE_HEADROOM = 2;

export interface BookTouch {
  readonly bestBid: bigint | null;
  readonly bestAsk: bigint | null;
}

export interface AlgoServiceDeps {
  readonly networkId: string;
  readonly store: AlgoStore;
  /** The schedules' clock (the sandbox's in tests). */
  readonly clock: Clock;
  /** A seed for a TWAP's randomisation (persisted with it). */
  readonly seed: () => number;
  /** The trading account children are signed for; null before there is one. */
  readonly account: () => string | null;
  readonly market: (marketId: string, turbo: boolean) => Result<Market>;
  readonly touch: (market: Market, turbo: boolean) => Promise<Result<BookTouch>>;
  readonly place: (input: PlaceIntent & { marketId: string; turbo: boolean; parent: AlgoParent }) => Promise<Result<PlacedOrder>>;
  readonly placeBatch: (marketId: string, turbo: boolean, intents: readonly PlaceIntent[], parent: AlgoParent) => Promise<Result<PlacedOrder>>;
  readonly amend: (marketId: string, turbo: boolean, orderId: B256, price: bigint, parent: AlgoParent) => Promise<Result<PlacedOrder>>;
  readonly cancel: (marketId: string, turbo: boolean, orderIds: readonly B256[]) => Promise<Result<CancelReport>>;
  /**
   * The order as main holds it, or read from the exchange (and applied to the trading service's
   * list) when main does not hold it or `fresh` asks for the exchange's own word.
   */
  readonly readOrder: (marketId: string, turbo: boolean, orderId: B256, fresh: boolean) => Promise<Result<OrderView>>;
  /** The journal's requests signed under a parent tag. */
  readonly journalRecords: (parent: string) => readonly JournalRecord[];
  /** The orders a journaled request created, found on the exchange. */
  readonly ordersOf: (entry: SignedEntry) => Promise<Result<readonly OrderView[]>>;
  /** Whether the trader's rate budget has room for an algorithm's request now (RATE_HEADROOM slots left). */
  readonly rateHeadroom: () => boolean;
  readonly notice: (level: 'info' | 'warning' | 'error', text: string, code?: string) => void;
  readonly log: (line: string) => void;
  readonly publish: (algos: readonly AlgoView[]) => void;
}

type Reason = NonNullable<AlgoRecord['reason']>;

const OPEN_STATUSES: ReadonlySet<AlgoChild['status']> = new Set(['signing', 'open', 'unknown']);

function isPending(child: AlgoChild): boolean {
  return OPEN_STATUSES.has(child.status);
}

export class AlgoService {
  private algos: AlgoRecord[];
  private readonly inflight = new Map<string, Promise<void>>();
  /** Algorithms with a placement being signed now (its children are not followed meanwhile). */
  private readonly placing = new Set<string>();
  private readonly loop: PollLoop;
  private ids = 0;

  constructor(private readonly deps: AlgoServiceDeps) {
    this.algos = deps.store.load();
    this.loop = new PollLoop(deps.clock, POLL_MS, () => this.pass());
  }

  // ---- reading -----------------------------------------------------------------------------

  private mine(): AlgoRecord[] {
    return this.algos.filter((algo) => algo.networkId === this.deps.networkId);
  }

  private find(id: string): AlgoRecord | undefined {
    return this.algos.find((algo) => algo.id === id && algo.networkId === this.deps.networkId);
  }

  list(): readonly AlgoView[] {
    return this.mine().map((algo) => this.view(algo));
  }

  view(algo: AlgoRecord): AlgoView {
    const market = this.deps.market(algo.spec.marketId, algo.spec.turbo);
    const filled = filledOf(algo);
    const average = market.ok ? averagePrice(algo.children.filter((child) => child.filled > 0n).map((child) => ({ price: child.fillPrice, quantity: child.filled })), market.value) : null;
    return {
      id: algo.id,
      networkId: algo.networkId,
      account: algo.account,
      spec: algo.spec,
      state: algo.state,
      reason: algo.reason,
      filled,
      remaining: algo.spec.quantity - filled,
      averagePrice: average,
      arrivalPrice: algo.arrivalPrice,
      slippageBps: average === null || algo.arrivalPrice === null ? null : slippageBps(algo.spec.side, average, algo.arrivalPrice),
      counts: {
        open: algo.children.filter(isPending).length,
        filled: algo.children.filter((child) => child.status === 'filled').length,
        cancelled: algo.children.filter((child) => child.status === 'cancelled').length,
      },
      children: algo.children.slice(-CHILDREN_SHOWN).map((child) => ({
        journalId: child.journalId ?? '',
        orderId: child.orderId,
        price: child.price,
        quantity: child.quantity,
        filled: child.filled,
        status: child.status,
        placedAt: child.placedAt,
      })),
      nextAt: this.nextAt(algo),
      notes: algo.notes,
      startedAt: algo.startedAt,
      updatedAt: algo.updatedAt,
    };
  }

  private nextAt(algo: AlgoRecord): number | null {
    if (algo.state !== 'running' || algo.spec.params.kind !== 'twap') return null;
    return twapDueAt(algo);
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /**
   * Start following: every algorithm of this network that was running comes back paused (a
   * restart), and its children are reconciled with the journal and the exchange once `reconciled`
   * (the submitter's settling of requests left open) is done.
   */
  start(reconciled: Promise<unknown> = Promise.resolve()): Promise<void> {
    const now = this.deps.clock.now();
    const resumed = this.mine().filter((algo) => algo.state === 'running');
    for (const algo of resumed) {
      this.replace({ ...algo, state: 'paused', reason: { code: ALGO_REASONS.RESTART, text: 'Paused because the terminal restarted: resume it or cancel it.' }, pausedAt: now, updatedAt: now });
    }
    this.save();
    if (resumed.length > 0) this.deps.notice('warning', `${resumed.length} execution algorithm${resumed.length === 1 ? ' was' : 's were'} paused by the restart; resume or cancel ${resumed.length === 1 ? 'it' : 'them'} in Working algorithms.`, ALGO_REASONS.RESTART);
    this.loop.start();
    return reconciled.then(() => this.poll());
  }

  dispose(): void {
    this.loop.stop();
  }

  /** What starting it would do, with nothing signed. */
  async preview(spec: AlgoSpec): Promise<Result<AlgoPreview>> {
    const market = this.deps.market(spec.marketId, spec.turbo);
    if (!market.ok) return market;
    const touch = await this.deps.touch(market.value, spec.turbo);
    const planned = this.plan(spec, market.value, touch.ok ? touch.value : null, 0);
    if (!planned.ok) return planned;
    return ok({ spec, children: planned.value.children, batches: planned.value.batches, notes: planned.value.notes });
  }

  private plan(spec: AlgoSpec, market: Market, touch: BookTouch | null, seed: number): Result<{ children: AlgoPlannedChild[]; batches: number; notes: string[]; schedule: AlgoRecord['schedule']; planned: AlgoRecord['planned'] }> {
    const params = spec.params;
    const arrival = touch === null ? null : arrivalOf(spec.side, touch);
    const beyond = (price: bigint) => spec.limitPrice !== null && (spec.side === 'Buy' ? price > spec.limitPrice : price < spec.limitPrice);
    switch (params.kind) {
      case 'twap': {
        const twap = planTwap(market, { quantity: spec.quantity, durationMs: params.durationMs, intervalMs: params.intervalMs, sizeJitterBps: params.sizeJitterBps, timeJitterBps: params.timeJitterBps, referencePrice: arrival }, seededRandom(seed));
        if (!twap.ok) return twap;
        const price = arrival ?? spec.limitPrice ?? 0n;
        return ok({ children: twap.value.slices.map((slice) => ({ price, quantity: slice.quantity })), batches: twap.value.slices.length, notes: [...twap.value.notes], schedule: twap.value.slices.map((slice) => ({ offsetMs: slice.offsetMs, quantity: slice.quantity })), planned: [] });
      }
      case 'scale': {
        const scale = planScale(market, { side: spec.side, quantity: spec.quantity, from: params.from, to: params.to, count: params.count, shape: params.shape });
        if (!scale.ok) return scale;
        const outside = scale.value.orders.find((order) => beyond(order.price));
        if (outside !== undefined) return fail(ALGO_CODES.CANNOT_PLAN, `An order at ${priceWords(market, outside.price)} is beyond the price limit ${priceWords(market, spec.limitPrice ?? 0n)}.`, { field: 'limitPrice' });
        const orders = scale.value.orders.map((order) => ({ price: order.price, quantity: order.quantity }));
        return ok({ children: orders, batches: packBatches(orders).length, notes: [...scale.value.notes], schedule: [], planned: orders });
      }
      case 'iceberg': {
        if (beyond(params.price)) return fail(ALGO_CODES.CANNOT_PLAN, `The iceberg's price ${priceWords(market, params.price)} is beyond its price limit ${priceWords(market, spec.limitPrice ?? 0n)}.`, { field: 'limitPrice' });
        if (params.visible > spec.quantity) return fail(ALGO_CODES.CANNOT_PLAN, 'The visible size is larger than the total.', { field: 'visible' });
        const first = nextIcebergSlice(market, { visible: params.visible, remaining: spec.quantity, price: params.price });
        const problem = orderProblem(market, spec.side, params.price, first);
        if (problem !== null) return fail(ALGO_CODES.CANNOT_PLAN, `The visible slice: ${problem.message}`, { field: 'visible' });
        return ok({ children: [{ price: params.price, quantity: first }], batches: 1, notes: [], schedule: [], planned: [] });
      }
      case 'chase': {
        if (arrival === null) return fail(ALGO_CODES.CANNOT_PLAN, 'The book has no price on the side a chase follows.', { field: 'marketId' });
        const join = joinOf(spec.side, touch);
        if (join === null) return fail(ALGO_CODES.CANNOT_PLAN, `The book has no ${spec.side === 'Buy' ? 'bid' : 'ask'} for a chase to follow.`, { field: 'marketId' });
        const first = chasePrice(market, { side: spec.side, touch: join, offsetTicks: params.offsetTicks, limitPrice: spec.limitPrice });
        if (first.kind === 'beyond-limit') return fail(ALGO_CODES.CANNOT_PLAN, `The chase would start at ${priceWords(market, first.price)}, beyond the price limit ${priceWords(market, spec.limitPrice ?? 0n)}.`, { field: 'limitPrice' });
        return ok({ children: [{ price: first.price, quantity: spec.quantity }], batches: 1, notes: [], schedule: [], planned: [] });
      }
    }
  }

  async startAlgo(spec: AlgoSpec): Promise<Result<AlgoView>> {
    const account = this.deps.account();
    if (account === null) return fail('NO_TRADE_ACCOUNT', 'There is no trading account to run an algorithm for yet');
    const market = this.deps.market(spec.marketId, spec.turbo);
    if (!market.ok) return market;
    const touch = await this.deps.touch(market.value, spec.turbo);
    if (!touch.ok) return touch;
    const arrival = arrivalOf(spec.side, touch.value);
    if (arrival === null && (spec.params.kind === 'twap' || spec.params.kind === 'chase')) return fail(ALGO_CODES.CANNOT_PLAN, `The book has no ${spec.side === 'Buy' ? 'ask' : 'bid'} to start from.`, { field: 'marketId' });
    const seed = Math.floor(this.deps.seed() * 0x7fff_ffff);
    const planned = this.plan(spec, market.value, touch.value, seed);
    if (!planned.ok) return planned;
    const now = this.deps.clock.now();
    const algo: AlgoRecord = {
      id: this.newId(spec.params.kind, now),
      networkId: this.deps.networkId,
      account,
      spec,
      state: 'running',
      reason: null,
      arrivalPrice: arrival,
      seed,
      schedule: planned.value.schedule,
      scheduleBase: now,
      next: 0,
      planned: planned.value.planned,
      amendTimes: [],
      pausedAt: null,
      children: [],
      notes: planned.value.notes,
      startedAt: now,
      updatedAt: now,
    };
    this.algos.push(algo);
    const saved = this.save();
    if (!saved.ok) {
      this.algos = this.algos.filter((candidate) => candidate !== algo);
      return saved;
    }
    this.deps.notice('info', `${this.title(algo)} started: ${describeSpec(spec, market.value)}.`, 'ALGO_STARTED');
    this.loop.schedule(0);
    return ok(this.view(algo));
  }

  /** An id no algorithm in the file has (the clock may not have moved since one started before a restart). */
  private newId(kind: AlgoSpec['params']['kind'], now: number): string {
    for (;;) {
      const id = `${kindLabel(kind).toLowerCase()}-${now.toString(36)}-${(++this.ids).toString(36)}`;
      if (!this.algos.some((algo) => algo.id === id)) return id;
    }
  }

  async pause(id: string): Promise<Result<AlgoView>> {
    const algo = this.find(id);
    if (algo === undefined) return notFound(id);
    if (algo.state !== 'running') return fail(ALGO_CODES.WRONG_STATE, `${this.title(algo)} is ${algo.state}, not running.`);
    this.setPaused(algo, { code: ALGO_REASONS.BY_TRADER, text: 'Paused by you.' });
    // A child being placed now lands before this answers: the view then counts it.
    await this.inflight.get(id);
    return ok(this.view(this.find(id) ?? algo));
  }

  async resume(id: string): Promise<Result<AlgoView>> {
    let algo = this.find(id);
    if (algo === undefined) return notFound(id);
    if (algo.state !== 'paused') return fail(ALGO_CODES.WRONG_STATE, `${this.title(algo)} is ${algo.state}, not paused.`);
    if (algo.account !== this.deps.account()) return fail(ALGO_CODES.WRONG_STATE, `${this.title(algo)} was started for trading account ${algo.account}, not the one in use now.`);
    await this.inflight.get(id);
    await this.follow(id);
    algo = this.find(id) ?? algo;
    if (algo.children.some((child) => child.status === 'unknown' || child.status === 'signing')) {
      return fail(ALGO_CODES.CHILD_UNKNOWN, `${this.title(algo)}: a child's outcome is still being checked with the exchange; resume it once it is known.`);
    }
    const now = this.deps.clock.now();
    const pausedFor = algo.pausedAt === null ? 0 : Math.max(0, now - algo.pausedAt);
    this.replace({ ...algo, state: 'running', reason: null, pausedAt: null, scheduleBase: algo.scheduleBase + pausedFor, updatedAt: now });
    const saved = this.save();
    if (!saved.ok) return saved;
    this.loop.schedule(0);
    return ok(this.view(this.find(id)!));
  }

  async amendLimit(id: string, limitPrice: bigint | null): Promise<Result<AlgoView>> {
    const algo = this.find(id);
    if (algo === undefined) return notFound(id);
    if (algo.state === 'finished' || algo.state === 'cancelled') return fail(ALGO_CODES.WRONG_STATE, `${this.title(algo)} is ${algo.state}.`);
    const market = this.deps.market(algo.spec.marketId, algo.spec.turbo);
    if (!market.ok) return market;
    const spec = { ...algo.spec, limitPrice };
    const beyond = (price: bigint) => limitPrice !== null && (spec.side === 'Buy' ? price > limitPrice : price < limitPrice);
    if (spec.params.kind === 'iceberg' && beyond(spec.params.price)) return fail(ALGO_CODES.CANNOT_PLAN, `The iceberg rests at ${priceWords(market.value, spec.params.price)}, beyond that limit.`, { field: 'limitPrice' });
    if (spec.params.kind === 'scale' && algo.planned.slice(algo.next).some((order) => beyond(order.price))) return fail(ALGO_CODES.CANNOT_PLAN, 'Scale orders not placed yet are beyond that limit.', { field: 'limitPrice' });
    await this.inflight.get(id);
    const current = this.find(id) ?? algo;
    this.replace({ ...current, spec, updatedAt: this.deps.clock.now() });
    const saved = this.save();
    if (!saved.ok) return saved;
    // A child resting beyond a tightened limit is cancelled: no child stays outside the limit.
    const outside = current.children.filter((child) => child.status === 'open' && child.orderId !== null && beyond(child.price)).map((child) => child.orderId as B256);
    if (outside.length > 0) {
      const cancelled = await this.deps.cancel(current.spec.marketId, current.spec.turbo, outside);
      if (!cancelled.ok || cancelled.value.failed.length > 0) {
        this.deps.notice('warning', `${this.title(current)}: an order beyond the new limit could not be cancelled: ${cancelled.ok ? cancelled.value.failed.map((failure) => failure.reason).join('; ') : cancelled.message}`, 'ALGO_CHILD_CANCEL_FAILED');
      }
      await this.follow(id);
    }
    this.loop.schedule(0);
    return ok(this.view(this.find(id)!));
  }

  /** Stop it (nothing is signed for it after this) and cancel its open children. */
  async cancel(id: string): Promise<Result<AlgoView>> {
    const algo = this.find(id);
    if (algo === undefined) return notFound(id);
    if (algo.state === 'finished' || algo.state === 'cancelled') return fail(ALGO_CODES.WRONG_STATE, `${this.title(algo)} is already ${algo.state}.`);
    this.end(algo, 'cancelled', { code: ALGO_REASONS.CANCELLED_BY_TRADER, text: 'Cancelled by you.' });
    await this.inflight.get(id);
    await this.follow(id);
    const current = this.find(id)!;
    const open = current.children.filter((child) => child.status === 'open' && child.orderId !== null).map((child) => child.orderId as B256);
    if (open.length > 0) {
      const cancelled = await this.deps.cancel(current.spec.marketId, current.spec.turbo, open);
      if (!cancelled.ok || cancelled.value.failed.length > 0) {
        const why = cancelled.ok ? cancelled.value.failed.map((failure) => failure.reason).join('; ') : cancelled.message;
        this.deps.notice('warning', `${this.title(current)} was cancelled, but some of its orders were not: ${why}. Check Open orders.`, 'ALGO_CHILD_CANCEL_FAILED');
      }
      await this.follow(id);
    }
    return ok(this.view(this.find(id)!));
  }

  /**
   * The kill switch, before its sweep: every algorithm of the market (or all) is cancelled and
   * nothing is signed for it after this; a placement in flight is waited for, so that the sweep
   * lists the child it left. The sweep cancels the children.
   */
  async stopAll(marketId: string | undefined): Promise<number> {
    const stopping = this.mine().filter((algo) => (algo.state === 'running' || algo.state === 'paused') && (marketId === undefined || algo.spec.marketId === marketId));
    for (const algo of stopping) this.end(algo, 'cancelled', { code: ALGO_REASONS.KILL_SWITCH, text: 'Cancelled by the kill switch; its open orders were swept with the rest.' });
    await Promise.all(stopping.map((algo) => this.inflight.get(algo.id)));
    if (stopping.length > 0) {
      this.deps.notice('warning', `${stopping.length} execution algorithm${stopping.length === 1 ? ' was' : 's were'} cancelled by the kill switch.`, ALGO_REASONS.KILL_SWITCH);
      // The sweep's cancels are read back on the next passes.
      this.loop.schedule(POLL_MS);
    }
    return stopping.length;
  }

  // ---- the passes --------------------------------------------------------------------------

  /** Orders changed (a fill, an end): the next pass comes now rather than on the interval. */
  ordersChanged(): void {
    if (this.mine().some((algo) => algo.children.some(isPending))) this.loop.schedule(0);
  }

  /** One pass now (tests call it directly); a pass under way is joined, not doubled. */
  poll(): Promise<void> {
    return this.loop.poll();
  }

  private async pass(): Promise<void> {
    const work: Promise<void>[] = [];
    for (const algo of this.mine()) {
      if (this.inflight.has(algo.id)) continue;
      const active = algo.state === 'running' || algo.children.some(isPending);
      if (!active) continue;
      const turn = this.turn(algo.id).finally(() => this.inflight.delete(algo.id));
      this.inflight.set(algo.id, turn);
      work.push(turn);
    }
    await Promise.all(work);
  }

  private async turn(id: string): Promise<void> {
    try {
      await this.follow(id);
      const algo = this.find(id);
      if (algo === undefined || algo.state !== 'running') return;
      if (filledOf(algo) >= algo.spec.quantity) {
        this.end(algo, 'finished', { code: ALGO_REASONS.FILLED, text: 'The total is filled.' });
        return;
      }
      // Its children are signed for the account it started with, never for another one selected since.
      if (algo.account !== this.deps.account()) return;
      const market = this.deps.market(algo.spec.marketId, algo.spec.turbo);
      if (!market.ok) return;
      // The trader's clicks keep their share of the rate budget: the algorithm waits for its turn.
      if (!this.deps.rateHeadroom()) return;
      switch (algo.spec.params.kind) {
        case 'twap':
          await this.stepTwap(algo, market.value);
          break;
        case 'scale':
          await this.stepScale(algo);
          break;
        case 'iceberg':
          await this.stepIceberg(algo, market.value);
          break;
        case 'chase':
          await this.stepChase(algo, market.value);
          break;
      }
    } catch (error) {
      this.deps.log(`algorithm ${id}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  /** Read each child not ended yet from the journal and the exchange; save and publish on a change. */
  private async follow(id: string): Promise<void> {
    const algo = this.find(id);
    if (algo === undefined) return;
    let changed = false;
    for (const child of algo.children) {
      if (!isPending(child)) continue;
      const next = await this.refreshChild(algo, child);
      if (next === child) continue;
      changed = true;
      const current = this.find(id);
      if (current === undefined) return;
      this.replace({ ...current, children: current.children.map((candidate) => (candidate.key === child.key ? next : candidate)), updatedAt: this.deps.clock.now() });
    }
    if (changed) this.save();
  }

  private async refreshChild(algo: AlgoRecord, child: AlgoChild): Promise<AlgoChild> {
    if (child.orderId !== null) {
      const read = await this.deps.readOrder(algo.spec.marketId, algo.spec.turbo, child.orderId as B256, false);
      if (!read.ok) return child;
      if (read.value.status !== 'cancelled') return withOrder(child, read.value);
      // A cancelled child is never read again: what it filled before its cancel is taken from the
      // exchange, not from a stream that may not have told the last fill yet.
      const final = await this.deps.readOrder(algo.spec.marketId, algo.spec.turbo, child.orderId as B256, true);
      return final.ok ? withOrder(child, final.value) : child;
    }
    // Signing or unknown: what the journal says of the request that signed it.
    const records = this.deps.journalRecords(tagOf(algo, child));
    const record = records.at(-1);
    if (record === undefined) {
      // Nothing signed under its tag: only a placement that never reached the journal (a refusal
      // before signing, or a crash before it) leaves this; while a placement is in flight the
      // child is not followed.
      return child.status === 'signing' && !this.placing.has(algo.id) ? { ...child, status: 'refused' } : child;
    }
    const withJournal = { ...child, journalId: record.signed.id };
    const outcome = record.outcome?.status;
    const reconciled = record.reconciled?.status;
    if (reconciled === 'not-landed' || (reconciled === undefined && (outcome === 'refused' || outcome === 'reverted'))) return { ...withJournal, status: 'refused' };
    if (reconciled === undefined && (outcome === undefined || outcome === 'unknown')) return { ...withJournal, status: this.placing.has(algo.id) && child.status === 'signing' ? 'signing' : 'unknown' };
    // Landed: its order is found among the account's orders.
    const orders = await this.deps.ordersOf(record.signed);
    if (!orders.ok) return { ...withJournal, status: 'unknown' };
    const siblings = algo.children.filter((candidate) => candidate.key !== child.key && candidate.orderId !== null).map((candidate) => candidate.orderId);
    const match = matchOrder(child, orders.value.filter((order) => !siblings.includes(order.orderId)));
    if (match === undefined) return { ...withJournal, status: outcome === 'accepted' ? 'cancelled' : 'refused' };
    return withOrder({ ...withJournal, orderId: match.orderId }, match);
  }

  // ---- placing children --------------------------------------------------------------------

  /**
   * Record the children (status `signing`) durably, then sign them in one request tagged with the
   * parent; the answer names their orders. Nothing is signed when the record cannot be saved or the
   * algorithm stopped running.
   */
  private async placeChildren(id: string, orders: readonly { price: bigint; quantity: bigint; intent: PlaceIntent; label: string }[]): Promise<Result<null>> {
    const algo = this.find(id);
    if (algo === undefined || algo.state !== 'running' || orders.length === 0) return ok(null);
    const now = this.deps.clock.now();
    const first = algo.children.length + 1;
    const children: AlgoChild[] = orders.map((order, index) => ({
      key: `c${first}`,
      journalId: null,
      orderId: null,
      price: order.price,
      quantity: order.quantity,
      filled: 0n,
      fillPrice: 0n,
      status: 'signing',
      placedAt: now,
      label: order.label,
      ...(index === 0 ? {} : { key: `c${first}.${index}` }),
    }));
    this.replace({ ...algo, children: [...algo.children, ...children], updatedAt: now });
    const saved = this.save();
    if (!saved.ok) {
      this.replace(algo);
      this.setPaused(algo, { code: ALGO_REASONS.REFUSED, text: `The child could not be recorded before signing, so it was not signed: ${saved.message}` });
      return saved;
    }
    const parent: AlgoParent = { tag: `${algo.id}/c${first}`, label: `${this.title(algo)} ${orders.length === 1 ? orders[0]!.label : `${orders[0]!.label}…${orders.at(-1)!.label}`}` };
    this.placing.add(id);
    const placed = await (orders.length === 1
      ? this.deps.place({ ...orders[0]!.intent, marketId: algo.spec.marketId, turbo: algo.spec.turbo, parent })
      : this.deps.placeBatch(algo.spec.marketId, algo.spec.turbo, orders.map((order) => order.intent), parent)
    ).finally(() => this.placing.delete(id));
    this.settlePlaced(id, children, placed);
    return placed.ok ? ok(null) : placed;
  }

  /** Fold a placement's answer into its children; a refusal pauses the algorithm, naming why. */
  private settlePlaced(id: string, children: readonly AlgoChild[], placed: Result<PlacedOrder>): void {
    const algo = this.find(id);
    if (algo === undefined) return;
    const keys = new Set(children.map((child) => child.key));
    let next: AlgoChild[];
    if (placed.ok) {
      const used = new Set<string>();
      // An amend's answer may name the order it replaced too: never taken for the new child.
      const replaced = placed.value.replacedOrderId;
      next = algo.children.map((child) => {
        if (!keys.has(child.key)) return child;
        const order = matchOrder(child, placed.value.orders.filter((candidate) => !used.has(candidate.orderId) && candidate.orderId !== replaced));
        if (order === undefined) return { ...child, journalId: placed.value.journalId, status: 'unknown' };
        used.add(order.orderId);
        return withOrder({ ...child, journalId: placed.value.journalId, orderId: order.orderId }, order);
      });
    } else {
      const journalId = typeof placed.details?.journalId === 'string' ? placed.details.journalId : null;
      const unknown = journalId !== null && this.deps.journalRecords(`${algo.id}/${children[0]!.key}`).some((record) => record.reconciled === null && (record.outcome === null || record.outcome.status === 'unknown'));
      next = algo.children.map((child) => (keys.has(child.key) ? { ...child, journalId, status: unknown ? 'unknown' : 'refused' } : child));
    }
    this.replace({ ...algo, children: next, updatedAt: this.deps.clock.now() });
    this.save();
    if (!placed.ok) this.refused(id, placed);
  }

  private refused(id: string, failure: Failure): void {
    const algo = this.find(id);
    if (algo === undefined) return;
    const reason: Reason = failure.code.startsWith('GUARD_')
      ? { code: ALGO_REASONS.GUARD, text: `A child was refused by a guard (${failure.code}): ${failure.message}` }
      : algo.children.some((child) => child.status === 'unknown')
        ? { code: ALGO_REASONS.OUTCOME_UNKNOWN, text: `A child's answer was lost; it is being checked with the exchange: ${failure.message}` }
        : { code: ALGO_REASONS.REFUSED, text: `A child was refused (${failure.code}): ${failure.message}` };
    if (algo.state === 'running') this.setPaused(algo, reason);
  }

  // ---- TWAP --------------------------------------------------------------------------------

  private async stepTwap(algo: AlgoRecord, market: Market): Promise<void> {
    const params = algo.spec.params;
    if (params.kind !== 'twap') return;
    const due = twapDueAt(algo);
    if (due === null || this.deps.clock.now() < due) return;
    // The slice before, if it rests unfilled at the touch: cancelled now, its remainder rolled in.
    const resting = algo.children.filter((child) => child.status === 'open' && child.orderId !== null);
    if (resting.length > 0) {
      const cancelled = await this.deps.cancel(algo.spec.marketId, algo.spec.turbo, resting.map((child) => child.orderId as B256));
      if (!cancelled.ok) this.deps.log(`${algo.id}: the last slice could not be cancelled: ${cancelled.message}`);
      await this.follow(algo.id);
    }
    const current = this.find(algo.id);
    if (current === undefined || current.state !== 'running') return;
    if (current.children.some(isPending)) return; // a slice still open (its cancel failed) or unknown: the next pass
    const filled = filledOf(current);
    const index = current.next;
    const slices = current.schedule.length;
    const target = index < slices ? current.schedule.slice(0, index + 1).reduce((sum, slice) => sum + slice.quantity, 0n) : current.spec.quantity;
    let quantity = minBig(target, current.spec.quantity) - filled;
    const last = index >= slices - 1;
    const touch = await this.touchPrice(current, market, 'take');
    if (touch === null) return;
    const limited = this.beyondLimit(current, touch);
    if (limited) {
      this.setPaused(current, { code: ALGO_REASONS.PRICE_LIMIT, text: `Paused: the touch ${priceWords(market, touch)} is beyond the price limit ${priceWords(market, current.spec.limitPrice ?? 0n)}.` });
      return;
    }
    quantity = truncateQuantity(market, quantity).value;
    const price = params.slice.kind === 'touch' ? touch : capped(current, boundedPrice(current.spec.side, touch, params.slice.slippageBps));
    const tooSmall = quantity <= 0n || orderProblem(market, current.spec.side, price, quantity) !== null;
    if (tooSmall && !last) {
      // Rolled into the next slice.
      this.advance(current.id, index + 1);
      return;
    }
    if (tooSmall) {
      // The last slice: what remains is below the market's minimum order.
      this.end(current, 'finished', { code: ALGO_REASONS.ENDED, text: `Every slice was placed; ${formatUnits(current.spec.quantity - filled, market.base.decimals)} ${market.base.symbol} left unfilled is below the market's minimum order.` });
      return;
    }
    const label = index < slices ? `slice ${index + 1}/${slices}` : `catch-up ${index - slices + 1}`;
    const intent: PlaceIntent =
      params.slice.kind === 'touch'
        ? { side: current.spec.side, orderType: { kind: 'Limit' }, price, quantity }
        : { side: current.spec.side, orderType: { kind: 'BoundedMarket', maxPrice: current.spec.side === 'Buy' ? price : touch, minPrice: current.spec.side === 'Buy' ? touch : price }, price, quantity };
    this.advance(current.id, index + 1);
    await this.placeChildren(current.id, [{ price, quantity, intent, label }]);
  }

  // ---- scale -------------------------------------------------------------------------------

  private async stepScale(algo: AlgoRecord): Promise<void> {
    const params = algo.spec.params;
    if (params.kind !== 'scale') return;
    if (algo.next >= algo.planned.length) {
      if (algo.children.length > 0 && !algo.children.some(isPending)) {
        this.end(algo, 'finished', { code: ALGO_REASONS.ENDED, text: 'Every order was placed and has ended without the total filling (cancelled outside the algorithm).' });
      }
      return;
    }
    const batch = packBatches(algo.planned.slice(algo.next))[0] ?? [];
    const offset = algo.next;
    const count = algo.planned.length;
    this.advance(algo.id, algo.next + batch.length);
    await this.placeChildren(
      algo.id,
      batch.map((order, index) => ({
        price: order.price,
        quantity: order.quantity,
        intent: { side: algo.spec.side, orderType: { kind: params.postOnly ? 'PostOnly' : 'Limit' }, price: order.price, quantity: order.quantity },
        label: `order ${offset + index + 1}/${count}`,
      })),
    );
  }

  // ---- iceberg -----------------------------------------------------------------------------

  private async stepIceberg(algo: AlgoRecord, market: Market): Promise<void> {
    const params = algo.spec.params;
    if (params.kind !== 'iceberg') return;
    if (algo.children.some(isPending)) return;
    const remaining = algo.spec.quantity - filledOf(algo);
    if (remaining <= 0n) return;
    const quantity = nextIcebergSlice(market, { visible: params.visible, remaining, price: params.price });
    if (orderProblem(market, algo.spec.side, params.price, quantity) !== null) {
      this.end(algo, 'finished', { code: ALGO_REASONS.ENDED, text: `${formatUnits(remaining, market.base.decimals)} ${market.base.symbol} left is below the market's minimum order.` });
      return;
    }
    const shown = algo.children.length + 1;
    await this.placeChildren(algo.id, [{ price: params.price, quantity, intent: { side: algo.spec.side, orderType: { kind: 'Limit' }, price: params.price, quantity }, label: `slice ${shown}` }]);
  }

  // ---- chase -------------------------------------------------------------------------------

  private async stepChase(algo: AlgoRecord, market: Market): Promise<void> {
    const params = algo.spec.params;
    if (params.kind !== 'chase') return;
    if (algo.children.some((child) => child.status === 'signing' || child.status === 'unknown')) return;
    const touch = await this.touchPrice(algo, market, 'join');
    if (touch === null) return;
    const target = chasePrice(market, { side: algo.spec.side, touch, offsetTicks: params.offsetTicks, limitPrice: algo.spec.limitPrice });
    const current = this.find(algo.id);
    if (current === undefined || current.state !== 'running') return;
    if (target.kind === 'beyond-limit') {
      this.setPaused(current, { code: ALGO_REASONS.PRICE_LIMIT, text: `Paused: the chase would go to ${priceWords(market, target.price)}, beyond the price limit ${priceWords(market, current.spec.limitPrice ?? 0n)}.` });
      return;
    }
    const resting = current.children.find((child) => child.status === 'open' && child.orderId !== null);
    if (resting === undefined) {
      const quantity = current.spec.quantity - filledOf(current);
      if (quantity <= 0n) return;
      const label = `order ${current.children.length + 1}`;
      await this.placeChildren(current.id, [{ price: target.price, quantity, intent: { side: current.spec.side, orderType: { kind: 'Limit' }, price: target.price, quantity }, label }]);
      return;
    }
    if (resting.price === target.price) return;
    const now = this.deps.clock.now();
    const window = AmendWindow.from(params.maxAmendsPerMinute, current.amendTimes);
    if (!window.allowed(now)) return;
    window.record(now);
    this.replace({ ...current, amendTimes: window.toJSON(), updatedAt: now });
    await this.amendChild(current.id, resting, target.price);
  }

  /** Chase: the resting child replaced at a new price in one signed batch (the new child recorded first). */
  private async amendChild(id: string, resting: AlgoChild, price: bigint): Promise<void> {
    const algo = this.find(id);
    if (algo === undefined || algo.state !== 'running' || resting.orderId === null) return;
    const now = this.deps.clock.now();
    const key = `c${algo.children.length + 1}`;
    const quantity = resting.quantity - resting.filled;
    const child: AlgoChild = { key, journalId: null, orderId: null, price, quantity, filled: 0n, fillPrice: 0n, status: 'signing', placedAt: now, label: `amend ${algo.amendTimes.length}` };
    this.replace({ ...algo, children: [...algo.children, child], updatedAt: now });
    const saved = this.save();
    if (!saved.ok) {
      this.replace(algo);
      return;
    }
    const market = this.deps.market(algo.spec.marketId, algo.spec.turbo);
    const parent: AlgoParent = { tag: `${algo.id}/${key}`, label: `${this.title(algo)} ${child.label} to ${market.ok ? priceWords(market.value, price) : price.toString()}` };
    this.placing.add(id);
    const amended = await this.deps.amend(algo.spec.marketId, algo.spec.turbo, resting.orderId as B256, price, parent).finally(() => this.placing.delete(id));
    if (!amended.ok && (amended.code === 'ONCHAIN_REVERT' || amended.code === 'ORDER_NOT_OPEN')) {
      // The resting child filled (or ended) meanwhile: nothing changed; the next pass reads it.
      const current = this.find(id);
      if (current !== undefined) {
        this.replace({ ...current, children: current.children.map((candidate) => (candidate.key === key ? { ...candidate, status: 'refused' as const } : candidate)) });
        this.save();
      }
      await this.follow(id);
      return;
    }
    this.settlePlaced(id, [child], amended);
    if (amended.ok) {
      // The replaced child ended in the same batch: read what it filled before.
      await this.follow(id);
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** The touch an algorithm acts on: 'take' the opposite side's best (the arrival), 'join' its own side's best. */
  private async touchPrice(algo: AlgoRecord, market: Market, how: 'take' | 'join'): Promise<bigint | null> {
    const touch = await this.deps.touch(market, algo.spec.turbo);
    if (!touch.ok) {
      this.deps.log(`${algo.id}: no touch to act on: ${touch.message}`);
      return null;
    }
    const price = how === 'take' ? arrivalOf(algo.spec.side, touch.value) : joinOf(algo.spec.side, touch.value);
    if (price === null) this.deps.log(`${algo.id}: the book has no price on the side it needs`);
    return price;
  }

  private beyondLimit(algo: AlgoRecord, price: bigint): boolean {
    const limit = algo.spec.limitPrice;
    return limit !== null && (algo.spec.side === 'Buy' ? price > limit : price < limit);
  }

  private advance(id: string, next: number): void {
    const algo = this.find(id);
    if (algo === undefined) return;
    this.replace({ ...algo, next, updatedAt: this.deps.clock.now() });
    this.save();
  }

  private setPaused(algo: AlgoRecord, reason: Reason): void {
    const current = this.find(algo.id) ?? algo;
    if (current.state !== 'running') return;
    const now = this.deps.clock.now();
    this.replace({ ...current, state: 'paused', reason, pausedAt: now, updatedAt: now });
    this.save();
    this.deps.notice(reason.code === ALGO_REASONS.BY_TRADER ? 'info' : 'warning', `${this.title(current)} paused: ${reason.text}`, reason.code);
  }

  private end(algo: AlgoRecord, state: 'finished' | 'cancelled', reason: Reason): void {
    const current = this.find(algo.id) ?? algo;
    const now = this.deps.clock.now();
    this.replace({ ...current, state, reason, pausedAt: null, updatedAt: now });
    this.save();
    if (state === 'finished') this.deps.notice('info', `${this.title(current)} finished: ${reason.text}`, reason.code);
  }

  private title(algo: AlgoRecord): string {
    // The id without its kind: unique across restarts (the clock time it started and a counter).
    return `${kindLabel(algo.spec.params.kind)} ${algo.id.slice(algo.id.indexOf('-') + 1)}`;
  }

  private replace(next: AlgoRecord): void {
    this.algos = this.algos.map((algo) => (algo.id === next.id && algo.networkId === next.networkId ? next : algo));
  }

  private save(): Result<null> {
    // Ended algorithms are kept for the panel up to a bound per network; the oldest go first.
    const ended = this.algos.filter((algo) => (algo.state === 'finished' || algo.state === 'cancelled') && !algo.children.some(isPending));
    const byNetwork = new Map<string, AlgoRecord[]>();
    for (const algo of ended) byNetwork.set(algo.networkId, [...(byNetwork.get(algo.networkId) ?? []), algo]);
    const dropped = new Set<AlgoRecord>();
    for (const list of byNetwork.values()) {
      list.sort((left, right) => left.updatedAt - right.updatedAt);
      for (const algo of list.slice(0, Math.max(0, list.length - ENDED_KEPT))) dropped.add(algo);
    }
    if (dropped.size > 0) this.algos = this.algos.filter((algo) => !dropped.has(algo));
    const saved = this.deps.store.save(this.algos);
    if (!saved.ok) this.deps.log(`algorithms: ${saved.message}`);
    this.deps.publish(this.list());
    return saved;
  }
}

// ---- pure helpers ----------------------------------------------------------------------------

function notFound(id: string): Failure {
  return fail(ALGO_CODES.NOT_FOUND, `No execution algorithm ${id} on this network.`, { field: 'id' });
}

export function tagOf(algo: AlgoRecord, child: AlgoChild): string {
  // The children of one batch share the tag of its first (c7, c7.1, c7.2…).
  return `${algo.id}/${child.key.split('.')[0]!}`;
}

export function filledOf(algo: AlgoRecord): bigint {
  return algo.children.reduce((sum, child) => sum + child.filled, 0n);
}

function minBig(left: bigint, right: bigint): bigint {
  return left < right ? left : right;
}

/** The arrival touch: the best ask for a buy, the best bid for a sell (where it would take). */
export function arrivalOf(side: Side, touch: BookTouch): bigint | null {
  return side === 'Buy' ? touch.bestAsk : touch.bestBid;
}

/** The touch a resting order joins: the best bid for a buy, the best ask for a sell. */
export function joinOf(side: Side, touch: BookTouch | null): bigint | null {
  if (touch === null) return null;
  return side === 'Buy' ? touch.bestBid : touch.bestAsk;
}

/** A bounded market's worst price: `slippageBps` past the touch. */
export function boundedPrice(side: Side, touch: bigint, slippage: bigint): bigint {
  return side === 'Buy' ? (touch * (10_000n + slippage)) / 10_000n : (touch * (10_000n - slippage) + 9_999n) / 10_000n;
}

function capped(algo: AlgoRecord, price: bigint): bigint {
  const limit = algo.spec.limitPrice;
  if (limit === null) return price;
  return algo.spec.side === 'Buy' ? minBig(price, limit) : price > limit ? price : limit;
}

/**
 * The order a child became, among the orders of its request: the one at its price and size, else
 * the one at its price (the market rules may have lowered the size to a whole quote value when it
 * was signed).
 */
function matchOrder(child: AlgoChild, orders: readonly OrderView[]): OrderView | undefined {
  return orders.find((order) => order.price === child.price && order.quantity === child.quantity) ?? orders.find((order) => order.price === child.price);
}

function withOrder(child: AlgoChild, order: OrderView): AlgoChild {
  const status: AlgoChild['status'] = order.status === 'filled' ? 'filled' : order.status === 'cancelled' ? 'cancelled' : 'open';
  // An order's life only moves forward: a read older than what is held changes nothing.
  if (order.filled < child.filled) return child;
  // The child is that order: its size as signed (the market rules may have lowered it).
  const next = { ...child, orderId: order.orderId, quantity: order.quantity, filled: order.filled, fillPrice: order.filled > 0n ? order.averagePrice : 0n, status };
  return next.status === child.status && next.filled === child.filled && next.orderId === child.orderId && next.fillPrice === child.fillPrice && next.quantity === child.quantity ? child : next;
}

/** Why the market would refuse this order (a price off the tick, a size below its minimum), or null. */
function orderProblem(market: Market, side: Side, price: bigint, quantity: bigint): Failure | null {
  if (quantity <= 0n) return fail('INVALID_INPUT', 'nothing to place');
  const checked = validateOrder(market, { side, price, quantity, order_type: { kind: 'Limit', price, timestamp: 0n } });
  return checked.ok ? null : checked;
}

/** When a TWAP next acts: its next slice, or after the last one every interval until it is filled. */
export function twapDueAt(algo: AlgoRecord): number | null {
  const params = algo.spec.params;
  if (params.kind !== 'twap') return null;
  const slices = algo.schedule;
  if (algo.next < slices.length) return algo.scheduleBase + slices[algo.next]!.offsetMs;
  const lastOffset = slices.at(-1)?.offsetMs ?? 0;
  return algo.scheduleBase + lastOffset + (algo.next - slices.length + 1) * params.intervalMs;
}

export function kindLabel(kind: AlgoSpec['params']['kind']): string {
  return kind === 'twap' ? 'TWAP' : kind === 'scale' ? 'Scale' : kind === 'iceberg' ? 'Iceberg' : 'Chase';
}

function priceWords(market: Market, price: bigint): string {
  return priceText(market, price);
}

function describeSpec(spec: AlgoSpec, market: Market): string {
  const size = `${spec.side} ${formatUnits(spec.quantity, market.base.decimals)} ${market.base.symbol} on ${pairName(market)}${spec.turbo ? ' (Turbo book)' : ''}`;
  const limit = spec.limitPrice === null ? '' : `, limit ${priceWords(market, spec.limitPrice)}`;
  return `${size}${limit}`;
}
