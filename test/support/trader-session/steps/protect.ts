// Random trader-session steps of the protective orders (docs/actions.md "Protective orders"), each
// with its postcondition checked on the exchange. A position TP/SL from a Positions row: armed with
// a take-profit 5 % over the ask and a stop-loss 5 % under the bid (a long; mirrored for a short),
// read on the exchange, then cancelled from the row again, so that main's own resizes never cross
// the postconditions of the steps that follow.
import type { Market } from '../../../../shared/market/market';
import type { PositionBracketView } from '../../../../shared/ipc/views';
import { editablePrice } from '../../../../renderer/src/format/market-format';
import { signablePairSize } from '../../../../main/services/protect/position-legs-plan';
import { until } from '../../terminal-page';
import type fc from 'fast-check';
import { contractsOf, holdsWithin, type Before } from '../action-reads';
import { accountsOf, acceptConfirm, beforeOnBook, insideNow, runStep, showTab, tickOf, type Model, type Real } from '../commands';
import type { Problems } from '../postconditions';
import type { RestingState, TruthTrigger } from '../truth';

/** What the pair was on the exchange while it was armed, and the position then. */
export interface PairSeen {
  readonly market: Market;
  readonly account: string;
  /** The trading account's position on the book when the pair was read (signed, raw base units). */
  readonly position: bigint;
  /**
   * The position when the pair was armed: a fill in between (a resting order, an algorithm's child)
   * leaves the legs at this size until main's next resize, paced at one per 3 s.
   */
  readonly positionAtArm?: bigint;
  readonly takeProfit: bigint;
  readonly stopLoss: bigint;
  /** The pair's legs as the exchange listed them while armed. */
  readonly legs: readonly TruthTrigger[];
  /** The leg ids main named for the pair. */
  readonly legIds: readonly string[];
}

/** The pair's legs held to a position of signed `position`: two, closing, on the step, at the prices entered, sized to it. */
function legsAgainst(seen: PairSeen, position: bigint): Problems {
  const problems: Problems = [];
  const { market } = seen;
  const tick = tickOf(market);
  const long = position > 0n;
  const closing = long ? 'Sell' : 'Buy';
  const size = long ? position : -position;
  const expected = signablePairSize(market, size, [seen.takeProfit, seen.stopLoss]);
  if (seen.legs.length !== 2) problems.push(`the position TP/SL had ${seen.legs.length} legs pending on the exchange, not 2 (ids ${seen.legIds.join(', ') || 'none'})`);
  for (const leg of seen.legs) {
    if (leg.side !== closing) problems.push(`a position TP/SL leg at ${leg.triggerPrice} is a ${leg.side}, not the position's closing ${closing}`);
    if (leg.triggerPrice % tick !== 0n) problems.push(`a position TP/SL leg's trigger ${leg.triggerPrice} is not on the price step ${tick}`);
    if (leg.triggerPrice !== seen.takeProfit && leg.triggerPrice !== seen.stopLoss) problems.push(`a position TP/SL leg triggers at ${leg.triggerPrice}, not at the take-profit ${seen.takeProfit} or the stop-loss ${seen.stopLoss} entered`);
    if (leg.quantity === null || leg.quantity !== expected) problems.push(`a position TP/SL leg closes ${leg.quantity ?? 'its parent'}, not ${expected} (the position ${position} as it can be signed)`);
    if (leg.quantity !== null && leg.quantity > size) problems.push(`a position TP/SL leg closes ${leg.quantity}, more than the position ${size}`);
  }
  return problems;
}

/**
 * A position TP/SL holds its contract: while armed, exactly its two legs pending on the book, on the
 * closing side, at the trigger prices entered (on the price step), each of the size the position
 * can be closed at (the position floored to the step and lowered to a whole quote value: never
 * more than the position), at the position when it was read or, a fill having come between, when
 * it was armed; once cancelled, none of them pending.
 */
export function checkPositionPair(seen: PairSeen | null, after: RestingState): Problems {
  // Not armed: a refusal shown (a position too small, the mark moved past a price) is the contract too.
  if (seen === null) return [];
  const read = legsAgainst(seen, seen.position);
  const armed = seen.positionAtArm === undefined || seen.positionAtArm === seen.position ? read : legsAgainst(seen, seen.positionAtArm);
  const problems: Problems = read.length === 0 || armed.length === 0 ? [] : read;
  const left = after.triggers.filter((leg) => seen.legIds.includes(leg.triggerId));
  if (left.length > 0) problems.push(`the position TP/SL was cancelled from its row, but ${left.length} of its legs are still pending`);
  return problems;
}

