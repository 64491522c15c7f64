// The execution algorithms' guarantees (docs/actions.md "Execution algorithms (run by main)") as
// pure checks over the exchange's truth, for the random trader session's algorithm steps (start,
// pause, cancel, kill switch). An algorithm's children are the exchange orders its view names (by
// order id); each check returns the broken promises, empty when the contract held.
//
// What may race, and why the checks allow it: a child may fill between the read of the view and
// the read of the exchange, so the accounting checks (filled, average, counts) are meant for a
// read after the algorithm stopped (paused, cancelled, finished), or are retried within the
// session's bound while it runs; a child whose signing began before a pause or a cancel (journaled
// before it, `placedAt` not after the stop) may reach the exchange after it, and is the last one.
// Times: `since` and `placedAt` are milliseconds on the exchange's clock (the sandbox's, which
// main's injected clock follows in tests); the exchange stamps orders in nanoseconds.
import { averagePrice, slippageBps, type Fill } from '../../../../shared/algos/fill-stats';
import { planScale } from '../../../../shared/algos/scale-plan';
import type { AlgoChildView, AlgoView } from '../../../../shared/ipc/views/algos';
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import type { Problems } from '../postconditions';
import type { TruthOrder } from '../truth';
import type fc from 'fast-check';
import { editablePrice, editableQuantity } from '../../../../renderer/src/format/market-format';
import { until, value } from '../../terminal-page';
import { contractsOf, holdsWithin } from '../action-reads';
import { accountsOf, acceptConfirm, insideNow, runStep, showTab, tickOf, type Model, type Real } from '../commands';
import type { World } from '../world';

/** When the session stopped the algorithm: cancelled from the panel, paused, or the kill switch (ms, the exchange's clock). */
export interface AlgoStops {
  readonly cancelledAt?: number;
  readonly pausedAt?: number;
  readonly killedAt?: number;
}

const NANOS_PER_MILLI = 1_000_000n;
const short = (id: string) => (id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);
const isOpen = (order: TruthOrder) => order.status === 'open' || order.status === 'partially-filled';

function name(view: AlgoView): string {
  return `${view.spec.params.kind} ${short(view.id)} (${view.spec.side} ${view.spec.quantity}${view.spec.limitPrice === null ? '' : `, limit ${view.spec.limitPrice}`})`;
}

/** Each child the view names with an order id, with its order on the exchange (null when the exchange has none). */
export function childOrders(view: AlgoView, orders: readonly TruthOrder[]): { child: AlgoChildView; order: TruthOrder | null }[] {
  const byId = new Map(orders.map((order) => [order.orderId, order]));
  return view.children.filter((child) => child.orderId !== null).map((child) => ({ child, order: byId.get(child.orderId ?? '') ?? null }));
}

/** The earliest stop the session made, or null while it never stopped the algorithm. */
function stoppedAt(since: AlgoStops): number | null {
  const times = [since.cancelledAt, since.pausedAt, since.killedAt].filter((time): time is number => time !== undefined);
  return times.length === 0 ? null : Math.min(...times);
}

/**
 * The guarantees every algorithm keeps, on the exchange: never more than its total filled or
 * committed (filled plus what open children may still fill); every child on the algorithm's book,
 * side and account, on the tick and never beyond its price limit; no child created after a stop
 * unless its signing had begun before; after a cancel or the kill switch no child open and the
 * algorithm cancelled (or finished first), after a pause no longer running; and the view's
 * filled, remaining, average price, slippage and counts equal to its children on the exchange.
 */
