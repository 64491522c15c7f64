// Random trader-session step of the chart's click-to-place (docs/actions.md "Chart click-to-place"),
// its postcondition checked on the exchange: the trader types a size in the chart's Size field (the
// ladder's Size of the book), arms, moves the pointer over the plot to a price some steps behind
// the inside on the side asked for (the hover line says the order a click places), and clicks.
// Exactly one Limit order of the side, price and size the chart sent is new on the signing
// account's book, or none and the chart said why.
import type fc from 'fast-check';
import type { Page } from 'playwright-core';
import type { Market } from '../../../../shared/market/market';
import { editableQuantity } from '../../../../renderer/src/format/market-format';
import { contractsOf, holdsWithin, newOrders, readBefore, refusalShown, signerOn, type Before } from '../action-reads';
import { accountsOf, acceptConfirm, insideNow, runStep, tickOf, type Model, type Real } from '../commands';
import { checkPlaced, notFromFiredLegs, type Problems } from '../postconditions';

/** What the chart sent for the click (its data-placed-* attributes), or null when it refused or did not act. */
export interface ChartPlaced {
  readonly side: 'Buy' | 'Sell';
  readonly price: bigint;
  readonly quantity: bigint;
}

/** The chart's market and book, from its panel. */
async function chartBook(page: Page, real: Real): Promise<{ market: Market; turbo: boolean } | null> {
  const panel = page.getByTestId('chart-panel').first();
  if (!(await panel.count())) return null;
  const marketId = await panel.getAttribute('data-market-id', { timeout: 2000 }).catch(() => null);
  const book = await panel.getAttribute('data-book', { timeout: 2000 }).catch(() => null);
  const market = real.world.markets.find((candidate) => candidate.market_id === marketId);
  return market === undefined ? null : { market, turbo: book === 'turbo' };
}

/** About twice the minimum order's value at `price`, on the size step and above dust (as the ladder click step sizes). */
function sizeFor(market: Market, price: bigint): bigint {
  const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
  const byValue = ((2n * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 1n) * step;
  const byDust = ((market.dust + step - 1n) / step + 1n) * step;
  return byValue > byDust ? byValue : byDust;
}

export class ChartClickToPlace implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly side: 'Buy' | 'Sell',
    readonly steps: number,
  ) {}
  placed: ChartPlaced | null = null;
  refusal = '';
  private book: { market: Market; turbo: boolean } | null = null;
  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox';
  }
  toString() {
    return `chart click-to-place ${this.side} ${this.steps} steps behind the inside`;
  }
  async postcondition(real: Real, before: Before): Promise<Problems> {
    const placed = this.placed;
    const book = this.book;
    if (placed === null || book === null) return [];
    const accounts = accountsOf(real);
    const fresh = await newOrders(real.truth, accounts, book.market, book.turbo, before);
    const after = await real.truth.resting(contractsOf(accounts), accounts.turboMarkets);
    const refusal = `${this.refusal} ${await refusalShown(real.world.page, before)}`;
    return checkPlaced({ account: signerOn(accounts, book.turbo), marketId: book.market.market_id, turbo: book.turbo, side: placed.side, price: placed.price, quantity: placed.quantity, kinds: ['Limit'] }, fresh, refusal, (orders) => notFromFiredLegs(orders, before.resting, after));
  }
  async run(model: Model, real: Real): Promise<void> {
    await runStep(this.toString(), model, real, async () => {
      this.book = await chartBook(real.world.page, real);
      const before = this.check(model) && this.book !== null ? await readBefore(real.truth, accountsOf(real), this.book.market, this.book.turbo, real.world.page) : null;
      await this.act(real);
      if (before !== null) await holdsWithin(this.toString(), real.boundMs, () => this.postcondition(real, before));
    });
  }
  async act(real: Real) {
    this.placed = null;
    this.refusal = '';
    const { page } = real.world;
    const book = this.book;
    if (book === null) return;
    const chart = page.getByTestId('chart').first();
    const over = chart.locator('.u-over').first();
    const inside = await insideNow(real, book.market, book.turbo);
    const area = await over.boundingBox({ timeout: 2000 }).catch(() => null);
    if (!inside || area === null || area.height < 20) return;
    await page.getByTestId('chart-size').first().fill(editableQuantity(book.market, sizeFor(book.market, inside.bid)));
    if ((await chart.getAttribute('data-armed')) !== 'true') await page.getByTestId('chart-arm').first().click({ timeout: 3000 });
    // The pointer to the height of the target price: the hover line says the price under it (prices fall down the plot).
    const tick = tickOf(book.market);
    const target = this.side === 'Buy' ? inside.bid - BigInt(this.steps) * tick : inside.ask + BigInt(this.steps) * tick;
    const x = area.x + area.width * 0.6;
    const priceAt = async (y: number): Promise<bigint | null> => {
      await page.mouse.move(x, y);
      const shown = await chart.getByTestId('chart-place-hover').getAttribute('data-price', { timeout: 1000 }).catch(() => null);
      return shown === null || shown === '' ? null : BigInt(shown);
    };
    let top = area.y + 1;
    let bottom = area.y + area.height - 1;
    for (let round = 0; round < 12 && bottom - top > 1; round++) {
      const middle = (top + bottom) / 2;
      const price = await priceAt(middle);
      if (price === null) break;
      if (price > target) top = middle;
      else bottom = middle;
    }
    await priceAt(bottom);
    await page.mouse.down();
    await page.mouse.up();
    await acceptConfirm(page);
    const side = await chart.getAttribute('data-placed-side', { timeout: 2000 }).catch(() => null);
    const price = await chart.getAttribute('data-placed-price', { timeout: 2000 }).catch(() => null);
    const quantity = await chart.getAttribute('data-placed-quantity', { timeout: 2000 }).catch(() => null);
    if ((side === 'Buy' || side === 'Sell') && price && quantity) this.placed = { side, price: BigInt(price), quantity: BigInt(quantity) };
    this.refusal = (await page.getByTestId('chart-place-error').allTextContents().catch(() => [])).join(' | ');
  }
}
