// The trader's actions as fast-check model-based commands. The model keeps what the trader chose
// (network, market, book, tab, detached panels); the real system is the app in Chromium against
// the sandbox. Every command acts the way a trader does (clicks, keys, typing) and then runs the
// oracle, which throws when a panel neither shows the truth within the bound nor says it is not
// live. Sizes are small against the funded balances so sessions of thousands of steps stay funded.
import { join } from 'node:path';
import fc from 'fast-check';
import type { Page } from 'playwright-core';
import type { Market } from '../../../shared/market/market';
import { editablePrice, editableQuantity } from '../../../renderer/src/format/market-format';
import { SCREENSHOT_DIR } from '../chromium';
import { until, value } from '../terminal-page';
import { checkScreen, type OracleView } from './oracle';
import type { Truth } from './truth';
import { openTurboAccount, sandboxPid, type World } from './world';
import { contractsOf, holdsWithin, newWarnings, newOrders, readBefore, refusalShown, signerOn, statusesOf, type Accounts, type Before } from './action-reads';
import { checkAmended, checkCancelOne, checkFlatten, checkPartialClose, checkReverse, checkLegCancelled, checkLegMoved, checkLegsPlaced, checkNothingLeft, checkPlaced, checkUnchanged, notFromFiredLegs, statedClose, vanished, type EnteredLeg, type Problems } from './postconditions';
import { parseUnits } from '../../../shared/encoding/units';
import type { TruthOrder } from './truth';
import { PriceAlertFromLadder } from './steps/alerts';
import { activeAlgoIds, AlgoFromPanel, forgetAlgosOnRestart, killedAlgosHold, StartAlgo } from './steps/algos';
import { GuardRefusal, type GuardKind } from './steps/guards';
import { SettleBookAsOwner } from './steps/owner';
import { PositionTakeProfitStopLoss, TrailStop } from './steps/protect';
import { ChoosePnlDisplay, CloseByLimit } from './steps/positions';
import { ChartClickToPlace } from './steps/chart';

export const BLOTTER_TABS = ['positions', 'orders', 'history', 'fills', 'balances', 'margin'] as const;
export type BlotterTab = (typeof BLOTTER_TABS)[number];
// Balances detached right after a run begins must not show 0 for an asset the account holds (a
// REST read begun before the faucet's mint must not overwrite main's balances: see
// TradingService.applyBalances, shared/fresh-read.ts and test/e2e/desk/detached-snapshots.test.ts).
export const DETACHABLE = ['fills', 'balances', 'history', 'positions'] as const;
export type Detachable = (typeof DETACHABLE)[number];
export const TICKET_KINDS = ['Spot', 'Limit', 'PostOnly', 'FillOrKill', 'Market', 'BoundedMarket'] as const;
export type TicketKind = (typeof TICKET_KINDS)[number];

export interface Model {
  network: 'sandbox' | 'devnet';
  marketIndex: number;
  turbo: boolean;
  tab: BlotterTab;
  detached: Detachable[];
}

export interface Real {
  readonly world: World;
  readonly truth: Truth;
  readonly boundMs: number;
  /** Markets with a Turbo book (their canonical market ids). */
  readonly turboMarkets: readonly string[];
  /** The Turbo books' own rows (min_order, dust: a Turbo order is sized by them), by market id. */
  readonly turboBooks?: ReadonlyMap<string, Market>;
  /** Panels whose freshness mark has been photographed (test-results/screenshots/trader-session). */
  readonly marksShot: Set<string>;
  /** Popup windows of detached panels, by kind. */
  readonly popups: Map<Detachable, Page>;
  /** Which actions the generator may pick (the e2e run restricts the slow ones). */
  readonly step: (line: string) => void;
  /** Told of a failing step before fast-check shrinks (the first failure is the full story). */
  readonly failed: (line: string, error: unknown) => void;
}

export const initialModel = (): Model => ({ network: 'sandbox', marketIndex: 0, turbo: false, tab: 'orders', detached: [] });

const marketOf = (model: Model, real: Real): Market => real.world.markets[model.marketIndex]!;
/** The rules of the book in view: the Turbo book's own row when it is the Turbo book. */
const bookOf = (model: Model, real: Real): Market => {
  const market = marketOf(model, real);
  return (model.turbo ? real.turboBooks?.get(market.market_id) : undefined) ?? market;
};

export function oracleView(model: Model, real: Real): OracleView {
  return {
    network: model.network,
    market: marketOf(model, real),
    turbo: model.turbo,
    contracts: real.world.turboAccountId === null ? [real.world.tradeAccountId] : [real.world.tradeAccountId, real.world.turboAccountId],
    tradeAccountId: real.world.tradeAccountId,
    turboAccountId: real.world.turboAccountId,
    ...(real.turboBooks === undefined ? {} : { turboBooks: real.turboBooks }),
    turboMarkets: real.turboMarkets,
  };
}

export async function runOracle(model: Model, real: Real): Promise<void> {
  const pages = [real.world.page, ...real.popups.values()];
  const snapshot = { ...model, detached: [...model.detached] };
  const report = await checkScreen(pages, real.truth.everything(), real.world.markets, () => oracleView(snapshot, real), { boundMs: real.boundMs }).catch(async (error: unknown) => {
    // What main itself holds, beside what the window shows: tells a stale window from a stale main.
    if (error instanceof Error && /ordersCount|openOrders/.test(error.message)) {
      const held = await real.world.bridge.api.getOrders({}).catch(() => null);
      const account = await real.world.bridge.api.getAccountState({}).catch(() => null);
      const orders = held?.ok ? held.value.open.map((order) => `${order.orderId.slice(0, 10)}…${order.orderId.slice(-4)} ${order.side} ${order.turbo ? 'turbo' : 'canonical'} by ${order.account.slice(0, 10)} ${order.status}`).join('; ') : 'unreadable';
      error.message += `\n  main holds ${held?.ok ? held.value.open.length : '?'} open: ${orders || 'none'}; trading account ${account?.ok ? (account.value.tradeAccount?.tradeAccountId ?? 'none') : '?'}`;
    }
    throw error;
  });
  // LT_ORACLE_TRACE=1: how each panel passed (equal, marked, empty), to see what a run held.
  if (process.env.LT_ORACLE_TRACE) console.log(`    oracle (${report.samples} samples): ${Object.entries(report.verdicts).map(([panel, how]) => `${panel}=${how}`).join(' ')}`);
  // The first time a panel passes by its mark (stale, resyncing, …), keep a picture of it.
  for (const [panel, how] of Object.entries(report.verdicts)) {
    if (how !== 'marked' || real.marksShot.has(panel)) continue;
    real.marksShot.add(panel);
    const index = Number(/^page(\d+)/.exec(panel)?.[1] ?? 0);
    const page = pages[index];
    if (page && !page.isClosed()) await page.screenshot({ path: join(SCREENSHOT_DIR, 'trader-session', `marked-${panel}.png`) }).catch(() => undefined);
  }
  if (real.world.pageErrors.length > 0) throw new Error(`the page threw: ${real.world.pageErrors.join('; ')}`);
}

/** The page's document as functions sent to the page see it (test files compile without the DOM library). */
declare const document: { elementFromPoint(x: number, y: number): { closest(selector: string): { getAttribute(name: string): string | null } | null } | null };

// ---- page helpers ------------------------------------------------------------------------------

/**
 * The ticket is done with the order it was sending: the button no longer says "Sending…" or
 * "Confirm in the dialog…" (it says
 * so from the click until the outcome is shown, a refusal before signing included). Reading a
 * result element that is not there would wait for it for the whole default timeout.
 */
async function ticketSettled(page: Page): Promise<void> {
  await until(async () => {
    const label = await page.getByTestId('ticket-submit').first().textContent({ timeout: 1000 }).catch(() => null);
    // A confirmation that came up after acceptConfirm stopped looking (the ticket reads the
    // positions or runs the Turbo check first) is accepted here, as the trader would.
    if (label !== null && label.startsWith('Confirm in the dialog')) await acceptConfirm(page);
    return label !== null && !label.startsWith('Sending') && !label.startsWith('Confirm in the dialog');
  }, 'the ticket to show the outcome', 20_000).catch(() => undefined);
}

export async function acceptConfirm(page: Page): Promise<void> {
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor({ timeout: 600 }).catch(() => undefined);
  if (await dialog.count()) await page.getByTestId('confirm-accept').click();
}

/**
 * Back to the workspace when account setup covers it while the account can trade (the app opens
 * setup by itself once when an account cannot trade, e.g. on a network where it has none, and it
 * stays open after switching back): the trader closes it.
 */
export async function toWorkspace(real: Real): Promise<void> {
  const { page, bridge } = real.world;
  const account = await bridge.api.getAccountState({});
  if (!account.ok || !account.value.canTrade) return;
  const close = page.getByTestId('close-setup');
  if (await close.count()) await close.click();
}

