// Alerts in the random trader sessions: a price alert set a few ticks from the inside with the
// ladder's own gesture for it (a right click on a row, the alert menu), the market then moved
// through the level by the sandbox's control surface. Its contract (docs/actions.md, Alerts): a
// one-shot alert fires exactly once and is listed as fired (off, with its time); it fires only
// with the price past its level (the price main saw when it fired, in the firing's words, is past
// it); and it trades nothing (no order of the terminal's accounts appears on the book that a
// fired leg does not explain).
import type fc from 'fast-check';
import { parseUnits } from '../../../../shared/encoding/units';
import type { AlertFiringView, AlertView } from '../../../../shared/ipc/views/alerts';
import type { Market } from '../../../../shared/market/market';
import { until, value } from '../../terminal-page';
import { contractsOf, holdsWithin, newOrders, readBefore, type Accounts, type Before } from '../action-reads';
import { runStep, type Model, type Real } from '../commands';
import { notFromFiredLegs, type Problems } from '../postconditions';
import type { TruthOrder } from '../truth';

/** What the step did: the alert main created from the menu, and when the market was moved. */
export interface AlertSet {
  readonly alertId: string;
  readonly market: Market;
  readonly source: 'bid' | 'ask';
  readonly direction: 'above' | 'below';
  readonly level: bigint;
  /** Firings of the alert seen before the market was moved, and whether the exchange's price was past the level in a sample of that wait. */
  readonly firedBeforeMove: number;
  readonly pastBeforeMove: boolean;
}

/** The price in a firing's words, "… crossed above 3,010.00 (now 3,010.50)", in raw units; null when it names none. */
export function firedAt(text: string, market: Market): bigint | null {
  const match = /\(now ([\d,]+(?:\.\d+)?)\)/.exec(text);
  if (match?.[1] === undefined) return null;
  const parsed = parseUnits(match[1].replaceAll(',', ''), market.quote.decimals, 'price');
  return parsed.ok ? parsed.value : null;
}

/**
 * The contract of a one-shot price alert that the market was moved through: fired exactly once,
 * listed as fired, fired only with the price past the level (never while the condition did not
 * hold), and no order of the terminal's accounts that it could have placed.
 */
export function checkAlertFiredOnce(set: AlertSet, listed: AlertView | undefined, firings: readonly AlertFiringView[], unexplainedOrders: readonly TruthOrder[]): Problems {
  const problems: Problems = [];
  const own = firings.filter((firing) => firing.alertId === set.alertId);
  if (own.length !== 1) problems.push(`the one-shot alert ${set.alertId} fired ${own.length} times, expected exactly once`);
  if (listed === undefined) problems.push(`the alert ${set.alertId} is no longer listed`);
  else if (listed.enabled || listed.lastFiredAt === null || (own[0] !== undefined && listed.lastFiredAt !== own[0].at)) {
    problems.push(`the alert ${set.alertId} is not listed as fired: enabled ${listed.enabled}, last fired ${listed.lastFiredAt}, firing at ${own[0]?.at ?? 'none'}`);
  }
  if (set.firedBeforeMove > 0 && !set.pastBeforeMove) problems.push(`the alert ${set.alertId} fired before the market was moved, while the exchange's ${set.source} was not ${set.direction} ${set.level}`);
  for (const firing of own) {
    const price = firedAt(firing.text, set.market);
    if (price === null) problems.push(`the firing does not say the price it saw: ${JSON.stringify(firing.text)}`);
    else if (set.direction === 'above' ? price < set.level : price > set.level) problems.push(`the alert fired with the ${set.source} at ${price}, not ${set.direction} its level ${set.level}: ${JSON.stringify(firing.text)}`);
  }
  for (const order of unexplainedOrders) problems.push(`an order appeared that no one placed in this step: ${order.orderId} ${order.side} ${order.quantity} at ${order.price}`);
  return problems;
}

