// Trader-session steps of the risk guards. GuardRefusal sets a tight guard through the settings
// path the Settings drawer uses (updateSettings on the bridge): a maximum order notional or a
// maximum position just under what a ticket order would need, then places that order from the
// ticket on the side that adds exposure. Main must refuse it before signing: nothing of it on the
// exchange, and the screen names the guard. The setting is then restored, which loosens it: the
// trusted confirmation is answered with the code the host printed, as a trader types it.
import type fc from 'fast-check';
import type { Page } from 'playwright-core';
import type { Settings } from '../../../../shared/ipc/views';
import { quoteValue } from '../../../../shared/market/amounts';
import type { Market } from '../../../../shared/market/market';
import { editablePrice, editableQuantity } from '../../../../renderer/src/format/market-format';
import { confirmWithHostCode } from '../../browser-host';
import { until, value } from '../../terminal-page';
import { contractsOf, holdsWithin, readBefore, refusalShown } from '../action-reads';
import { accountsOf, runOracle, type Model, type Real } from '../commands';
import { notFromFiredLegs, type Problems } from '../postconditions';
import type { TruthOrder } from '../truth';

export type GuardKind = 'notional' | 'position';

/** What the trader entered on the ticket, and the guard it was held to. */
export interface GuardedEntry {
  readonly kind: GuardKind;
  readonly side: 'Buy' | 'Sell';
  readonly price: bigint;
  readonly quantity: bigint;
}

/** The words a refusal of each guard carries (main/services/guards: the limit named, nothing signed). */
const GUARD_WORDS: Record<GuardKind, RegExp> = {
  notional: /above your maximum order notional of [\d,.]+ \S+/,
  position: /above your maximum position of [\d,.]+ \S+/,
};

/**
 * The contract of a guard's refusal (docs/actions.md, "Guards"): no order of the entered side,
 * price and size reached the book (an order a leg fired meanwhile is not the step's), and the
 * screen named the guard and its limit.
 */
export function checkGuardRefused(entry: GuardedEntry, fresh: readonly TruthOrder[], refusal: string): Problems {
  const problems: Problems = [];
  const placed = fresh.filter((order) => order.side === entry.side && order.price === entry.price && order.quantity === entry.quantity);
  if (placed.length > 0) problems.push(`the ${entry.kind} guard let ${placed.map((order) => order.orderId).join(', ')} (${entry.side} ${entry.quantity} at ${entry.price}) reach the exchange`);
  if (!GUARD_WORDS[entry.kind].test(refusal)) problems.push(`the screen did not name the ${entry.kind} guard: ${JSON.stringify(refusal.slice(0, 300))}`);
  return problems;
}

const tickOf = (market: Market) => 10n ** BigInt(Math.max(0, market.quote.decimals - market.quote.max_precision));
const stepOf = (market: Market) => 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));

async function ticketRefusal(page: Page): Promise<void> {
  await until(async () => (await page.locator('[data-testid=ticket-result]').getAttribute('data-ok', { timeout: 1000 }).catch(() => null)) !== null, 'the ticket to show the outcome', 20_000).catch(() => undefined);
}

export class GuardRefusal implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly kind: GuardKind,
    readonly units: number,
  ) {}
  entered: GuardedEntry | null = null;
  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox' && !model.turbo;
  }
  toString(): string {
    return `guard ${this.kind}: an order just above it refused ×${this.units}`;
  }

  async run(model: Model, real: Real): Promise<void> {
    real.step(this.toString());
    const market = real.world.markets[model.marketIndex]!;
    const { bridge, host, page } = real.world;
    const previous = value(await bridge.api.getSettings({}));
    try {
      const before = await readBefore(real.truth, accountsOf(real), market, false, page);
      await this.act(real, market, previous);
      if (this.entered !== null) {
        const entry = this.entered;
        await holdsWithin(this.toString(), real.boundMs, async () => {
          const accounts = accountsOf(real);
          const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
          const fresh = notFromFiredLegs((await real.truth.orders(market, false, contractsOf(accounts), false, 50)).filter((order) => !before.seen.has(order.orderId)), before.resting, after);
          return checkGuardRefused(entry, fresh, await refusalShown(page, before));
        });
      }
      await runOracle(model, real);
    } catch (error) {
      real.failed(this.toString(), error);
      throw error;
    } finally {
      // Restored whatever happened: raising a cap back is a loosening, confirmed with the host's code.
      const restore = this.kind === 'notional' ? { maxOrderNotional: previous.maxOrderNotional } : { maxPosition: previous.maxPosition };
      value(await confirmWithHostCode(host, (confirmationCode) => bridge.api.updateSettings({ ...restore, ...(confirmationCode === undefined ? {} : { confirmationCode }) })));
    }
  }

  private async act(real: Real, market: Market, previous: Settings): Promise<void> {
    this.entered = null;
    const { page, bridge } = real.world;
    const inside = await real.truth.inside(market, false).catch(() => null);
    if (inside?.bid == null || inside.ask == null) return;
    // The side that adds exposure: a guard lets a reducing order through.
    const position = (await real.truth.positions(real.world.tradeAccountId, real.turboMarkets)).get(market.market_id)?.size ?? 0n;
    const side: 'Buy' | 'Sell' = position < 0n ? 'Sell' : 'Buy';
    const tick = tickOf(market);
    const step = stepOf(market);
    // Resting 1 % behind the inside, so an order let through would show on the book.
    const price = ((side === 'Buy' ? (inside.bid * 99n) / 100n : (inside.ask * 101n) / 100n) / tick) * tick;
    const byValue = ((BigInt(this.units) * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 1n) * step;
    const byDust = ((market.dust + step - 1n) / step + 1n) * step;
    const quantity = byValue > byDust ? byValue : byDust;
    // Just under what the order needs: its notional less one raw unit, or one size step of position.
    const patch =
      this.kind === 'notional'
        ? { maxOrderNotional: { ...previous.maxOrderNotional, [market.market_id]: quoteValue(market, price, quantity) - 1n } }
        : { maxPosition: { ...previous.maxPosition, [market.market_id]: step } };
    const tightened = await bridge.api.updateSettings(patch);
    if (!tightened.ok) throw new Error(`tightening the ${this.kind} guard asked for ${tightened.code}: ${tightened.message}`);
    const ticketTab = page.getByTestId('tab-ticket');
    if (await ticketTab.count()) await ticketTab.first().click();
    await page.getByTestId(`ticket-side-${side === 'Buy' ? 'buy' : 'sell'}`).click();
    await page.getByTestId('ticket-type').selectOption('Spot');
    await page.getByTestId('ticket-price').fill(editablePrice(market, price));
    await page.getByTestId('ticket-quantity').fill(editableQuantity(market, quantity));
    const submit = page.getByTestId('ticket-submit');
    const enabled = await until(async () => !(await submit.isDisabled()), 'the ticket to accept the order', 3000).then(() => true, () => false);
    if (!enabled) return; // the ticket refused it before main (a balance short): nothing to hold main to
    this.entered = { kind: this.kind, side, price, quantity };
    await submit.click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor({ timeout: 600 }).catch(() => undefined);
    if (await dialog.count()) await page.getByTestId('confirm-accept').click();
    await ticketRefusal(page);
  }
}
