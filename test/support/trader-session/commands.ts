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
  const report = await checkScreen(pages, real.truth, real.world.markets, () => oracleView(snapshot, real), { boundMs: real.boundMs }).catch(async (error: unknown) => {
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

async function acceptConfirm(page: Page): Promise<void> {
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

async function showTab(page: Page, kind: string): Promise<void> {
  const tab = page.getByTestId(`tab-${kind}`);
  if (await tab.count()) await tab.first().click();
}

const tickOf = (market: Market) => 10n ** BigInt(Math.max(0, market.quote.decimals - market.quote.max_precision));
const stepOf = (market: Market) => 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));

/** A quantity worth about `units` × min_order at `price`, on the step and above dust. */
function quantityFor(market: Market, price: bigint, units: number): bigint {
  const step = stepOf(market);
  const byValue = ((BigInt(units) * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 1n) * step;
  const byDust = ((market.dust + step - 1n) / step + 1n) * step;
  return byValue > byDust ? byValue : byDust;
}

async function insideNow(real: Real, market: Market, turbo: boolean): Promise<{ bid: bigint; ask: bigint } | null> {
  const inside = await real.truth.inside(market, turbo).catch(() => null);
  return inside?.bid != null && inside.ask != null ? { bid: inside.bid, ask: inside.ask } : null;
}

// ---- commands ----------------------------------------------------------------------------------

abstract class Step implements fc.AsyncCommand<Model, Real, false> {
  abstract check(model: Readonly<Model>): boolean;
  abstract act(model: Model, real: Real): Promise<void>;
  abstract toString(): string;
  async run(model: Model, real: Real): Promise<void> {
    real.step(this.toString());
    try {
      await this.act(model, real);
      await runOracle(model, real);
    } catch (error) {
      real.failed(this.toString(), error);
      await real.world.page.screenshot({ path: join(SCREENSHOT_DIR, 'trader-session', `failed-step.png`) }).catch(() => undefined);
      throw error;
    }
  }
}

const online = (model: Readonly<Model>) => model.network === 'sandbox';

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
  toString() {
    return `ticket ${this.kind} ${this.side} ${this.aggressive ? 'crossing' : 'passive'} ×${this.units}`;
  }
  async act(model: Model, real: Real) {
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
    const submit = page.getByTestId('ticket-submit');
    await page.waitForTimeout(150);
    if (await submit.isDisabled()) return; // refused before signing, with its reason on the ticket
    await submit.click();
    await acceptConfirm(page);
    await ticketSettled(page);
  }
}

/** A Spot entry that crosses, with a take-profit and a stop-loss attached (the ticket's bracket). */
export class BracketOrder extends Step {
  constructor(readonly side: 'Buy' | 'Sell') {
    super();
  }
  check = (model: Readonly<Model>) => online(model) && !model.turbo;
  toString() {
    return `bracket ${this.side}`;
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    const market = marketOf(model, real);
    const inside = await insideNow(real, market, model.turbo);
    if (!inside) return;
    const tick = tickOf(market);
    const buy = this.side === 'Buy';
    const entry = ((buy ? (inside.ask * 1002n) / 1000n : (inside.bid * 998n) / 1000n) / tick) * tick;
    const takeProfit = ((buy ? (entry * 105n) / 100n : (entry * 95n) / 100n) / tick) * tick;
    const stopLoss = ((buy ? (entry * 95n) / 100n : (entry * 105n) / 100n) / tick) * tick;
    await showTab(page, 'ticket');
    await page.getByTestId(`ticket-side-${buy ? 'buy' : 'sell'}`).click();
    await page.getByTestId('ticket-type').selectOption('Spot');
    await page.getByTestId('ticket-price').fill(editablePrice(market, entry));
    await page.getByTestId('ticket-quantity').fill(editableQuantity(market, quantityFor(bookOf(model, real), entry, 3)));
    if ((await page.getByTestId('ticket-bracket').getAttribute('open')) === null) await page.locator('[data-testid=ticket-bracket] > summary').click();
    if (!(await page.getByTestId('bracket-take-profit-enabled').isChecked())) await page.getByTestId('bracket-take-profit-enabled').check();
    if (!(await page.getByTestId('bracket-stop-loss-enabled').isChecked())) await page.getByTestId('bracket-stop-loss-enabled').check();
    await page.getByTestId('bracket-take-profit-trigger').fill(editablePrice(market, takeProfit));
    await page.getByTestId('bracket-stop-loss-trigger').fill(editablePrice(market, stopLoss));
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

/** Cancel the n-th open order from the open-orders panel. */
export class CancelOne extends Step {
  constructor(readonly index: number) {
    super();
  }
  check = online;
  toString() {
    return `cancel open order #${this.index}`;
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    await showTab(page, 'orders');
    model.tab = 'orders';
    const buttons = page.getByTestId('open-order-row').getByTestId('cancel-order');
    const count = await buttons.count();
    if (count === 0) return;
    await buttons.nth(this.index % count).click();
  }
}

export class CancelAllMarket extends Step {
  check = online;
  toString() {
    return 'cancel all in the market';
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    await showTab(page, 'orders');
    model.tab = 'orders';
    const button = page.getByTestId('cancel-all-market');
    if (!(await button.count())) return; // no workspace to act in (the markets are still loading)
    if (await button.isEnabled()) await button.click();
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
  toString() {
    return `ladder click ${this.side} ${this.rowsAway} rows behind the inside`;
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    const market = marketOf(model, real);
    const ladder = page.getByTestId('ladder');
    if (!(await ladder.count())) return;
    await showTab(page, 'ticket');
    const inside = await insideNow(real, market, model.turbo);
    if (!inside) return;
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
    await target.getByTestId(this.side === 'Buy' ? 'bid-cell' : 'ask-cell').click({ timeout: 5000 }).catch(() => undefined);
    await acceptConfirm(page);
  }
}

/** Drag an own order on the ladder some rows away (cancel and replace). */
export class DragOrder extends Step {
  constructor(readonly rows: number) {
    super();
  }
  check = online;
  toString() {
    return `drag an own order ${this.rows} rows`;
  }
  async act(_model: Model, real: Real) {
    const { page } = real.world;
    const own = page.locator('[data-testid=ladder] [data-testid=own-order]').first();
    if (!(await own.count())) return;
    if ((await page.getByTestId('ladder').getAttribute('data-armed')) !== 'true') await page.getByTestId('ladder-arm').click();
    // The order may fill or go while the ladder is armed: then there is nothing to drag.
    const from = await own.boundingBox({ timeout: 2000 }).catch(() => null);
    if (!from) return;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + this.rows * from.height, { steps: 6 });
    await page.mouse.up();
    await acceptConfirm(page);
  }
}

/** Shift+B / Shift+S: buy at the best offer or sell at the best bid with the ladder's size. */
export class Hotkey extends Step {
  constructor(readonly side: 'Buy' | 'Sell') {
    super();
  }
  check = online;
  toString() {
    return `hotkey ${this.side === 'Buy' ? 'Shift+B' : 'Shift+S'}`;
  }
  async act(model: Model, real: Real) {
    const { page } = real.world;
    const market = marketOf(model, real);
    const inside = await insideNow(real, market, model.turbo);
    if (!inside) return;
    await showTab(page, 'ticket');
    await page.getByTestId('ladder-size').fill(editableQuantity(market, quantityFor(bookOf(model, real), inside.ask, 2)), { timeout: 2000 }).catch(() => undefined);
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await page.keyboard.press(this.side === 'Buy' ? 'Shift+B' : 'Shift+S');
    await acceptConfirm(page);
  }
}

export class KillSwitch extends Step {
  check = online;
  toString() {
    return 'kill switch';
  }
  async act(_model: Model, real: Real) {
    const { page } = real.world;
    await page.getByTestId('kill-switch').click();
    await acceptConfirm(page);
    await page.getByTestId('kill-report').waitFor({ timeout: 20_000 }).catch(() => undefined);
    const close = page.getByTestId('kill-report-close');
    if (await close.count()) await close.click();
  }
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
}

export function traderCommands(markets: readonly Market[], options: GeneratorOptions) {
  const side = fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell');
  const ticket = fc.record({ kind: fc.constantFrom(...TICKET_KINDS), side, aggressive: fc.boolean(), units: fc.integer({ min: 2, max: 6 }) }).map((t) => new TicketOrder(t.kind, t.side, t.aggressive, t.units));
  const arbitraries: fc.Arbitrary<fc.AsyncCommand<Model, Real, false>>[] = [
    ticket,
    ticket,
    side.map((s) => new BracketOrder(s)),
    fc.nat(20).map((index) => new CancelOne(index)),
    fc.constant(new CancelAllMarket()),
    fc.record({ side, rows: fc.integer({ min: 2, max: 12 }) }).map((c) => new LadderClick(c.side, c.rows)),
    fc.integer({ min: -4, max: 4 }).filter((rows) => rows !== 0).map((rows) => new DragOrder(rows)),
    side.map((s) => new Hotkey(s)),
    fc.constant(new KillSwitch()),
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
  ];
  if (options.restart) arbitraries.push(fc.constant(new Restart()));
  return fc.commands(arbitraries, { maxCommands: options.maxCommands, size: 'max' });
}