export function checkAlgoGuarantees(view: AlgoView, market: Market, ordersOnExchange: readonly TruthOrder[], since: AlgoStops = {}): Problems {
  const problems: Problems = [];
  const what = name(view);
  const { spec } = view;
  const tick = priceTick(market);
  const children = childOrders(view, ordersOnExchange);
  const found: TruthOrder[] = [];
  for (const { child, order } of children) {
    if (order === null) {
      problems.push(`${what}: child ${short(child.orderId ?? '')} (${child.status}) is not among the account's orders on the exchange`);
      continue;
    }
    found.push(order);
    const label = `${what}: child ${short(order.orderId)} (${order.side} ${order.quantity} at ${order.price}, ${order.status})`;
    if (order.marketId !== spec.marketId || order.turbo !== spec.turbo) problems.push(`${label} is on another book than the algorithm's`);
    if (order.account !== view.account) problems.push(`${label} is signed for account ${short(order.account)}, not the algorithm's ${short(view.account)}`);
    if (order.side !== spec.side) problems.push(`${label} is a ${order.side}; the algorithm ${spec.side === 'Buy' ? 'buys' : 'sells'}`);
    if (order.price % tick !== 0n) problems.push(`${label} is off the ${tick} price tick`);
    if (spec.limitPrice !== null) {
      const beyond = spec.side === 'Buy' ? order.price > spec.limitPrice : order.price < spec.limitPrice;
      if (beyond) problems.push(`${label} is beyond the algorithm's limit ${spec.limitPrice}`);
    }
    const stop = stoppedAt(since);
    if (stop !== null) {
      const createdAt = order.timestamp / NANOS_PER_MILLI;
      if (createdAt > BigInt(stop) && child.placedAt > stop) problems.push(`${label} was created at ${createdAt} ms, after the algorithm was stopped at ${stop} ms, and journaled after it (${child.placedAt} ms)`);
    }
  }

  const filled = found.reduce((sum, order) => sum + order.filled, 0n);
  const committed = found.reduce((sum, order) => sum + (isOpen(order) ? order.quantity : order.filled), 0n);
  if (filled > spec.quantity) problems.push(`${what}: its children filled ${filled}, more than its total ${spec.quantity}`);
  else if (committed > spec.quantity) problems.push(`${what}: its children filled and open come to ${committed}, more than its total ${spec.quantity}`);

  const stopping = since.cancelledAt ?? since.killedAt;
  if (stopping !== undefined) {
    if (view.state !== 'cancelled' && view.state !== 'finished') problems.push(`${what} is ${view.state} after it was ${since.killedAt === undefined ? 'cancelled' : 'stopped by the kill switch'}`);
    for (const order of found) if (isOpen(order)) problems.push(`${what}: child ${short(order.orderId)} is still ${order.status} on the exchange after the algorithm was cancelled`);
  } else if (since.pausedAt !== undefined && view.state === 'running') {
    problems.push(`${what} is still running after it was paused`);
  }

  // The view's accounting against its children on the exchange.
  if (view.filled !== filled) problems.push(`${what} shows ${view.filled} filled; its children on the exchange filled ${filled}`);
  if (view.remaining !== spec.quantity - view.filled) problems.push(`${what} shows ${view.remaining} remaining, not its total ${spec.quantity} less ${view.filled} filled`);
  const fills = found.flatMap((order): readonly Fill[] => {
    const listed = order.fills.reduce((sum, fill) => sum + fill.quantity, 0n);
    // An order whose fills are not all listed counts at its average fill price.
    return listed === order.filled ? order.fills : order.filled > 0n ? [{ price: order.averagePrice, quantity: order.filled }] : [];
  });
  const average = averagePrice(fills, market);
  // The exchange rounds each order's average fill price, and a view may sum those: within one raw
  // unit of the fills' own average is the same figure.
  const off = view.averagePrice === null || average === null ? null : view.averagePrice - average;
  if ((view.averagePrice === null) !== (average === null) || (off !== null && (off > 1n || off < -1n))) {
    problems.push(`${what} shows an average price of ${view.averagePrice ?? 'none'}; its children's fills average ${average ?? 'none'}`);
  }
  if (view.averagePrice !== null && view.arrivalPrice !== null) {
    const slippage = slippageBps(spec.side, view.averagePrice, view.arrivalPrice);
    if (view.slippageBps !== slippage) problems.push(`${what} shows a slippage of ${view.slippageBps ?? 'none'} bps; ${view.averagePrice} against the arrival ${view.arrivalPrice} is ${slippage} bps`);
  }
  const counts = {
    open: found.filter(isOpen).length,
    filled: found.filter((order) => order.status === 'filled').length,
    cancelled: found.filter((order) => order.status === 'cancelled').length,
  };
  for (const key of ['open', 'filled', 'cancelled'] as const) {
    if (view.counts[key] !== counts[key]) problems.push(`${what} counts ${view.counts[key]} ${key} children; the exchange has ${counts[key]}`);
  }
  return problems;
}