/** Account setup on the page, each step as soon as its button shows (a step may finish by itself). */
export async function setUpAgain(real: Real): Promise<void> {
  const { page } = real.world;
  if (!(await page.getByTestId('onboarding').count())) await page.getByTestId('open-setup').click();
  const buttons = { owner: 'onboarding-create-key', account: 'onboarding-create-account', funds: 'onboarding-mint', whitelist: 'onboarding-whitelist', session: 'onboarding-create-session' } as const;
  // Every step is looked at on each pass, not one after the other: a step may show done for a
  // moment and go back (the funds step right after a restart, before the balances are read again),
  // and its button is drawn again as its state arrives (a click that finds it gone is tried again).
  await until(
    async () => {
      let allDone = true;
      for (const [step, button] of Object.entries(buttons)) {
        const state = await page.getByTestId(`onboarding-step-${step}`).getAttribute('data-state', { timeout: 2000 }).catch(() => null);
        if (state === 'done' || state === 'not-needed') continue;
        allDone = false;
        const target = page.getByTestId(button);
        if (state !== 'working' && (await target.count()) && (await target.isEnabled().catch(() => false))) await target.click({ timeout: 3000 }).catch(() => undefined);
      }
      return allDone;
    },
    'account setup (every step done)',
    120_000,
  );
  await page.getByTestId('close-setup').click();
  await page.getByTestId('workspace').waitFor({ timeout: 30_000 });
}

export async function showTab(page: Page, kind: string): Promise<void> {
  const tab = page.getByTestId(`tab-${kind}`);
  if (await tab.count()) await tab.first().click();
}

export const tickOf = (market: Market) => 10n ** BigInt(Math.max(0, market.quote.decimals - market.quote.max_precision));
const stepOf = (market: Market) => 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));