/** Arm a position TP/SL from the row of a trading-account position on a canonical book, read it on the exchange, cancel it. */
export class PositionTakeProfitStopLoss implements fc.AsyncCommand<Model, Real, false> {
  constructor(readonly index: number) {}
  seen: PairSeen | null = null;
  refusal = '';
  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox';
  }
  toString() {
    return `position TP/SL on position #${this.index} from Positions (armed, read, cancelled)`;
  }
  async postcondition(real: Real): Promise<Problems> {
    const accounts = accountsOf(real);
    const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
    return checkPositionPair(this.seen, after);
  }
  /** As the steps of commands.ts run: act, the contract held within the bound on the exchange, then the screen oracle. */
  async run(model: Model, real: Real): Promise<void> {
    await runStep(this.toString(), model, real, async () => {
      const before: Before | null = await beforeOnBook(model, real);
      await this.act(model, real);
      if (before !== null) await holdsWithin(this.toString(), real.boundMs, () => this.postcondition(real));
    });
  }
  async act(model: Model, real: Real) {
    this.seen = null;
    this.refusal = '';
    const { page, bridge } = real.world;
    if (model.detached.includes('positions')) return;
    await showTab(page, 'positions');
    model.tab = 'positions';
    const rows = page.locator('[data-testid=position-row][data-turbo=false]:has([data-testid=position-bracket-open])');
    const count = await rows.count();
    if (count === 0) return;
    const chosen = rows.nth(this.index % count);
    const marketId = await chosen.getAttribute('data-market-id');
    const account = (await chosen.getAttribute('data-account')) ?? '';
    // The row by its book (the open button it was chosen by goes once the fields show).
    const row = page.locator(`[data-testid=position-row][data-turbo=false][data-market-id="${marketId ?? ''}"][data-account="${account}"]`);
    const market = real.world.markets.find((candidate) => candidate.market_id === marketId);
    if (market === undefined || account !== real.world.tradeAccountId) return;
    const inside = await insideNow(real, market, false);
    if (!inside) return;
    const sizeNow = async () => (await real.truth.positions(account, real.turboMarkets)).get(market.market_id)?.size ?? 0n;
    const positionAtArm = await sizeNow();
    const long = positionAtArm > 0n;
    const tick = tickOf(market);
    const takeProfit = long ? (((inside.ask * 105n) / 100n) / tick) * tick : (((inside.bid * 95n) / 100n) / tick) * tick;
    const stopLoss = long ? (((inside.bid * 95n) / 100n) / tick) * tick : (((inside.ask * 105n) / 100n) / tick) * tick;
    await row.getByTestId('position-bracket-open').click();
    await row.getByTestId('position-bracket-tp').fill(editablePrice(market, takeProfit));
    await row.getByTestId('position-bracket-sl').fill(editablePrice(market, stopLoss));
    await row.getByTestId('position-bracket-arm').click();
    await acceptConfirm(page);
    const pairOf = async (): Promise<PositionBracketView | undefined> => {
      const listed = await bridge.api.getPositionBrackets({});
      return listed.ok ? listed.value.find((bracket) => bracket.marketId === market.market_id && !bracket.turbo) : undefined;
    };
    const armed = await until(async () => {
      const pair = await pairOf();
      if (pair !== undefined && pair.placed > 0n) return pair;
      return (await row.getByTestId('position-bracket-error').count()) > 0 ? ('refused' as const) : false;
    }, 'the position TP/SL to be placed or refused', 20_000).catch(() => 'refused' as const);
    if (armed === 'refused') {
      this.refusal = (await row.getByTestId('position-bracket-error').allTextContents().catch(() => [])).join(' | ');
      return;
    }
    const accounts = accountsOf(real);
    const resting = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets, market.market_id);
    const position = await sizeNow();
    const now = (await pairOf()) ?? armed;
    this.seen = { market, account, position, positionAtArm, takeProfit, stopLoss, legs: resting.triggers.filter((leg) => now.legIds.includes(leg.triggerId)), legIds: now.legIds };
    // Cancelled again from the row: the legs go, and main no longer resizes them.
    await row.getByTestId('position-bracket-cancel').click({ timeout: 3000 }).catch(() => undefined);
    await until(async () => (await pairOf()) === undefined, 'the position TP/SL to be cancelled', 20_000).catch(() => undefined);
  }
}