/**
 * A scale order placed its plan: the orders `planScale` gives for its spec (each price with its
 * size) are its children on the exchange, one each, and it has no other child. While it runs or once
 * it finished every planned order is there; paused or cancelled (a refused batch, the trader),
 * those placed are still each a planned one.
 */
export function checkScalePlaced(view: AlgoView, market: Market, ordersOnExchange: readonly TruthOrder[]): Problems {
  const { spec } = view;
  if (spec.params.kind !== 'scale') return [`${name(view)} is not a scale order`];
  const plan = planScale(market, { side: spec.side, quantity: spec.quantity, from: spec.params.from, to: spec.params.to, count: spec.params.count, shape: spec.params.shape });
  if (!plan.ok) return [`${name(view)} was started, but its spec cannot be planned: ${plan.code} ${plan.message}`];
  const problems: Problems = [];
  const unmatched = [...plan.value.orders];
  for (const { child, order } of childOrders(view, ordersOnExchange)) {
    if (order === null) {
      problems.push(`${name(view)}: child ${short(child.orderId ?? '')} is not among the account's orders on the exchange`);
      continue;
    }
    const index = unmatched.findIndex((planned) => planned.price === order.price && planned.quantity === order.quantity);
    if (index < 0) problems.push(`${name(view)}: child ${short(order.orderId)} (${order.quantity} at ${order.price}) is not one of the planned orders left (${unmatched.map((planned) => `${planned.quantity} at ${planned.price}`).join(', ') || 'none'})`);
    else unmatched.splice(index, 1);
  }
  if ((view.state === 'running' || view.state === 'finished') && unmatched.length > 0) {
    problems.push(`${name(view)} is ${view.state}, but ${unmatched.length} planned orders are not on the exchange: ${unmatched.map((planned) => `${planned.quantity} at ${planned.price}`).join(', ')}`);
  }
  return problems;
}

// ---- the steps ---------------------------------------------------------------------------------

/** What the session did to each algorithm (by id), per world: the stops the checks hold it to. */
const stopsByWorld = new WeakMap<object, Map<string, AlgoStops>>();

function stopsOf(real: Real): Map<string, AlgoStops> {
  let stops = stopsByWorld.get(real.world);
  if (stops === undefined) {
    stops = new Map();
    stopsByWorld.set(real.world, stops);
  }
  return stops;
}

/** Algorithms started before the exchange restarted (per world): the empty exchange that came back is no referee of theirs. */
const forgottenByWorld = new WeakMap<object, Set<string>>();

/**
 * The exchange restarted empty (the session's `exchange restart` step): the algorithms main lists
 * now are left out of the exchange checks from then on. The restarted sandbox numbers its orders
 * from the start again, so an old child's id may name another account's order there.
 */
export async function forgetAlgosOnRestart(real: Real): Promise<void> {
  const algos = await real.world.bridge.api.getAlgos({}).catch(() => null);
  const forgotten = forgottenByWorld.get(real.world) ?? new Set<string>();
  for (const algo of algos?.ok ? algos.value : []) forgotten.add(algo.id);
  forgottenByWorld.set(real.world, forgotten);
}

/** Every order id main names as a child of one of its algorithms (what the other steps' postconditions leave out). */
export async function algoChildIds(world: World): Promise<ReadonlySet<string>> {
  const algos = await world.bridge.api.getAlgos({}).catch(() => null);
  if (algos === null || !algos.ok) return new Set();
  return new Set(algos.value.flatMap((algo) => algo.children.flatMap((child) => (child.orderId === null ? [] : [child.orderId]))));
}

async function algosNow(real: Real): Promise<readonly AlgoView[]> {
  return value(await real.world.bridge.api.getAlgos({}));
}