/** Set a price alert from the ladder's context menu `ticks` ticks past the inside, then move the market through it. */
export class PriceAlertFromLadder implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly direction: 'above' | 'below',
    readonly ticks: number,
  ) {}

  check(model: Readonly<Model>): boolean {
    // The canonical book: the control surface moves the house maker's price there.
    return model.network === 'sandbox' && !model.turbo;
  }

  toString(): string {
    return `price alert from the ladder's context menu ${this.ticks} ticks ${this.direction} the inside, the market moved through it`;
  }

  async run(model: Model, real: Real): Promise<void> {
    await runStep(this.toString(), model, real, async () => {
      const market = real.world.markets[model.marketIndex]!;
      const accounts: Accounts = { tradeAccountId: real.world.tradeAccountId, turboAccountId: real.world.turboAccountId, turboMarkets: real.turboMarkets };
      const before = await readBefore(real.truth, accounts, market, false, real.world.page);
      const set = await this.act(market, real);
      const done = set === null ? 'nothing to act on (no ladder row at the level)' : `alert ${set.alertId}: ${set.source} ${set.direction} ${set.level}, the market moved through it`;
      real.world.log.push(done);
      // LT_ORACLE_TRACE=1: what the step did, beside the oracle's verdicts.
      if (process.env.LT_ORACLE_TRACE) console.log(`    ${done}`);
      if (set !== null) await holdsWithin(this.toString(), real.boundMs, () => this.postcondition(set, accounts, before, real));
    });
  }

  private async postcondition(set: AlertSet, accounts: Accounts, before: Before, real: Real): Promise<Problems> {
    const snapshot = value(await real.world.bridge.api.listAlerts({}));
    const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
    const fresh = notFromFiredLegs(await newOrders(real.truth, accounts, set.market, false, before), before.resting, after);
    return checkAlertFiredOnce(
      set,
      snapshot.alerts.find((alert) => alert.id === set.alertId),
      snapshot.firings,
      fresh,
    );
  }

  /** null when the ladder offered nothing to act on (no ladder, another market, no row at the level). */
  private async act(market: Market, real: Real): Promise<AlertSet | null> {
    const { page, bridge, control } = real.world;
    const ladder = page.getByTestId('ladder').first();
    if (!(await ladder.count()) || (await ladder.getAttribute('data-market-id').catch(() => null)) !== market.market_id) return null;
    const source = this.direction === 'above' ? 'ask' : 'bid';
    // The ladder holds its rows while the pointer rests on it: the trader recenters on the inside first.
    await page.mouse.move(0, 0);
    await page.getByTestId('ladder-recenter').first().click({ timeout: 3000 }).catch(() => undefined);
    await page.mouse.move(0, 0);
    const best = await ladder.locator(`[data-testid=ladder-row].best-${source}`).first().getAttribute('data-price', { timeout: 2000 }).catch(() => null);
    if (best === null) return null;
    const tick = 10n ** BigInt(Math.max(0, market.quote.decimals - market.quote.max_precision));
    const level = this.direction === 'above' ? BigInt(best) + BigInt(this.ticks) * tick : BigInt(best) - BigInt(this.ticks) * tick;
    const row = ladder.locator(`[data-testid=ladder-row][data-price="${level}"]`);
    if (!(await row.count())) return null;
    const known = new Set(value(await bridge.api.listAlerts({})).alerts.map((alert) => alert.id));
    // The sandbox follows every state of the book from here on (not samples): a firing before the
    // move is held to the extremes the exchange's inside really reached.
    const watch = await control.post('/control/markets/inside-watch', { market_id: market.market_id });
    if (watch.status !== 200) throw new Error(`the control surface did not watch the inside: ${watch.status} ${JSON.stringify(watch.body)}`);
    const watchId = (watch.body as { watch_id: string }).watch_id;
    // The alert gesture: a right click (never the left click that trades), then the menu's choice.
    // The ladder moves its rows with the market: a row gone before the click sets nothing (a no-op step).
    if (!(await row.first().click({ button: 'right', timeout: 5000 }).then(() => true, () => false))) return null;
    const choice = page.getByTestId(`alert-menu-${source}`);
    if (!(await choice.waitFor({ timeout: 3000 }).then(() => true, () => false))) {
      await page.keyboard.press('Escape');
      return null;
    }
    await choice.click();
    const created = await until(async () => value(await bridge.api.listAlerts({})).alerts.find((alert) => !known.has(alert.id)), 'the alert set from the ladder', 10_000);
    if (created.condition.kind !== 'price') throw new Error(`the ladder's menu set a ${created.condition.kind} alert`);
    const direction = created.condition.direction;
    // Main arms a price alert once it sees the price on the near side of the level; the house maker
    // requotes and takes on its own meanwhile, so an alert that fires in this wait must have had the
    // exchange's price past its level in one of the book's committed states.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const seen = await control.get(`/control/markets/inside-watch?watch_id=${watchId}`);
    await control.post('/control/markets/inside-watch/stop', { watch_id: watchId });
    if (seen.status !== 200) throw new Error(`the control surface did not read the watch: ${seen.status} ${JSON.stringify(seen.body)}`);
    const extremes = seen.body as { max_bid: string | null; min_bid: string | null; max_ask: string | null; min_ask: string | null };
    const reached = direction === 'above' ? (source === 'ask' ? extremes.max_ask : extremes.max_bid) : source === 'ask' ? extremes.min_ask : extremes.min_bid;
    const pastBeforeMove = reached !== null && (direction === 'above' ? BigInt(reached) >= level : BigInt(reached) <= level);
    const firedBeforeMove = value(await bridge.api.listAlerts({})).firings.filter((firing) => firing.alertId === created.id).length;
    if (firedBeforeMove === 0) {
      // A crossing needs the price on the near side first: the house's walk may have carried it
      // past the level before main saw it there, leaving the alert unarmed. Down (or up) to the near
      // side, then through. The house re-centres its quotes on the price moved to, so the near
      // side is 1 % away: the touch (half a spread from it) is then on the near side too.
      const away = ((level / 100n) / tick) * tick;
      const near = direction === 'above' ? level - away : level + away;
      const back = await control.post('/control/markets/price', { market_id: market.market_id, price: near.toString() });
      if (back.status !== 200) throw new Error(`the control surface did not move the price: ${back.status} ${JSON.stringify(back.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    const target = direction === 'above' ? level + 10n * tick : level - 10n * tick;
    const moved = await control.post('/control/markets/price', { market_id: market.market_id, price: target.toString() });
    if (moved.status !== 200) throw new Error(`the control surface did not move the price: ${moved.status} ${JSON.stringify(moved.body)}`);
    await until(async () => value(await bridge.api.listAlerts({})).firings.some((firing) => firing.alertId === created.id), 'the alert to fire', 20_000);
    return { alertId: created.id, market, source, direction, level, firedBeforeMove, pastBeforeMove };
  }
}