/** A quantity worth about `units` × min_order at `price`, on the step and above dust. */
function quantityFor(market: Market, price: bigint, units: number): bigint {
  const step = stepOf(market);
  const byValue = ((BigInt(units) * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 1n) * step;
  const byDust = ((market.dust + step - 1n) / step + 1n) * step;
  return byValue > byDust ? byValue : byDust;
}

export async function insideNow(real: Real, market: Market, turbo: boolean): Promise<{ bid: bigint; ask: bigint } | null> {
  const inside = await real.truth.inside(market, turbo).catch(() => null);
  return inside?.bid != null && inside.ask != null ? { bid: inside.bid, ask: inside.ask } : null;
}

/**
 * A step as every step runs: named in the session's log, its own work, then the screen oracle. A
 * failure is told before fast-check shrinks (the first one is the full story) with a picture of the
 * main window, and thrown on.
 */
export async function runStep(name: string, model: Model, real: Real, work: () => Promise<void>): Promise<void> {
  real.step(name);
  try {
    await work();
    await runOracle(model, real);
  } catch (error) {
    real.failed(name, error);
    await real.world.page.screenshot({ path: join(SCREENSHOT_DIR, 'trader-session', 'failed-step.png') }).catch(() => undefined);
    throw error;
  }
}

// ---- commands ----------------------------------------------------------------------------------

abstract class Step implements fc.AsyncCommand<Model, Real, false> {
  abstract check(model: Readonly<Model>): boolean;
  abstract act(model: Model, real: Real): Promise<void>;
  abstract toString(): string;
  /** What `before` read for the step being run (null without a postcondition). */
  protected read: Before | null = null;
  /**
   * The action's contract on the exchange (docs/actions.md), checked after act() against what
   * `before` read: the broken promises, none when it held. Steps without one return null from
   * `before` and are held by the screen oracle only.
   */
  before(_model: Readonly<Model>, _real: Real): Promise<Before | null> {
    return Promise.resolve(null);
  }
  postcondition(_model: Readonly<Model>, _real: Real, _before: Before): Promise<Problems> {
    return Promise.resolve([]);
  }
  async run(model: Model, real: Real): Promise<void> {
    await runStep(this.toString(), model, real, async () => {
      const before = await this.before(model, real);
      this.read = before;
      await this.act(model, real);
      if (before !== null) await holdsWithin(this.toString(), real.boundMs, () => this.postcondition(model, real, before));
    });
  }
}

const online = (model: Readonly<Model>) => model.network === 'sandbox';

export const accountsOf = (real: Real): Accounts => ({ tradeAccountId: real.world.tradeAccountId, turboAccountId: real.world.turboAccountId, turboMarkets: real.turboMarkets });
/** The exchange before a step that acts on the book in view (nothing to compare on the network nobody answers on). */
export const beforeOnBook = (model: Readonly<Model>, real: Real): Promise<Before | null> => (online(model) ? readBefore(real.truth, accountsOf(real), marketOf(model, real), model.turbo, real.world.page) : Promise.resolve(null));

/** What a placing step entered, or null when it did not act (no inside to price from, nothing to click). */
interface PlacedEntry {
  readonly side: 'Buy' | 'Sell';
  readonly price?: bigint;
  readonly quantity: bigint;
  readonly kinds?: readonly string[];
}

/** Place: exactly one order of what was entered on the signing account's book, or none and a refusal shown. */
/** What rests on the exchange now, and what became of each order that rested before and no longer does. */
async function restingNow(real: Real, before: Before) {
  const after = await real.truth.resting(contractsOf(accountsOf(real)), real.turboMarkets);
  return { after, statuses: await statusesOf(real.truth, vanished(before.resting, after)) };
}

async function placedAsEntered(model: Readonly<Model>, real: Real, before: Before, entry: PlacedEntry | null, seenRefusal = ''): Promise<Problems> {
  if (entry === null) return [];
  const accounts = accountsOf(real);
  const market = marketOf(model, real);
  const fresh = await newOrders(real.truth, accounts, market, model.turbo, before);
  const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
  const refusal = `${seenRefusal} ${await refusalShown(real.world.page, before)}`;
  return checkPlaced({ account: signerOn(accounts, model.turbo), marketId: market.market_id, turbo: model.turbo, ...entry }, fresh, refusal, (orders) => notFromFiredLegs(orders, before.resting, after));
}

/**
 * Amend or move: checkAmended on the old order's book. The quantity to rest is what was unfilled
 * when the old order was cancelled (a fill between the step's read and the amend changes it),
 * unless the step asked for another.
 */
async function amendedOnExchange(model: Readonly<Model>, real: Real, before: Before, old: TruthOrder, price: bigint | undefined, quantity: bigint | null, refusal = '', seenOnBook?: ReadonlySet<string>): Promise<Problems> {
  const accounts = accountsOf(real);
  const market = real.world.markets.find((candidate) => candidate.market_id === old.marketId) ?? marketOf(model, real);
  const oldNow = await real.truth.order(old.marketId, old.turbo, old.orderId);
  const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
  // The newest orders of the old order's book before the step: before.seen covers the book in view;
  // an order of another market (a row of Open orders) comes with its book's, read before the amend.
  const seen = seenOnBook ?? before.seen;
  const fresh = notFromFiredLegs((await real.truth.orders(market, old.turbo, contractsOf(accounts), false, 50)).filter((order) => !seen.has(order.orderId)), before.resting, after);
  const remaining = oldNow === null ? old.quantity - old.filled : oldNow.quantity - oldNow.filled;
  return checkAmended({ old, ...(price === undefined ? {} : { price }), quantity: quantity ?? remaining }, oldNow, fresh, before.resting, after, `${refusal} ${await refusalShown(real.world.page, before)}`);
}

/** The ticket with every order type: passive (rests away from the inside) or aggressive (crosses it). */
export class TicketOrder extends Step {
  constructor(
    readonly kind: TicketKind,
    readonly side: 'Buy' | 'Sell',
    readonly aggressive: boolean,
    readonly units: number,
  ) {
    super();
  }
  check = online;
  entered: PlacedEntry | null = null;
  toString() {
    return `ticket ${this.kind} ${this.side} ${this.aggressive ? 'crossing' : 'passive'} ×${this.units}`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  /** Why the ticket's button was disabled when the step gave up on it (the reason may pass before the check reads the screen). */
  refusedWith = '';
  override postcondition(model: Readonly<Model>, real: Real, before: Before) {
    return placedAsEntered(model, real, before, this.entered, this.refusedWith);
  }
  async act(model: Model, real: Real) {
    this.entered = null;
    this.refusedWith = '';
    const { page } = real.world;
    const market = marketOf(model, real);
    const inside = await insideNow(real, market, model.turbo);
    if (!inside) return;
    const tick = tickOf(market);
    const buy = this.side === 'Buy';
    // Passive: 1 % behind the inside (inside the price window); aggressive: 0.2 % through it.
    const reference = buy ? inside.ask : inside.bid;
    const price = this.aggressive ? ((buy ? (reference * 1002n) / 1000n : (reference * 998n) / 1000n) / tick) * tick : ((buy ? (inside.bid * 99n) / 100n : (inside.ask * 101n) / 100n) / tick) * tick;
    const quantity = quantityFor(bookOf(model, real), price, this.units);
    await showTab(page, 'ticket');
    await page.getByTestId(`ticket-side-${buy ? 'buy' : 'sell'}`).click();
    await page.getByTestId('ticket-type').selectOption(this.kind);
    if (this.kind === 'BoundedMarket') {
      await page.getByTestId('ticket-max-price').fill(editablePrice(market, buy ? price : (inside.ask * 102n) / 100n / tick * tick));
      await page.getByTestId('ticket-min-price').fill(editablePrice(market, buy ? (inside.bid * 98n) / 100n / tick * tick : price));
    }
    const priceField = page.getByTestId('ticket-price');
    if ((await priceField.count()) && (await priceField.isEditable())) await priceField.fill(editablePrice(market, price));
    await page.getByTestId('ticket-quantity').fill(editableQuantity(market, quantity));
    // A market order's price is the app's bound from the book, not a figure the trader entered.
    // On a Turbo book a Market order is sent as BoundedMarket (docs/protocol.md, margin: the
    // conversion with the order settings' slippage), so either kind is the one entered there.
    const kinds = this.kind === 'Market' && model.turbo ? ['Market', 'BoundedMarket'] : [this.kind];
    this.entered = { side: this.side, quantity, kinds, ...(this.kind === 'Market' || this.kind === 'BoundedMarket' ? {} : { price }) };
    const submit = page.getByTestId('ticket-submit');
    await page.waitForTimeout(150);
    // A reason that passes by itself (balances loading after the last order) is waited out, as a
    // trader waits; a refusal that stays is the ticket's answer, kept as it was shown.
    const enabled = await until(async () => !(await submit.isDisabled()), 'the ticket to accept the order', 3000).then(() => true, () => false);
    if (!enabled) {
      this.refusedWith = (await page.locator('[data-testid=ticket-why], [data-testid=ticket-problem]').allTextContents().catch(() => [])).join(' ').trim();
      return; // refused before signing, with its reason on the ticket
    }
    // The touch may move between that check and the click (a post-only price that now crosses):
    // the button is disabled again with its reason, which is the ticket's answer.
    const clicked = await submit.click({ timeout: 3000 }).then(() => true, () => false);
    if (!clicked) {
      this.refusedWith = (await page.locator('[data-testid=ticket-why], [data-testid=ticket-problem]').allTextContents().catch(() => [])).join(' ').trim() || ((await submit.getAttribute('title').catch(() => null)) ?? '');
      return;
    }
    await acceptConfirm(page);
    await ticketSettled(page);
  }
}

/**
 * A Spot entry with a take-profit and a stop-loss attached (the ticket's bracket): crossing (it
 * fills, the legs then protect the position) or resting 1 % behind the inside (an entry the
 * amend and cancel steps can then act on, legs and all).
 */
export class BracketOrder extends Step {
  constructor(
    readonly side: 'Buy' | 'Sell',
    readonly resting = false,
  ) {
    super();
  }
  check = (model: Readonly<Model>) => online(model) && !model.turbo;
  entered: (PlacedEntry & { legs: EnteredLeg[] }) | null = null;
  toString() {
    return `bracket ${this.side}${this.resting ? ' resting' : ''}`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  /** One entry as entered, and its two legs pending bound to it (or nothing, and the refusal shown). */
  override async postcondition(model: Readonly<Model>, real: Real, before: Before) {
    if (this.entered === null) return [];
    const placed = await placedAsEntered(model, real, before, this.entered);
    if (placed.length > 0) return placed;
    const accounts = accountsOf(real);
    const market = marketOf(model, real);
    const entry = (await newOrders(real.truth, accounts, market, model.turbo, before)).find((order) => order.side === this.side && order.quantity === this.entered?.quantity);
    if (entry === undefined) return []; // refused, and the refusal is shown
    const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
    const where = { account: signerOn(accounts, model.turbo), marketId: market.market_id, turbo: model.turbo };
    const fired = (await newOrders(real.truth, accounts, market, model.turbo, before)).filter((order) => order.orderId !== entry.orderId);
    return checkLegsPlaced(where, this.entered.legs, before.resting, after, '', { parentOrderId: entry.orderId, firedOrders: fired });
  }
  async act(model: Model, real: Real) {
    this.entered = null;
    const { page } = real.world;
    const market = marketOf(model, real);
    const inside = await insideNow(real, market, model.turbo);
    if (!inside) return;
    const tick = tickOf(market);
    const buy = this.side === 'Buy';
    const entry = this.resting
      ? ((buy ? (inside.bid * 99n) / 100n : (inside.ask * 101n) / 100n) / tick) * tick
      : ((buy ? (inside.ask * 1002n) / 1000n : (inside.bid * 998n) / 1000n) / tick) * tick;
    const takeProfit = ((buy ? (entry * 105n) / 100n : (entry * 95n) / 100n) / tick) * tick;
    const stopLoss = ((buy ? (entry * 95n) / 100n : (entry * 105n) / 100n) / tick) * tick;
    const quantity = quantityFor(bookOf(model, real), entry, 3);
    await showTab(page, 'ticket');
    await page.getByTestId(`ticket-side-${buy ? 'buy' : 'sell'}`).click();
    await page.getByTestId('ticket-type').selectOption('Spot');
    await page.getByTestId('ticket-price').fill(editablePrice(market, entry));
    await page.getByTestId('ticket-quantity').fill(editableQuantity(market, quantity));
    if ((await page.getByTestId('ticket-bracket').getAttribute('open')) === null) await page.locator('[data-testid=ticket-bracket] > summary').click();
    if (!(await page.getByTestId('bracket-take-profit-enabled').isChecked())) await page.getByTestId('bracket-take-profit-enabled').check();
    if (!(await page.getByTestId('bracket-stop-loss-enabled').isChecked())) await page.getByTestId('bracket-stop-loss-enabled').check();
    await page.getByTestId('bracket-take-profit-trigger').fill(editablePrice(market, takeProfit));
    await page.getByTestId('bracket-stop-loss-trigger').fill(editablePrice(market, stopLoss));
    // The legs are on the entry's other side, sized from it.
    const legSide = buy ? 'Sell' : 'Buy';
    this.entered = { side: this.side, price: entry, quantity, kinds: ['Spot'], legs: [{ side: legSide, triggerPrice: takeProfit, quantity: null }, { side: legSide, triggerPrice: stopLoss, quantity: null }] };
    await page.waitForTimeout(150);
    const submit = page.getByTestId('ticket-submit');
    if (!(await submit.isDisabled())) {
      await submit.click();
      await acceptConfirm(page);
      await ticketSettled(page);
    }
    // Leave the ticket without a bracket for the next order.
    await page.getByTestId('bracket-take-profit-enabled').uncheck().catch(() => undefined);
    await page.getByTestId('bracket-stop-loss-enabled').uncheck().catch(() => undefined);
  }
}

/**
 * The n-th row of Open orders, or with `withLegs` the first order that has take-profit / stop-loss
 * legs bound to it (a resting bracket entry) when there is one: its id, read before acting.
 */
async function chooseOpenOrder(page: Page, index: number, withLegs: boolean, before: Before): Promise<{ row: ReturnType<Page['locator']>; orderId: string } | null> {
  const rows = page.getByTestId('open-order-row');
  const ids = (await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-order-id') ?? ''))).filter((id) => id !== '');
  if (ids.length === 0) return null;
  const parents = new Set(before.resting.triggers.map((leg) => leg.parentOrderId));
  const withLeg = withLegs ? ids.find((id) => parents.has(id)) : undefined;
  const orderId = withLeg ?? ids[index % ids.length]!;
  return { row: page.locator(`[data-testid=open-order-row][data-order-id="${orderId}"]`), orderId };
}

/** Cancel one order from Open orders (with `withLegs`, a bracket entry's when one rests). */
export class CancelOne extends Step {
  constructor(
    readonly index: number,
    readonly withLegs = false,
  ) {
    super();
  }
  check = online;
  target: string | null = null;
  toString() {
    return `cancel open order #${this.index}${this.withLegs ? ' (one with legs if any)' : ''}`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  override async postcondition(_model: Readonly<Model>, real: Real, before: Before) {
    if (this.target === null) return [];
    const { after, statuses } = await restingNow(real, before);
    return checkCancelOne(this.target, before.resting, after, statuses);
  }
  async act(model: Model, real: Real) {
    this.target = null;
    const { page } = real.world;
    await showTab(page, 'orders');
    model.tab = 'orders';
    const before = this.read ?? (await readBefore(real.truth, accountsOf(real), marketOf(model, real), model.turbo, page));
    const chosen = await chooseOpenOrder(page, this.index, this.withLegs, before);
    if (chosen === null) return;
    // Only an order the exchange has open is a cancel to hold (the row may be late by a fill).
    if (!before.resting.open.some((order) => order.orderId === chosen.orderId)) return;
    const clicked = await chosen.row.getByTestId('cancel-order').click({ timeout: 3000 }).then(() => true, () => false);
    if (clicked) this.target = chosen.orderId;
  }
}

/** Cancel all in the market in view: none of its orders and legs remains on either of its books. */
export class CancelAllMarket extends Step {
  /** With `hotkey`, Shift+X (it acts whatever the Open orders count says) instead of the button. */
  constructor(readonly hotkey = false) {
    super();
  }
  check = online;
  clicked = false;
  toString() {
    return this.hotkey ? 'cancel all in the market (Shift+X)' : 'cancel all in the market';
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  override async postcondition(model: Readonly<Model>, real: Real, before: Before) {
    if (!this.clicked) return []; // nothing open in the market: the button is disabled
    const after = await real.truth.resting(contractsOf(accountsOf(real)), real.turboMarkets);
    return checkNothingLeft(before.resting, after, await newWarnings(real.world.page, before), marketOf(model, real).market_id);
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    await showTab(page, 'orders');
    model.tab = 'orders';
    this.clicked = false;
    if (this.hotkey) {
      await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
      await page.keyboard.press('Shift+X');
      this.clicked = true;
      await acceptConfirm(page);
      return;
    }
    const button = page.getByTestId('cancel-all-market');
    if (!(await button.count())) return; // no workspace to act in (the markets are still loading)
    if (await button.isEnabled()) {
      await button.click();
      this.clicked = true;
    }
    await acceptConfirm(page);
  }
}

/** Arm the ladder (if it is not) and click a bid or ask cell some rows behind the inside. */
export class LadderClick extends Step {
  constructor(
    readonly side: 'Buy' | 'Sell',
    readonly rowsAway: number,
  ) {
    super();
  }
  check = online;
  entered: PlacedEntry | null = null;
  toString() {
    return `ladder click ${this.side} ${this.rowsAway} rows behind the inside`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  /** The order is the clicked row's price and the size the ladder's own Size field showed. */
  /** Why the ticket's button was disabled when the step gave up on it (the reason may pass before the check reads the screen). */
  refusedWith = '';
  override postcondition(model: Readonly<Model>, real: Real, before: Before) {
    return placedAsEntered(model, real, before, this.entered, this.refusedWith);
  }
  async act(model: Model, real: Real) {
    this.entered = null;
    this.refusedWith = '';
    const { page } = real.world;
    const market = marketOf(model, real);
    const ladder = page.getByTestId('ladder');
    if (!(await ladder.count())) return;
    await showTab(page, 'ticket');
    const inside = await insideNow(real, market, model.turbo);
    if (!inside) return;
    // The trader types the size in the ladder's own field: a click trades what that field shows.
    await page.getByTestId('ladder-size').fill(editableQuantity(market, quantityFor(bookOf(model, real), inside.bid, 2)));
    if ((await ladder.getAttribute('data-armed')) !== 'true') await page.getByTestId('ladder-arm').click();
    const best = page.locator(`[data-testid=ladder-row].${this.side === 'Buy' ? 'best-bid' : 'best-ask'}`);
    if (!(await best.count())) return;
    // The best row may go between counting and reading it (the book resyncing, a new inside): nothing to click then.
    const bestPrice = await best.first().getAttribute('data-price', { timeout: 2000 }).catch(() => null);
    if (bestPrice === null) return;
    const index = await page.locator('[data-testid=ladder-row]').evaluateAll((rows, wanted) => rows.findIndex((row) => row.getAttribute('data-price') === wanted), bestPrice);
    if (index < 0) return;
    const target = page.locator('[data-testid=ladder-row]').nth(this.side === 'Buy' ? index + this.rowsAway : Math.max(0, index - this.rowsAway));
    if (!(await target.count())) return;
    const rowPrice = await target.getAttribute('data-price', { timeout: 2000 }).catch(() => null);
    const sizeText = await page.getByTestId('ladder-size').inputValue().catch(() => '');
    const size = parseUnits(sizeText.trim(), market.base.decimals, 'Size');
    const clicked = await target.getByTestId(this.side === 'Buy' ? 'bid-cell' : 'ask-cell').click({ timeout: 5000 }).then(() => true, () => false);
    // An empty or unreadable size must be refused (the ladder's hint says so): held as "none placed".
    if (clicked && rowPrice !== null) this.entered = { side: this.side, price: BigInt(rowPrice), quantity: size.ok ? size.value : -1n };
    await acceptConfirm(page);
  }
}

/** Drag an own order on the ladder some rows away (cancel and replace). */
export class DragOrder extends Step {
  constructor(readonly rows: number) {
    super();
  }
  check = online;
  moved: { orderId: string; from: bigint; to: bigint } | null = null;
  toString() {
    return `drag an own order ${this.rows} rows`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  /**
   * Amend by drag: the old order gone, one at the price of the row it was dropped on in its place,
   * its legs carried. Dropped back on its own row, the ladder cancels it: held as cancel one.
   */
  override async postcondition(model: Readonly<Model>, real: Real, before: Before) {
    const moved = this.moved;
    const old = before.resting.open.find((order) => order.orderId === moved?.orderId);
    if (moved === null || old === undefined) return [];
    if (moved.to === moved.from) {
      const { after, statuses } = await restingNow(real, before);
      return checkCancelOne(old.orderId, before.resting, after, statuses);
    }
    return amendedOnExchange(model, real, before, old, moved.to, null);
  }
  async act(_model: Model, real: Real) {
    this.moved = null;
    const { page } = real.world;
    const own = page.locator('[data-testid=ladder] [data-testid=own-order]').first();
    if (!(await own.count())) return;
    // One order on the row is one amend to hold (a row of several moves them all).
    const ids = ((await own.getAttribute('data-order-ids', { timeout: 2000 }).catch(() => null)) ?? '').split(',').filter((id) => id !== '');
    const fromRow = await own.locator('xpath=ancestor::*[@data-testid="ladder-row"]').getAttribute('data-price', { timeout: 2000 }).catch(() => null);
    if ((await page.getByTestId('ladder').getAttribute('data-armed')) !== 'true') await page.getByTestId('ladder-arm').click();
    // The order may fill or go while the ladder is armed: then there is nothing to drag.
    const from = await own.boundingBox({ timeout: 2000 }).catch(() => null);
    if (!from) return;
    const x = from.x + from.width / 2;
    const y = from.y + from.height / 2 + this.rows * from.height;
    await page.mouse.move(x, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(x, y, { steps: 6 });
    // The row under the pointer when it is released: the price the order moves to.
    const toRow = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-testid=ladder-row]')?.getAttribute('data-price') ?? null, { x, y }).catch(() => null);
    await page.mouse.up();
    if (ids.length === 1 && fromRow !== null && toRow !== null) this.moved = { orderId: ids[0]!, from: BigInt(fromRow), to: BigInt(toRow) };
    await acceptConfirm(page);
  }
}

/** Shift+B / Shift+S: buy at the best offer or sell at the best bid with the ladder's size. */
export class Hotkey extends Step {
  constructor(readonly side: 'Buy' | 'Sell') {
    super();
  }
  check = online;
  entered: PlacedEntry | null = null;
  toString() {
    return `hotkey ${this.side === 'Buy' ? 'Shift+B' : 'Shift+S'}`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  /** At best, with the size the confirmation states (or, without one, the ticket's, which the hotkey trades). */
  /** Why the ticket's button was disabled when the step gave up on it (the reason may pass before the check reads the screen). */
  refusedWith = '';
  override postcondition(model: Readonly<Model>, real: Real, before: Before) {
    return placedAsEntered(model, real, before, this.entered, this.refusedWith);
  }
  async act(model: Model, real: Real) {
    this.entered = null;
    this.refusedWith = '';
    const { page } = real.world;
    const market = marketOf(model, real);
    const inside = await insideNow(real, market, model.turbo);
    if (!inside) return;
    await showTab(page, 'ticket');
    // Shift+B/S trade the ladder's own Size (a window without a ladder keeps the last one: the dialog states it).
    const quantity = quantityFor(bookOf(model, real), inside.ask, 2);
    await page.getByTestId('ladder-size').fill(editableQuantity(market, quantity), { timeout: 2000 }).catch(() => undefined);
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await page.keyboard.press(this.side === 'Buy' ? 'Shift+B' : 'Shift+S');
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 600 }).catch(() => undefined);
    const stated = (await dialog.count()) ? statedClose([(await dialog.textContent().catch(() => null)) ?? ''], market) : null;
    this.entered = { side: this.side, quantity: stated?.quantity ?? quantity };
    await acceptConfirm(page);
  }
}

/** The kill switch: nothing of any account of the terminal stays open or pending, on any book. */
export class KillSwitch extends Step {
  /** With `hotkey`, Shift+K instead of the KILL button (the report then comes as a notice). */
  constructor(readonly hotkey = false) {
    super();
  }
  check = online;
  report = '';
  toString() {
    return this.hotkey ? 'kill switch (Shift+K)' : 'kill switch';
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  /** The algorithms running or paused before it: each must be cancelled by it, its children swept. */
  algosBefore: ReadonlySet<string> = new Set();
  override async postcondition(_model: Readonly<Model>, real: Real, before: Before) {
    const after = await real.truth.resting(contractsOf(accountsOf(real)), real.turboMarkets);
    return [...checkNothingLeft(before.resting, after, `${this.report} | ${await newWarnings(real.world.page, before)}`), ...(await killedAlgosHold(real, this.algosBefore))];
  }
  async act(_model: Model, real: Real) {
    const { page } = real.world;
    this.report = '';
    this.algosBefore = await activeAlgoIds(real);
    if (this.hotkey) {
      await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
      await page.keyboard.press('Shift+K');
      await acceptConfirm(page);
      return; // the postcondition waits for the cancels; the notices carry the report
    }
    await page.getByTestId('kill-switch').click();
    await acceptConfirm(page);
    await page.getByTestId('kill-report').waitFor({ timeout: 20_000 }).catch(() => undefined);
    // What it says it could not cancel (the error lines and their list), not the ids it cancelled.
    this.report = (await page.locator('[data-testid=kill-report] .error, [data-testid=kill-report] li').allTextContents().catch(() => [])).join(' | ');
    const close = page.getByTestId('kill-report-close');
    if (await close.count()) await close.click();
  }
}

/**
 * Drag an own order's line on the chart by `pixels` away from the inside (a buy down, a sell up):
 * an amend to the price the line shows when it is dropped.
 */
export class ChartDrag extends Step {
  constructor(readonly pixels: number) {
    super();
  }
  check = online;
  target: { old: TruthOrder; price: bigint } | null = null;
  toString() {
    return `drag an own order's chart line ${this.pixels} px`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  override postcondition(model: Readonly<Model>, real: Real, before: Before) {
    if (this.target === null) return Promise.resolve([]);
    return amendedOnExchange(model, real, before, this.target.old, this.target.price, null);
  }
  async act(_model: Model, real: Real) {
    this.target = null;
    const { page } = real.world;
    const before = this.read;
    if (before === null) return;
    const line = page.locator('[data-testid=chart-order]').first();
    if (!(await line.count())) return;
    const orderId = await line.getAttribute('data-order-id', { timeout: 2000 }).catch(() => null);
    const old = before.resting.open.find((order) => order.orderId === orderId);
    const box = await line.locator('[data-testid=chart-line-label]').boundingBox({ timeout: 2000 }).catch(() => null);
    if (old === undefined || box === null) return;
    const dy = old.side === 'Buy' ? this.pixels : -this.pixels;
    await page.mouse.move(box.x + 8, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 8, box.y + box.height / 2 + dy, { steps: 8 });
    const shown = await line.getAttribute('data-price', { timeout: 2000 }).catch(() => null);
    await page.mouse.up();
    if (shown !== null && BigInt(shown) !== old.price) this.target = { old, price: BigInt(shown) };
    await acceptConfirm(page);
  }
}

/**
 * The Stops tab: a stop on its own, or an OCO pair, sized by quantity. A Sell stop triggers 3 %
 * under the bid, a Buy stop 3 % over the ask; an OCO pair adds a leg 3 % on the other side.
 */
export class StopOrder extends Step {
  constructor(
    readonly side: 'Buy' | 'Sell',
    readonly oco: boolean,
  ) {
    super();
  }
  check = online;
  entered: EnteredLeg[] | null = null;
  /** The form's error, read before the step leaves the Stops tab (the form is not drawn behind another tab). */
  refusal = '';
  toString() {
    return `${this.oco ? 'OCO pair' : 'stop'} ${this.side} from the Stops tab`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  /** Exactly the legs entered are pending (an OCO pair naming each other), or none and the refusal shown. */
  override async postcondition(model: Readonly<Model>, real: Real, before: Before) {
    if (this.entered === null) return [];
    const accounts = accountsOf(real);
    const market = marketOf(model, real);
    const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
    const fired = await newOrders(real.truth, accounts, market, model.turbo, before);
    return checkLegsPlaced({ account: signerOn(accounts, model.turbo), marketId: market.market_id, turbo: model.turbo }, this.entered, before.resting, after, `${this.refusal} ${await refusalShown(real.world.page, before)}`, { oco: this.oco, firedOrders: fired });
  }
  async act(model: Model, real: Real) {
    this.entered = null;
    this.refusal = '';
    const { page } = real.world;
    const market = marketOf(model, real);
    const inside = await insideNow(real, market, model.turbo);
    if (!inside) return;
    const tick = tickOf(market);
    const buy = this.side === 'Buy';
    const stop = ((buy ? (inside.ask * 103n) / 100n : (inside.bid * 97n) / 100n) / tick) * tick;
    const other = ((buy ? (inside.bid * 97n) / 100n : (inside.ask * 103n) / 100n) / tick) * tick;
    const quantity = quantityFor(bookOf(model, real), stop, 2);
    await showTab(page, 'stops');
    const form = page.getByTestId('stop-form');
    if (!(await form.count())) return;
    await page.getByTestId(this.oco ? 'stop-mode-oco' : 'stop-mode-single').check();
    await page.getByTestId('stop-size-quantity').check();
    await page.getByTestId(buy ? 'stop-side-buy' : 'stop-side-sell').click();
    await page.getByTestId('stop-quantity').fill(editableQuantity(market, quantity));
    await page.getByTestId('stop-leg-first-trigger').fill(editablePrice(market, stop));
    if (this.oco) await page.getByTestId('stop-leg-second-trigger').fill(editablePrice(market, other));
    this.entered = this.oco ? [{ side: this.side, triggerPrice: stop, quantity }, { side: this.side, triggerPrice: other, quantity }] : [{ side: this.side, triggerPrice: stop, quantity }];
    await page.getByTestId('stop-submit').click();
    await acceptConfirm(page);
    await until(async () => (await page.getByTestId('stop-submit').textContent().catch(() => '')) !== 'Placing…', 'the stop form to show the outcome', 20_000).catch(() => undefined);
    this.refusal = (await page.getByTestId('stop-error').allTextContents().catch(() => [])).join(' | ');
    await showTab(page, 'ticket');
  }
}

/** The n-th pending leg listed under Open orders, as the exchange has it (null when none is both listed and pending). */
async function chooseLeg(page: Page, index: number, before: Before): Promise<{ row: ReturnType<Page['locator']>; leg: Before['resting']['triggers'][number] } | null> {
  const ids = (await page.locator('[data-testid=open-orders] [data-testid=trigger-row]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-trigger-id') ?? ''))).filter((id) => id !== '');
  if (ids.length === 0) return null;
  const legId = ids[index % ids.length]!;
  const leg = before.resting.triggers.find((candidate) => candidate.triggerId === legId);
  return leg === undefined ? null : { row: page.locator(`[data-testid=open-orders] [data-testid=trigger-row][data-trigger-id="${legId}"]`), leg };
}

/** Cancel a take-profit, stop-loss, stop or OCO leg from the legs under Open orders. */
export class CancelLeg extends Step {
  constructor(readonly index: number) {
    super();
  }
  check = online;
  target: string | null = null;
  toString() {
    return `cancel leg #${this.index} under Open orders`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  override async postcondition(_model: Readonly<Model>, real: Real, before: Before) {
    if (this.target === null) return [];
    const { after, statuses } = await restingNow(real, before);
    return checkLegCancelled(this.target, before.resting, after, statuses);
  }
  async act(model: Model, real: Real) {
    this.target = null;
    const { page } = real.world;
    await showTab(page, 'orders');
    model.tab = 'orders';
    if (this.read === null) return;
    const chosen = await chooseLeg(page, this.index, this.read);
    if (chosen === null) return;
    if (!(await chosen.row.getByTestId('trigger-cancel').click({ timeout: 3000 }).then(() => true, () => false))) return;
    this.target = chosen.leg.triggerId;
    await acceptConfirm(page);
  }
}

/** Move a leg 1 % further from the inside from the legs under Open orders (its OCO sibling goes along). */
export class MoveLeg extends Step {
  constructor(readonly index: number) {
    super();
  }
  check = online;
  target: { triggerId: string; price: bigint; seen: ReadonlySet<string> } | null = null;
  toString() {
    return `move leg #${this.index} under Open orders`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  override async postcondition(_model: Readonly<Model>, real: Real, before: Before) {
    const target = this.target;
    if (target === null) return [];
    const leg = before.resting.triggers.find((candidate) => candidate.triggerId === target.triggerId);
    const market = real.world.markets.find((candidate) => candidate.market_id === leg?.marketId);
    if (leg === undefined || market === undefined) return [];
    const accounts = accountsOf(real);
    const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
    const fresh = (await real.truth.orders(market, leg.turbo, contractsOf(accounts), false, 50)).filter((order) => !target.seen.has(order.orderId));
    return checkLegMoved(target.triggerId, target.price, before.resting, after, await refusalShown(real.world.page, before), fresh);
  }
  async act(model: Model, real: Real) {
    this.target = null;
    const { page } = real.world;
    await showTab(page, 'orders');
    model.tab = 'orders';
    if (this.read === null) return;
    const chosen = await chooseLeg(page, this.index, this.read);
    if (chosen === null) return;
    const market = real.world.markets.find((candidate) => candidate.market_id === chosen.leg.marketId);
    if (market === undefined) return;
    const inside = await insideNow(real, market, chosen.leg.turbo);
    if (!inside) return;
    const tick = tickOf(market);
    const below = chosen.leg.triggerPrice < inside.bid;
    const price = below ? (((chosen.leg.triggerPrice * 99n) / 100n) / tick) * tick : ((((chosen.leg.triggerPrice * 101n) / 100n) + tick - 1n) / tick) * tick;
    const seen = new Set((await real.truth.orders(market, chosen.leg.turbo, contractsOf(accountsOf(real)), false, 50)).map((order) => order.orderId));
    await chosen.row.getByTestId('trigger-move-price').fill(editablePrice(market, price));
    if (!(await chosen.row.getByTestId('trigger-move').click({ timeout: 3000 }).then(() => true, () => false))) return;
    this.target = { triggerId: chosen.leg.triggerId, price, seen };
    await acceptConfirm(page);
    await until(async () => (await chosen.row.count()) === 0 || (await page.getByTestId('triggers-error').count()) > 0, 'the move to settle', 15_000).catch(() => undefined);
  }
}

/**
 * Amend from Open orders: a new price 0.5 % further from the inside (the quantity as it stands);
 * with `withLegs`, a resting bracket entry's when there is one (its legs must be carried).
 */
export class AmendOrder extends Step {
  constructor(
    readonly index: number,
    readonly withLegs: boolean,
  ) {
    super();
  }
  check = online;
  target: { old: TruthOrder; price: bigint; seen: ReadonlySet<string> } | null = null;
  toString() {
    return `amend open order #${this.index}${this.withLegs ? ' (one with legs if any)' : ''} from the table`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  override postcondition(model: Readonly<Model>, real: Real, before: Before) {
    if (this.target === null) return Promise.resolve([]);
    return amendedOnExchange(model, real, before, this.target.old, this.target.price, null, this.refusal, this.target.seen);
  }
  async act(model: Model, real: Real) {
    this.target = null;
    this.refusal = '';
    const { page } = real.world;
    await showTab(page, 'orders');
    model.tab = 'orders';
    const before = this.read;
    if (before === null) return;
    const chosen = await chooseOpenOrder(page, this.index, this.withLegs, before);
    const old = before.resting.open.find((order) => order.orderId === chosen?.orderId);
    if (chosen === null || old === undefined) return;
    const market = real.world.markets.find((candidate) => candidate.market_id === old.marketId);
    if (market === undefined) return;
    const tick = tickOf(market);
    const price = (((old.side === 'Buy' ? (old.price * 995n) / 1000n : (old.price * 1005n) / 1000n) + (old.side === 'Buy' ? 0n : tick - 1n)) / tick) * tick;
    const seen = new Set((await real.truth.orders(market, old.turbo, contractsOf(accountsOf(real)), false, 50)).map((order) => order.orderId));
    if (!(await chosen.row.getByTestId('amend-order').click({ timeout: 3000 }).then(() => true, () => false))) return;
    const edited = await chosen.row
      .getByTestId('amend-price')
      .fill(editablePrice(market, price), { timeout: 5000 })
      .then(() => chosen.row.getByTestId('amend-save').click({ timeout: 5000 }))
      .then(() => null, (error: unknown) => error);
    if (edited !== null) {
      // The row may leave the table between the two clicks because the market filled the order:
      // then nothing was amended. A row that vanished while its order still rests is a defect.
      const stillOpen = (await real.truth.orders(market, old.turbo, contractsOf(accountsOf(real)), true, 200)).some((order) => order.orderId === old.orderId);
      if (!stillOpen) return;
      throw new Error(`the amend editor of open order ${old.orderId} could not be used while the order rests: ${edited instanceof Error ? edited.message.split('\n')[0] : String(edited)}`);
    }
    this.target = { old, price, seen };
    await acceptConfirm(page);
    // Until the row leaves edit mode (saved) or says why not.
    await until(async () => (await chosen.row.getByTestId('amend-save').count()) === 0 || (await chosen.row.getByTestId('amend-error').count()) > 0, 'the amend to settle', 20_000).catch(() => undefined);
    if (await chosen.row.getByTestId('amend-discard').count()) {
      // Refused: what it said is read by the postcondition before the row is put back.
      this.refusal = (await chosen.row.getByTestId('amend-error').textContent().catch(() => null)) ?? '';
      await chosen.row.getByTestId('amend-discard').click().catch(() => undefined);
    }
  }
  refusal = '';
}

/**
 * Flatten one position from Positions: the dialog's words are read before it is accepted (the
 * size it states is what must sell or buy, the remainder it must state).
 */
export class Flatten extends Step {
  /** With `hotkey`, Shift+F on the market and book in view (when one position is there) instead of a row's button. */
  constructor(
    readonly index: number,
    readonly hotkey = false,
  ) {
    super();
  }
  check = online;
  target: { market: Market; account: string; turbo: boolean; sizes: bigint[]; dialog: string; seen: ReadonlySet<string> } | null = null;
  toString() {
    return this.hotkey ? 'flatten the market in view (Shift+F)' : `flatten position #${this.index} from Positions`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  override async postcondition(_model: Readonly<Model>, real: Real, before: Before) {
    const target = this.target;
    if (target === null) return [];
    const accounts = accountsOf(real);
    const seen = target.seen;
    const fresh = (await real.truth.orders(target.market, target.turbo, contractsOf(accounts), false, 50)).filter((order) => !seen.has(order.orderId));
    const refusal = await refusalShown(real.world.page, before);
    // The position read before the click and after the dialog showed: a fill in between makes either the one stated.
    const results = target.sizes.map((size) => checkFlatten(target.market, { account: target.account, turbo: target.turbo, size }, [target.dialog], fresh, refusal));
    return results.find((problems) => problems.length === 0) ?? results[0] ?? [];
  }
  async act(model: Model, real: Real) {
    this.target = null;
    const { page } = real.world;
    if (model.detached.includes('positions')) return;
    await showTab(page, 'positions');
    model.tab = 'positions';
    const inView = marketOf(model, real).market_id;
    const rows = this.hotkey
      ? page.locator(`[data-testid=position-row][data-market-id="${inView}"][data-turbo="${model.turbo ? 'true' : 'false'}"]:has([data-testid=flatten-position]:enabled)`)
      : page.locator('[data-testid=position-row]:has([data-testid=flatten-position]:enabled)');
    const count = await rows.count();
    // The hotkey flattens every position of the market and book: one is one dialog line to hold.
    if (count === 0 || (this.hotkey && count !== 1)) return;
    const row = rows.nth(this.index % count);
    const marketId = await row.getAttribute('data-market-id');
    const account = (await row.getAttribute('data-account')) ?? '';
    const turbo = (await row.getAttribute('data-turbo')) === 'true';
    const found = real.world.markets.find((market) => market.market_id === marketId);
    if (!found) return;
    const market = turbo ? (real.turboBooks?.get(found.market_id) ?? found) : found;
    const seen = new Set((await real.truth.orders(market, turbo, contractsOf(accountsOf(real)), false, 50)).map((order) => order.orderId));
    const key = `${found.market_id}${turbo ? ':turbo' : ''}`;
    const sizeNow = async () => (await real.truth.positions(account, real.turboMarkets)).get(key)?.size ?? 0n;
    const first = await sizeNow();
    if (this.hotkey) {
      await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
      await page.keyboard.press('Shift+F');
    } else if (!(await row.getByTestId('flatten-position').click({ timeout: 3000 }).then(() => true, () => false))) return;
    const dialog = page.getByTestId('confirm-dialog');
    if (!(await dialog.waitFor({ timeout: 5000 }).then(() => true, () => false))) return;
    const text = (await dialog.textContent().catch(() => null)) ?? '';
    const second = await sizeNow();
    this.target = { market, account, turbo, sizes: [first, second], dialog: text, seen };
    await page.getByTestId('confirm-accept').click();
  }
}

/**
 * Close a share of one position (its row's 25 / 50 / 75 % button) or reverse it (its row's
 * Reverse): the dialog's words are read before it is accepted, then checked against the position
 * on the exchange and the orders that reached it (checkPartialClose, checkReverse).
 */
export class ClosePart extends Step {
  /** `percent` 0 reverses. */
  constructor(
    readonly index: number,
    readonly percent: 0 | 25 | 50 | 75,
  ) {
    super();
  }
  check = online;
  target: { market: Market; account: string; turbo: boolean; sizes: bigint[]; dialog: string[]; seen: ReadonlySet<string> } | null = null;
  toString() {
    return this.percent === 0 ? `reverse position #${this.index} from Positions` : `close ${this.percent} % of position #${this.index} from Positions`;
  }
  private get button() {
    return this.percent === 0 ? 'reverse-position' : `close-part-${this.percent}`;
  }
  override before(model: Readonly<Model>, real: Real) {
    return beforeOnBook(model, real);
  }
  override async postcondition(_model: Readonly<Model>, real: Real, before: Before) {
    const target = this.target;
    if (target === null) return [];
    const seen = target.seen;
    const fresh = (await real.truth.orders(target.market, target.turbo, contractsOf(accountsOf(real)), false, 50)).filter((order) => !seen.has(order.orderId));
    const refusal = await refusalShown(real.world.page, before);
    // The position read before the click and after the dialog showed: a fill in between makes either the one stated.
    const results = target.sizes.map((size) => {
      const position = { account: target.account, turbo: target.turbo, size };
      return this.percent === 0 ? checkReverse(target.market, position, target.dialog, fresh, refusal) : checkPartialClose(target.market, position, this.percent, target.dialog, fresh, refusal);
    });
    return results.find((problems) => problems.length === 0) ?? results[0] ?? [];
  }
  async act(model: Model, real: Real) {
    this.target = null;
    const { page } = real.world;
    if (model.detached.includes('positions')) return;
    await showTab(page, 'positions');
    model.tab = 'positions';
    const opened = await openCloseDialog(real, this.button, this.index);
    if (opened === null) return;
    const { market, account, turbo, first, second, text, seen } = opened;
    this.target = { market, account, turbo, sizes: [first, second], dialog: text, seen };
    await page.getByTestId('confirm-accept').click();
  }
}

/**
 * Press a close button (`button`) on the `index`-th Positions row that has it enabled and wait for
 * its confirmation, reading the position's size just before and after the press (a fill may land in
 * between) and the orders the exchange already had; null where no row has it or no dialog came.
 */
export async function openCloseDialog(real: Real, button: string, index: number) {
  const { page } = real.world;
  const rows = page.locator(`[data-testid=position-row]:has([data-testid=${button}]:enabled)`);
  const count = await rows.count();
  if (count === 0) return null;
  const row = rows.nth(index % count);
  const marketId = await row.getAttribute('data-market-id');
  const account = (await row.getAttribute('data-account')) ?? '';
  const turbo = (await row.getAttribute('data-turbo')) === 'true';
  const found = real.world.markets.find((market) => market.market_id === marketId);
  if (!found) return null;
  const market = turbo ? (real.turboBooks?.get(found.market_id) ?? found) : found;
  const seen = new Set((await real.truth.orders(market, turbo, contractsOf(accountsOf(real)), false, 50)).map((order) => order.orderId));
  const key = `${found.market_id}${turbo ? ':turbo' : ''}`;
  const sizeNow = async () => (await real.truth.positions(account, real.turboMarkets)).get(key)?.size ?? 0n;
  const first = await sizeNow();
  if (!(await row.getByTestId(button).click({ timeout: 3000 }).then(() => true, () => false))) return null;
  const dialog = page.getByTestId('confirm-dialog');
  if (!(await dialog.waitFor({ timeout: 5000 }).then(() => true, () => false))) return null;
  const lines = await dialog.locator('li, p').allTextContents().catch(() => [] as string[]);
  const text = lines.length > 0 ? lines : [(await dialog.textContent().catch(() => null)) ?? ''];
  const second = await sizeNow();
  return { found, market, account, turbo, seen, first, second, text };
}

export class SelectMarket extends Step {
  constructor(readonly index: number) {
    super();
  }
  check = (model: Readonly<Model>) => online(model) && !model.turbo;
  toString() {
    return `select market #${this.index}`;
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    const market = real.world.markets[this.index % real.world.markets.length]!;
    // FUEL/USDC needs whitelisting the onboarding did; every market is fine to watch.
    await page.getByTestId('market-selector').click();
    await page.locator(`[data-testid=market-menu] [data-testid=market-row][data-market-id="${market.market_id}"]`).click();
    model.marketIndex = this.index % real.world.markets.length;
    // The app keeps each market's book (Canonical or Turbo) as the trader last left it: the model
    // takes the book the market bar shows once the market is in view.
    await until(async () => (await page.getByTestId('ladder').getAttribute('data-market-id').catch(() => null)) === market.market_id, 'the ladder to show the market', 10_000).catch(() => undefined);
    model.turbo = (await page.getByTestId('market-bar').getAttribute('data-book').catch(() => null)) === 'turbo';
  }
}

/** Switch the selected market between its canonical and its Turbo book. */
export class TurboToggle extends Step {
  check = (model: Readonly<Model>) => online(model);
  toString() {
    return 'Turbo toggle';
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    const market = marketOf(model, real);
    if (!real.turboMarkets.includes(market.market_id)) return;
    const target = model.turbo ? 'turbo-toggle-canonical' : 'turbo-toggle-turbo';
    const button = page.getByTestId(target);
    if (!(await button.count()) || (await button.isDisabled())) return;
    await button.click();
    await until(async () => (await page.getByTestId('market-bar').getAttribute('data-book')) === (model.turbo ? 'canonical' : 'turbo'), 'the book to switch', 10_000);
    model.turbo = !model.turbo;
  }
}

export class ShowTab extends Step {
  constructor(readonly tab: BlotterTab) {
    super();
  }
  check = (model: Readonly<Model>) => !(model.detached as string[]).includes(this.tab);
  toString() {
    return `show ${this.tab}`;
  }
  async act(model: Model, real: Real) {
    await showTab(real.world.page, this.tab);
    model.tab = this.tab;
  }
}

/** To the configured network nobody answers on, and (another command) back. */
export class SwitchNetwork extends Step {
  constructor(readonly to: 'sandbox' | 'devnet') {
    super();
  }
  check = (model: Readonly<Model>) => model.network !== this.to;
  toString() {
    return `switch network to ${this.to}`;
  }
  /** The exchange is read directly (not through the app), whichever network the app is on. */
  override before(model: Readonly<Model>, real: Real) {
    return readBefore(real.truth, accountsOf(real), marketOf(model, real), model.turbo, real.world.page);
  }
  /** Places and cancels nothing: what rests on the sandbox is as it was, bar fills and fired legs. */
  override async postcondition(_model: Readonly<Model>, real: Real, before: Before) {
    const { after, statuses } = await restingNow(real, before);
    return checkUnchanged(before.resting, after, statuses, `a switch to ${this.to}`);
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    const networks = value(await real.world.bridge.api.listNetworks({}));
    const target = networks.find((network) => network.kind === this.to);
    if (!target) throw new Error(`no ${this.to} network`);
    await page.getByTestId('network-select').selectOption(target.id);
    await acceptConfirm(page);
    await until(async () => (await page.getByTestId('network-select').inputValue()) === target.id, `the ${this.to} network to be selected`, 10_000);
    model.network = this.to;
    // A network switch puts the workspace on the new network's markets: back to the first, canonical.
    if (this.to === 'sandbox') {
      await until(async () => {
        await toWorkspace(real);
        return (await page.getByTestId('ladder').count()) > 0;
      }, 'the workspace', 30_000).catch(() => undefined);
      const marketId = await page.getByTestId('ladder').getAttribute('data-market-id').catch(() => null);
      const index = real.world.markets.findIndex((market) => market.market_id === marketId);
      if (index >= 0) model.marketIndex = index;
      model.turbo = (await page.getByTestId('market-bar').getAttribute('data-book').catch(() => null)) === 'turbo';
    }
  }
}

export class Detach extends Step {
  constructor(readonly kind: Detachable) {
    super();
  }
  check = (model: Readonly<Model>) => !model.detached.includes(this.kind);
  toString() {
    return `detach ${this.kind}`;
  }
  async act(model: Model, real: Real) {
    const { page, context } = real.world;
    await showTab(page, this.kind);
    const button = page.getByTestId(`detach-${this.kind}`);
    if (!(await button.count())) return;
    const [popup] = await Promise.all([context.waitForEvent('page', { timeout: 15_000 }), button.first().click()]);
    popup.on('pageerror', (error) => real.world.pageErrors.push(`${this.kind} window: ${String(error)}`));
    await popup.waitForLoadState();
    real.popups.set(this.kind, popup);
    model.detached.push(this.kind);
  }
}

export class Dock extends Step {
  constructor(readonly kind: Detachable) {
    super();
  }
  check = (model: Readonly<Model>) => model.detached.includes(this.kind);
  toString() {
    return `dock ${this.kind}`;
  }
  async act(model: Model, real: Real) {
    await dockPanel(real, this.kind);
    model.detached = model.detached.filter((kind) => kind !== this.kind);
  }
}

export async function dockPanel(real: Real, kind: Detachable): Promise<void> {
  const { page } = real.world;
  const popup = real.popups.get(kind);
  const dock = page.getByTestId(`dock-${kind}`);
  await showTab(page, kind);
  if (await dock.count()) await dock.first().click();
  else if (popup && !popup.isClosed()) await popup.getByTestId('dock-window').click().catch(() => undefined);
  if (popup) await until(() => popup.isClosed(), `the ${kind} window to close`, 10_000).catch(() => popup.close());
  real.popups.delete(kind);
}

export class Reload extends Step {
  check = () => true;
  toString() {
    return 'reload the page';
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    await page.reload();
    await page.getByTestId('topbar').waitFor({ timeout: 30_000 });
    if (model.network === 'sandbox') {
      await toWorkspace(real);
      await page.getByTestId('workspace').waitFor({ timeout: 30_000 }).catch(() => undefined);
    }
    // The page comes back on its own market and book and its first tab.
    const marketId = await page.getByTestId('ladder').getAttribute('data-market-id', { timeout: 5000 }).catch(() => null);
    const index = real.world.markets.findIndex((market) => market.market_id === marketId);
    if (index >= 0) model.marketIndex = index;
    model.turbo = (await page.getByTestId('market-bar').getAttribute('data-book').catch(() => null)) === 'turbo';
    const tab = await page.getByTestId('blotter').getAttribute('data-tab').catch(() => null);
    if ((BLOTTER_TABS as readonly string[]).includes(tab ?? '')) model.tab = tab as BlotterTab;
  }
}

/** The sandbox's faults: every stream dropped, the next order delayed, failed or its answer lost. */
export class Fault extends Step {
  constructor(
    readonly fault: 'stream-drop' | 'delay' | 'fail' | 'lost-answer',
    readonly then: TicketOrder,
  ) {
    super();
  }
  check = online;
  toString() {
    return `${this.fault}, then ${this.then.toString()}`;
  }
  /** The order's contract holds through the fault: exactly one placed, or none and the refusal shown. */
  override before(model: Readonly<Model>, real: Real) {
    return this.then.before(model, real);
  }
  override postcondition(model: Readonly<Model>, real: Real, before: Before) {
    return this.then.postcondition(model, real, before);
  }
  async act(model: Model, real: Real) {
    const control = real.world.control;
    const orders = { method: 'POST', path_prefix: '/v1/session/actions' };
    if (this.fault === 'stream-drop') await control.post('/control/ws/close-all', {});
    if (this.fault === 'delay') await control.post('/control/faults/delay', { count: 1, delay_ms: 3000, ...orders });
    if (this.fault === 'fail') await control.post('/control/faults/fail', { count: 1, status: 503, ...orders });
    if (this.fault === 'lost-answer') await control.post('/control/faults/drop', { count: 1, ...orders });
    await this.then.act(model, real);
    await control.post('/control/faults/clear', {});
  }
}

/** The exchange restarts (killed; the app's supervisor starts it again, empty): the trader sets up again. */
export class Restart extends Step {
  check = online;
  toString() {
    return 'exchange restart, then account setup again';
  }
  async act(model: Model, real: Real) {
    const { world } = real;
    const pid = sandboxPid(world.host);
    if (pid === null) throw new Error('the sandbox process was not found');
    process.kill(pid, 'SIGKILL');
    // The restarted exchange forgets the Turbo Account too: the trader opens another after setting up.
    const hadTurboAccount = world.turboAccountId !== null;
    world.turboAccountId = null;
    await until(async () => {
      const status = await world.bridge.api.getConnection({});
      return status.ok && status.value.sandbox?.state === 'running' && status.value.sandbox.restarts > 0 && sandboxPid(world.host) !== pid;
    }, 'the sandbox to restart', 60_000);
    await until(async () => {
      const account = await world.bridge.api.getAccountState({});
      return account.ok && account.value.tradeAccount === null;
    }, 'the app to notice the empty exchange', 30_000);
    await forgetAlgosOnRestart(real);
    // The oracle first: what the screen shows of the forgotten account.
    await runOracle(model, real);
    await setUpAgain(real);
    const account = value(await world.bridge.api.getAccountState({}));
    world.tradeAccountId = account.tradeAccount?.tradeAccountId ?? world.tradeAccountId;
    if (hadTurboAccount) {
      // In the main window's blotter (Margin is never detached); it ends on the Open orders tab.
      world.turboAccountId = await openTurboAccount(world.page);
      model.tab = 'orders';
    }
  }
}

// ---- the generator -----------------------------------------------------------------------------

export interface GeneratorOptions {
  /** Leave out the exchange restart (slow: the account is set up again). */
  readonly restart: boolean;
  readonly maxCommands: number;
  /**
   * Pick the actions that have a contract on the exchange (docs/actions.md) three times as often:
   * a short run (the e2e test) then still meets most of them.
   */
  readonly favourContracts?: boolean;
}

export function traderCommands(markets: readonly Market[], options: GeneratorOptions) {
  const side = fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell');
  const ticket = fc.record({ kind: fc.constantFrom(...TICKET_KINDS), side, aggressive: fc.boolean(), units: fc.integer({ min: 2, max: 6 }) }).map((t) => new TicketOrder(t.kind, t.side, t.aggressive, t.units));
  const arbitraries: fc.Arbitrary<fc.AsyncCommand<Model, Real, false>>[] = [
    ticket,
    ticket,
  ];
  // The actions with a contract on the exchange, each checked after it acts (postconditions.ts).
  const contracted: fc.Arbitrary<fc.AsyncCommand<Model, Real, false>>[] = [
    side.map((s) => new BracketOrder(s)),
    side.map((s) => new BracketOrder(s, true)),
    fc.record({ index: fc.nat(20), withLegs: fc.boolean() }).map((c) => new CancelOne(c.index, c.withLegs)),
    fc.record({ index: fc.nat(20), withLegs: fc.boolean() }).map((c) => new AmendOrder(c.index, c.withLegs)),
    fc.record({ side, oco: fc.boolean() }).map((c) => new StopOrder(c.side, c.oco)),
    fc.nat(8).map((index) => new Flatten(index)),
    fc.constant(new Flatten(0, true)),
    fc.tuple(fc.nat(8), fc.constantFrom(0 as const, 25 as const, 50 as const, 75 as const)).map(([index, percent]) => new ClosePart(index, percent)),
    fc.tuple(fc.nat(8), fc.constantFrom(25 as const, 50 as const, 75 as const, 100 as const)).map(([index, percent]) => new CloseByLimit(index, percent)),
    fc.tuple(fc.nat(8), fc.constantFrom('exit' as const, 'last' as const, 'mid' as const), fc.constantFrom('percent' as const, 'bps' as const, 'ticks' as const)).map(([index, mark, unit]) => new ChoosePnlDisplay(index, mark, unit)),
    fc.nat(8).map((index) => new CancelLeg(index)),
    fc.nat(8).map((index) => new MoveLeg(index)),
    fc.nat(8).map((index) => new PositionTakeProfitStopLoss(index)),
    fc.nat(8).map((index) => new TrailStop(index)),
    fc.constant(new CancelAllMarket()),
    fc.constant(new CancelAllMarket(true)),
    fc.record({ side, rows: fc.integer({ min: 2, max: 12 }) }).map((c) => new LadderClick(c.side, c.rows)),
    fc.integer({ min: -4, max: 4 }).filter((rows) => rows !== 0).map((rows) => new DragOrder(rows)),
    fc.integer({ min: 15, max: 60 }).map((pixels) => new ChartDrag(pixels)),
    fc.record({ side, steps: fc.integer({ min: 3, max: 20 }) }).map((c) => new ChartClickToPlace(c.side, c.steps)),
    side.map((s) => new Hotkey(s)),
    fc.constant(new KillSwitch()),
    fc.constant(new KillSwitch(true)),
    fc.record({ direction: fc.constantFrom<'above' | 'below'>('above', 'below'), ticks: fc.integer({ min: 2, max: 6 }) }).map((c) => new PriceAlertFromLadder(c.direction, c.ticks)),
    fc.record({ kind: fc.constantFrom<GuardKind>('notional', 'position'), units: fc.integer({ min: 2, max: 6 }) }).map((g) => new GuardRefusal(g.kind, g.units)),
    fc.constant(new SettleBookAsOwner()),
    // Execution algorithms (steps/algos.ts): short and small, each start a line, so that an
    // algorithm runs now and then beside the rest; pause, resume and cancel from the panel.
    fc.record({ side, interval: fc.integer({ min: 5, max: 10 }), slices: fc.integer({ min: 3, max: 6 }) }).map((c) => new StartAlgo('twap', c.side, false, c.interval, c.slices)),
    side.map((s) => new StartAlgo('scale', s)),
    side.map((s) => new StartAlgo('iceberg', s)),
    fc.record({ side, ladder: fc.boolean(), offset: fc.integer({ min: 0, max: 3 }) }).map((c) => new StartAlgo('chase', c.side, c.ladder, 5, 4, c.offset)),
    fc.nat(4).map((index) => new AlgoFromPanel('pause', index)),
    fc.nat(4).map((index) => new AlgoFromPanel('resume', index)),
    fc.nat(4).map((index) => new AlgoFromPanel('cancel', index)),
  ];
  for (let copies = options.favourContracts === true ? 3 : 1; copies > 0; copies--) arbitraries.push(...contracted);
  arbitraries.push(
    fc.nat(markets.length - 1).map((index) => new SelectMarket(index)),
    fc.constant(new TurboToggle()),
    fc.constantFrom(...BLOTTER_TABS).map((tab) => new ShowTab(tab)),
    // The margin risk panel (of the Turbo Account traded as) is only held while its tab is shown:
    // picked twice as often as the other tabs, so short runs see it too.
    fc.constant(new ShowTab('margin')),
    fc.constantFrom<'sandbox' | 'devnet'>('sandbox', 'devnet').map((to) => new SwitchNetwork(to)),
    fc.constantFrom(...DETACHABLE).map((kind) => new Detach(kind)),
    fc.constantFrom(...DETACHABLE).map((kind) => new Dock(kind)),
    fc.constant(new Reload()),
    fc.record({ fault: fc.constantFrom<'stream-drop' | 'delay' | 'fail' | 'lost-answer'>('stream-drop', 'delay', 'fail', 'lost-answer'), order: ticket }).map((f) => new Fault(f.fault, f.order)),
  );
  if (options.restart) arbitraries.push(fc.constant(new Restart()));
  return fc.commands(arbitraries, { maxCommands: options.maxCommands, size: 'max' });
}