/** The orders of the terminal's accounts on the exchange that the algorithms name as children (every one read, none left out). */
async function childrenOnExchange(real: Real, algos: readonly AlgoView[]): Promise<TruthOrder[]> {
  const truth = real.truth.everything();
  const contracts = contractsOf(accountsOf(real));
  const found = new Map<string, TruthOrder>();
  const books = new Set(algos.map((algo) => `${algo.spec.marketId}:${algo.spec.turbo}`));
  for (const book of books) {
    const [marketId, turbo] = book.split(':');
    const market = real.world.markets.find((candidate) => candidate.market_id === marketId);
    if (market === undefined) continue;
    for (const order of await truth.orders(market, turbo === 'true', contracts, false, 200)) found.set(order.orderId, order);
  }
  // Older children than the newest page: read one by one.
  for (const algo of algos) {
    for (const child of algo.children) {
      if (child.orderId === null || found.has(child.orderId)) continue;
      const order = await truth.order(algo.spec.marketId, algo.spec.turbo, child.orderId);
      if (order !== null) found.set(order.orderId, order);
    }
  }
  return [...found.values()];
}

function marketOfAlgo(real: Real, algo: AlgoView): Market | undefined {
  const market = real.world.markets.find((candidate) => candidate.market_id === algo.spec.marketId);
  return algo.spec.turbo ? (real.turboBooks?.get(algo.spec.marketId) ?? market) : market;
}

/**
 * Every algorithm's guarantees on the exchange (checkAlgoGuarantees, with the stops the session
 * made), and a scale order's plan placed (checkScalePlaced). Read while algorithms may run: the
 * caller retries within the session's bound (holdsWithin).
 */
export async function allAlgosHold(real: Real): Promise<Problems> {
  const forgotten = forgottenByWorld.get(real.world);
  const algos = (await algosNow(real)).filter((algo) => forgotten?.has(algo.id) !== true);
  const orders = await childrenOnExchange(real, algos);
  const stops = stopsOf(real);
  const problems: Problems = [];
  for (const algo of algos) {
    const market = marketOfAlgo(real, algo);
    if (market === undefined) continue;
    problems.push(...checkAlgoGuarantees(algo, market, orders, stops.get(algo.id) ?? {}));
    if (algo.spec.params.kind === 'scale') problems.push(...checkScalePlaced(algo, market, orders));
  }
  return problems;
}

/**
 * The kill switch over algorithms: every one that was running or paused before it is cancelled
 * with the kill switch's reason, none of its children open, none created after it. Records the
 * stop for the checks of the steps that follow.
 */
export async function killedAlgosHold(real: Real, activeBefore: ReadonlySet<string>): Promise<Problems> {
  const algos = await algosNow(real);
  const stops = stopsOf(real);
  const problems: Problems = [];
  for (const algo of algos) {
    if (!activeBefore.has(algo.id)) continue;
    if (algo.state !== 'finished' && (algo.state !== 'cancelled' || algo.reason?.code !== ALGO_KILL_SWITCH)) {
      problems.push(`${name(algo)} is ${algo.state} (${algo.reason?.code ?? 'no reason'}) after the kill switch, not cancelled by it (${ALGO_KILL_SWITCH})`);
      continue;
    }
    // Main's time of the change: never before the kill switch, so "created after it" is never said too soon.
    if (algo.state === 'cancelled') stops.set(algo.id, { ...stops.get(algo.id), killedAt: algo.updatedAt });
  }
  return [...problems, ...(await allAlgosHold(real))];
}

/** The ids of algorithms running or paused now (the kill switch's step reads them before it acts). */
export async function activeAlgoIds(real: Real): Promise<Set<string>> {
  const algos = await real.world.bridge.api.getAlgos({}).catch(() => null);
  return new Set(algos?.ok ? algos.value.filter((algo) => algo.state === 'running' || algo.state === 'paused').map((algo) => algo.id) : []);
}

const ALGO_KILL_SWITCH = 'CANCELLED_KILL_SWITCH';