/** A stop-loss leg before it was trailed, and the leg main left in its place. */
export interface TrailSeen {
  readonly market: Market;
  readonly before: TruthTrigger;
  /** The leg of the managed stop on the exchange after the wait; null when it fired or was cancelled meanwhile. */
  readonly after: TruthTrigger | null;
}

/** A trailed stop is never loosened (a sell stop only up, a buy stop only down), and sits on the price step. */
export function checkTrailed(seen: TrailSeen | null): Problems {
  if (seen === null || seen.after === null) return [];
  const problems: Problems = [];
  const { before, after } = seen;
  const tick = tickOf(seen.market);
  if (after.triggerPrice % tick !== 0n) problems.push(`the trailed stop's trigger ${after.triggerPrice} is not on the price step ${tick}`);
  const loosened = before.side === 'Sell' ? after.triggerPrice < before.triggerPrice : after.triggerPrice > before.triggerPrice;
  if (loosened) problems.push(`the ${before.side} stop was loosened by main: ${before.triggerPrice} → ${after.triggerPrice}`);
  if (after.side !== before.side || after.quantity !== before.quantity) problems.push(`the trailed stop changed from ${before.side} ${before.quantity ?? 'parent-sized'} to ${after.side} ${after.quantity ?? 'parent-sized'}`);
  return problems;
}

/** Trail a stop-loss leg listed under Open orders by 1 % of the bid (ask for a buy stop), wait for main, read it on the exchange, stop trailing. */
export class TrailStop implements fc.AsyncCommand<Model, Real, false> {
  constructor(readonly index: number) {}
  seen: TrailSeen | null = null;
  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox';
  }
  toString() {
    return `trail stop leg #${this.index} under Open orders by 1 % (armed, read, disarmed)`;
  }
  async run(model: Model, real: Real): Promise<void> {
    await runStep(this.toString(), model, real, async () => {
      const before: Before | null = await beforeOnBook(model, real);
      await this.act(model, real);
      if (before !== null) await holdsWithin(this.toString(), real.boundMs, () => Promise.resolve(checkTrailed(this.seen)));
    });
  }
  async act(model: Model, real: Real) {
    this.seen = null;
    const { page, bridge } = real.world;
    await showTab(page, 'orders');
    model.tab = 'orders';
    const rows = page.locator('[data-testid=open-orders] [data-testid=trigger-row]:has([data-testid=trail-arm])');
    const count = await rows.count();
    if (count === 0) return;
    const triggerId = (await rows.nth(this.index % count).getAttribute('data-trigger-id')) ?? '';
    const row = page.locator(`[data-testid=open-orders] [data-testid=trigger-row][data-trigger-id="${triggerId}"]`);
    const accounts = accountsOf(real);
    const leg = (await real.truth.resting(contractsOf(accounts), accounts.turboMarkets)).triggers.find((candidate) => candidate.triggerId === triggerId);
    const market = real.world.markets.find((candidate) => candidate.market_id === leg?.marketId);
    if (leg === undefined || market === undefined) return;
    await row.getByTestId('trail-ticks').fill('1');
    await row.getByTestId('trail-unit').selectOption('percent');
    await row.getByTestId('trail-arm').click({ timeout: 3000 }).catch(() => undefined);
    await acceptConfirm(page);
    const managed = await until(async () => {
      const stops = await bridge.api.getProtectiveStops({});
      return stops.ok ? stops.value.find((stop) => stop.marketId === leg.marketId) : undefined;
    }, 'the stop to be trailed', 10_000).catch(() => undefined);
    if (managed === undefined) return;
    // Main moves it toward the price within a pass or two.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const now = await bridge.api.getProtectiveStops({});
    const current = now.ok ? now.value.find((stop) => stop.id === managed.id) : undefined;
    const resting = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets, leg.marketId);
    this.seen = { market, before: leg, after: current === undefined ? null : (resting.triggers.find((candidate) => candidate.triggerId === current.triggerId) ?? null) };
    // Disarmed again: the leg stays where main left it, no longer moved.
    if (current !== undefined) await bridge.api.disarmProtectiveStop({ id: current.id });
  }
}