/** A size of about `units` smallest orders at `price`, on the step and above dust. */
function sizeFor(market: Market, price: bigint, units: number): bigint {
  const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
  const byValue = ((BigInt(units) * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 1n) * step;
  const byDust = ((market.dust + step - 1n) / step + 1n) * step;
  return byValue > byDust ? byValue : byDust;
}

const page = (real: Real) => real.world.page;

/** What the step did, in the session's log (LT_ORACLE_TRACE=1: printed beside the oracle's verdicts). */
function said(real: Real, line: string): void {
  real.world.log.push(line);
  if (process.env.LT_ORACLE_TRACE) console.log(`    ${line}`);
}

const onTick = (price: bigint, tick: bigint) => (price / tick) * tick;

async function runAlgoStep(step: { toString(): string; act(model: Model, real: Real): Promise<void> }, model: Model, real: Real): Promise<void> {
  await runStep(step.toString(), model, real, async () => {
    if (model.network === 'sandbox') {
      await step.act(model, real);
      await holdsWithin(step.toString(), real.boundMs, () => allAlgosHold(real));
    }
  });
}

export type StartedKind = 'twap' | 'scale' | 'iceberg' | 'chase';

/**
 * Start an algorithm on the canonical book in view, small and short: from the ticket's Algorithms
 * group (parameters, main's preview, Start), or a chase from the ladder's context menu (the
 * ladder's Size, a row's price as the limit). A TWAP of `slices` slices `intervalSeconds` apart
 * (at most a minute), a limit 2 % past the touch; a scale of three post-only orders 0.2-1 %
 * behind the inside; an iceberg 0.1 % behind it showing a third of its total; a chase
 * `offsetTicks` behind the touch, limited 1 % past it. Each a few smallest orders in total.
 */
export class StartAlgo implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly kind: StartedKind,
    readonly side: 'Buy' | 'Sell',
    readonly fromLadder = false,
    readonly intervalSeconds = 5,
    readonly slices = 4,
    readonly offsetTicks = 1,
    /** A fixed scenario's step: nothing started fails it (a random session's is a no-op). */
    readonly mustAct = false,
  ) {}
  started: string | null = null;
  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox' && !model.turbo;
  }
  toString(): string {
    const how = this.kind === 'twap' ? ` (${this.slices} slices ${this.intervalSeconds} s apart)` : this.kind === 'chase' ? ` (${this.offsetTicks} ticks behind)` : '';
    return `start ${this.kind === 'twap' ? 'TWAP' : this.kind} ${this.side.toLowerCase()}${how} from the ${this.fromLadder ? "ladder's context menu" : "ticket's Algorithms group"}`;
  }
  run(model: Model, real: Real): Promise<void> {
    return runAlgoStep(this, model, real);
  }
  async act(model: Model, real: Real): Promise<void> {
    await this.start(model, real);
    if (this.started !== null) return;
    const shown = await page(real).locator('[data-testid=algo-preview-refused], [data-testid=ticket-result], [data-testid=ticket-problem], [data-testid=notice]').allTextContents().catch(() => []);
    said(real, `nothing started: ${shown.map((text) => text.trim()).join(' | ') || 'no inside, ladder row or preview'}`);
    if (this.mustAct) throw new Error(`the scenario's ${this.toString()} started nothing: ${shown.join(' | ')}`);
  }
  private async start(model: Model, real: Real): Promise<void> {
    this.started = null;
    const { page } = real.world;
    const market = real.world.markets[model.marketIndex]!;
    const inside = await insideNow(real, market, false);
    if (inside === null) return;
    const tick = tickOf(market);
    const buy = this.side === 'Buy';
    const touch = buy ? inside.ask : inside.bid;
    const known = new Set((await algosNow(real)).map((algo) => algo.id));
    if (this.fromLadder) {
      if (!(await this.fromLadderMenu(real, market, inside))) return;
    } else {
      await showTab(page, 'ticket');
      await page.getByTestId('ticket-type').selectOption(`algo:${this.kind}`);
      if (!(await page.locator(`[data-testid=ticket-form][data-algo=${this.kind}]`).waitFor({ timeout: 5000 }).then(() => true, () => false))) return;
      await page.getByTestId(`ticket-side-${buy ? 'buy' : 'sell'}`).click();
      const fill = (parameter: string, text: string) => page.getByTestId(`algo-param-${parameter}`).fill(text);
      const behind = (bps: bigint) => onTick(buy ? (inside.bid * (10_000n - bps)) / 10_000n : (inside.ask * (10_000n + bps)) / 10_000n, tick);
      let quantity: bigint;
      if (this.kind === 'twap') {
        quantity = sizeFor(market, touch, 2 * this.slices);
        await fill('duration', String((this.slices * this.intervalSeconds) / 60));
        await fill('interval', String(this.intervalSeconds));
        await fill('limitPrice', editablePrice(market, onTick(buy ? (touch * 102n) / 100n : (touch * 98n) / 100n, tick)));
      } else if (this.kind === 'scale') {
        quantity = sizeFor(market, touch, 6);
        await fill('from', editablePrice(market, behind(20n)));
        await fill('to', editablePrice(market, behind(100n)));
        await fill('count', '3');
        await page.getByTestId('algo-param-distribution').selectOption('flat');
        await page.getByTestId('algo-param-postOnly').setChecked(true);
      } else if (this.kind === 'iceberg') {
        const visible = sizeFor(market, touch, 2);
        quantity = visible * 3n;
        await fill('price', editablePrice(market, behind(10n)));
        await fill('visible', editableQuantity(market, visible));
      } else {
        quantity = sizeFor(market, touch, 3);
        await fill('offset', String(this.offsetTicks));
        await fill('maxAmends', '10');
        await fill('limitPrice', editablePrice(market, onTick(buy ? (touch * 101n) / 100n : (touch * 99n) / 100n, tick)));
      }
      await page.getByTestId('ticket-quantity').fill(editableQuantity(market, quantity));
      await page.getByTestId('algo-preview-button').click({ timeout: 3000 }).catch(() => undefined);
      const previewed = await page.locator('[data-testid=algo-preview], [data-testid=algo-preview-refused]').first().waitFor({ timeout: 20_000 }).then(() => true, () => false);
      if (!previewed || !(await page.getByTestId('algo-preview').count())) return;
      await page.getByTestId('algo-start').click({ timeout: 5000 }).catch(() => undefined);
      await acceptConfirm(page);
      await page.getByTestId('ticket-result').first().waitFor({ timeout: 20_000 }).catch(() => undefined);
    }
    const started = await until(async () => (await algosNow(real)).find((algo) => !known.has(algo.id)), 'the algorithm to be listed by main', 10_000).catch(() => undefined);
    if (started === undefined) return;
    this.started = started.id;
    said(real, `started ${name(started)}: ${started.state}`);
    // The first child named (or the algorithm already stopped by itself): something to check.
    await until(async () => {
      const now = (await algosNow(real)).find((algo) => algo.id === started.id);
      return now === undefined || now.state !== 'running' || now.children.some((child) => child.orderId !== null);
    }, 'the first child', 15_000).catch(() => undefined);
  }

  /** A chase from a ladder row 1 % past the touch (its limit), the ladder's Size a few smallest orders. */
  private async fromLadderMenu(real: Real, market: Market, inside: { bid: bigint; ask: bigint }): Promise<boolean> {
    const { page } = real.world;
    const ladder = page.getByTestId('ladder').first();
    if (!(await ladder.count()) || (await ladder.getAttribute('data-market-id').catch(() => null)) !== market.market_id) return false;
    const buy = this.side === 'Buy';
    await page.mouse.move(0, 0);
    await page.getByTestId('ladder-recenter').first().click({ timeout: 3000 }).catch(() => undefined);
    await page.mouse.move(0, 0);
    // The ladder's own rows: a row a few rows past the touch on the side it trades toward.
    const rows = ladder.locator(`[data-testid=ladder-row]`);
    const prices = (await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-price') ?? '')).catch(() => [] as string[])).filter((text) => text !== '').map((text) => BigInt(text));
    const touch = buy ? inside.ask : inside.bid;
    const beyond = prices.filter((price) => (buy ? price > touch : price < touch)).sort((left, right) => (buy ? (left < right ? -1 : 1) : left > right ? -1 : 1));
    const target = beyond[Math.min(3, beyond.length - 1)];
    if (target === undefined) return false;
    await page.getByTestId('ladder-size').first().fill(editableQuantity(market, sizeFor(market, touch, 3)));
    const row = ladder.locator(`[data-testid=ladder-row][data-price="${target}"]`).first();
    if (!(await row.click({ button: 'right', timeout: 5000 }).then(() => true, () => false))) return false;
    const choice = page.getByTestId(`ladder-chase-${buy ? 'buy' : 'sell'}`);
    if (!(await choice.waitFor({ timeout: 3000 }).then(() => true, () => false)) || (await choice.isDisabled())) {
      await page.keyboard.press('Escape');
      return false;
    }
    await choice.click();
    // Main's preview, then the confirmation when the app asks for one.
    const dialog = page.getByTestId('confirm-dialog');
    if (await dialog.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await page.getByTestId('confirm-accept').click();
    return true;
  }
}

/** Pause, resume or cancel the `index`-th algorithm the Working algorithms panel lists in a state that allows it. */
export class AlgoFromPanel implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly action: 'pause' | 'resume' | 'cancel',
    readonly index: number,
    /** A fixed scenario's step: finding nothing to act on fails it (a random session's is a no-op). */
    readonly mustAct = false,
  ) {}
  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox';
  }
  toString(): string {
    return `${this.action} algorithm #${this.index} from Working algorithms`;
  }
  run(model: Model, real: Real): Promise<void> {
    return runAlgoStep(this, model, real);
  }
  async act(model: Model, real: Real): Promise<void> {
    const { page } = real.world;
    await showTab(page, 'algos');
    try {
      // The panel mounts with the tab and lists once main's list has arrived.
      await page.locator('[data-testid=algos][data-received=true]').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
      const states = this.action === 'resume' ? ['paused'] : this.action === 'pause' ? ['running'] : ['running', 'paused'];
      const rows = page.locator(states.map((state) => `[data-testid=algos] [data-testid=algo-row][data-state=${state}]`).join(', '));
      const count = await rows.count();
      if (count === 0) {
        const listed = (await algosNow(real)).map((algo) => `${name(algo)} ${algo.state}`).join('; ');
        said(real, `nothing to ${this.action}: no ${states.join(' or ')} row in Working algorithms (main lists: ${listed || 'none'})`);
        if (this.mustAct) throw new Error(`the scenario's ${this.toString()} found nothing to act on (main lists: ${listed || 'none'})`);
        return;
      }
      const id = await rows.nth(this.index % count).getAttribute('data-algo-id', { timeout: 2000 }).catch(() => null);
      if (id === null) return;
      const row = page.locator(`[data-testid=algos] [data-testid=algo-row][data-algo-id="${id}"]`);
      const clicked = await row.getByTestId(`algo-${this.action}`).click({ timeout: 3000 }).then(() => true, () => false);
      if (!clicked) {
        said(real, `the ${this.action} button of ${id} could not be clicked`);
        return;
      }
      await acceptConfirm(page);
      const target = this.action === 'pause' ? ['paused', 'finished', 'cancelled'] : this.action === 'cancel' ? ['cancelled', 'finished'] : ['running', 'paused', 'finished', 'cancelled'];
      const after = await until(async () => {
        const view = (await algosNow(real)).find((algo) => algo.id === id);
        return view !== undefined && target.includes(view.state) && (this.action !== 'resume' || view.reason?.code !== 'PAUSED_BY_TRADER') ? view : undefined;
      }, `the algorithm to be ${this.action}d`, 15_000).catch(() => undefined);
      if (after === undefined) {
        said(real, `${id} did not become ${target.join(' or ')}: ${(await page.locator('[data-testid=algo-error]').allTextContents().catch(() => [])).join(' | ')}`);
        if (this.mustAct) throw new Error(`the scenario's ${this.toString()}: ${id} did not become ${target.join(' or ')}`);
        return;
      }
      const stops = stopsOf(real);
      const was = stops.get(id) ?? {};
      // Main's time of the change (never before the click): a child journaled after it is one too many.
      if (this.action === 'pause' && after.state === 'paused') stops.set(id, { ...was, pausedAt: after.updatedAt });
      if (this.action === 'cancel' && after.state === 'cancelled') stops.set(id, { ...was, cancelledAt: after.updatedAt });
      if (this.action === 'resume' && after.state === 'running') {
        const { pausedAt: _resumed, ...rest } = was;
        stops.set(id, rest);
      }
      said(real, `${this.action}: ${name(after)} is ${after.state}`);
      // Paused: a TWAP's next slice (at most 10 s apart here) would be due meanwhile; nothing may be signed.
      if (this.action === 'pause' && after.state === 'paused') await new Promise((resolve) => setTimeout(resolve, 6_000));
    } finally {
      await showTab(page, model.tab);
    }
  }
}
