// Position tools in the random trader sessions: a close by limit at the best price from a
// Positions row (its `Limit 25% 50% 75% 100%` buttons). Its contract (docs/actions.md, Close by
// limit at the best price): the dialog states a post-only order of the share of the position on
// the exchange floored to the size step (lowered only where it names the whole quote value), at
// the price it calls the touch; exactly one PostOnly order of that side, size and price reaches the
// exchange on the position's account and book, no larger than the position less what already
// closes it; or none, and the refusal is on screen.
import type fc from 'fast-check';
import { parseUnits } from '../../../../shared/encoding/units';
import type { Market } from '../../../../shared/market/market';
import { contractsOf, holdsWithin, readBefore, refusalShown, type Before } from '../action-reads';
import { accountsOf, openCloseDialog, runOracle, type Model, type Real } from '../commands';
import { checkPartialClose, checkPlaced, plainUnits, statedClose, type Problems } from '../postconditions';
import type { RestingState, TruthOrder } from '../truth';

/** The price a close by limit's dialog states: "… post-only at 3,000.50 USDC …", in raw units; null when it names none. */
export function statedLimitPrice(dialog: readonly string[], market: Market): bigint | null {
  for (const line of dialog) {
    const match = new RegExp(`post-only at ([0-9][0-9,]*(?:\\.[0-9]+)?) ${market.quote.symbol}\\b`).exec(line);
    if (match?.[1] === undefined) continue;
    const parsed = parseUnits(match[1].replaceAll(',', ''), market.quote.decimals, 'price');
    return parsed.ok ? parsed.value : null;
  }
  return null;
}

/**
 * A close by limit of `percent` of a position of `size` on the exchange: the dialog's share as a
 * partial close's (checkPartialClose's reading of the dialog), its stated touch, and exactly one
 * PostOnly order of that side, size and price, no larger than the position less the closing orders
 * that were already resting; or none and a refusal.
 */
export function checkCloseByLimit(
  market: Market,
  position: { account: string; turbo: boolean; size: bigint },
  percent: number,
  dialog: readonly string[],
  newOrders: readonly TruthOrder[],
  restingClosing: bigint,
  refusal: string,
): Problems {
  const stated = statedClose(dialog, market);
  const side = position.size > 0n ? 'Sell' : 'Buy';
  if (stated === null) return refusal.trim() === '' ? [`the close ${percent} % by limit dialog states no "${side} <size> ${market.base.symbol}" and the screen shows no refusal: ${JSON.stringify(dialog)}`] : [];
  const held = position.size < 0n ? -position.size : position.size;
  const problems: Problems = [];
  if (percent === 100) {
    // The whole position: the flatten's plan at the touch, the step floor (lowered only where the
    // dialog names the whole quote value), and what it leaves named in the dialog.
    const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
    const floored = held - (held % step);
    const wholeQuote = dialog.some((line) => /whole number of/.test(line));
    if (stated.side !== side) problems.push(`the close 100 % by limit dialog says ${stated.side} for a position of ${position.size}`);
    else if (stated.quantity !== floored && !(wholeQuote && stated.quantity < floored && stated.quantity % step === 0n)) problems.push(`the close 100 % by limit dialog says ${stated.side} ${plainUnits(stated.quantity, market.base.decimals)} ${market.base.symbol}; the position on the exchange is ${plainUnits(held, market.base.decimals)}, which an order closes ${plainUnits(floored, market.base.decimals)} of`);
    const left = held - stated.quantity;
    // Closing a short buys the base, whose fee is paid in it: the dialog then states what is left
    // with the fee on top ("Leaves 0.00000036 ETH (the buy's fee of 0.00000025 ETH is paid in ETH)").
    const withFee = (line: string) => {
      const match = /Leaves ([\d.]+) \S+ \(the buy's fee of ([\d.]+) /.exec(line);
      if (match === null) return false;
      const leaves = parseUnits(match[1]!, market.base.decimals, 'quantity');
      const fee = parseUnits(match[2]!, market.base.decimals, 'quantity');
      return leaves.ok && fee.ok && leaves.value - fee.value === left;
    };
    if (left > 0n && !dialog.some((line) => line.includes(plainUnits(left, market.base.decimals)) || withFee(line))) problems.push(`the close 100 % by limit dialog does not state the ${plainUnits(left, market.base.decimals)} ${market.base.symbol} it leaves: ${JSON.stringify(dialog)}`);
  } else {
    // The share as the dialog states it (no order is judged here: the refusal stands in for none).
    problems.push(...checkPartialClose(market, position, percent, dialog, [], 'the share alone'));
  }
  const price = statedLimitPrice(dialog, market);
  if (price === null) problems.push(`the close by limit dialog states no "post-only at <price> ${market.quote.symbol}": ${JSON.stringify(dialog)}`);
  const mine = newOrders.filter((order) => order.account === position.account && order.marketId === market.market_id && order.turbo === position.turbo);
  if (mine.length > 0 && stated.quantity > held - restingClosing) {
    problems.push(`a close by limit of ${stated.quantity} reached the exchange while the position of ${held} was already closed by ${restingClosing} in resting orders: it can flip the position`);
  }
  problems.push(...checkPlaced({ account: position.account, marketId: market.market_id, turbo: position.turbo, side, quantity: stated.quantity, kinds: ['PostOnly'], ...(price === null ? {} : { price }) }, newOrders, refusal));
  return problems;
}

/** The resting closing orders of one account on one book (what a close by limit is capped by). */
function restingClosingOf(resting: RestingState, account: string, marketId: string, turbo: boolean, side: 'Buy' | 'Sell'): bigint {
  let total = 0n;
  for (const order of resting.open) {
    if (order.account.toLowerCase() !== account.toLowerCase() || order.marketId !== marketId || order.turbo !== turbo || order.side !== side) continue;
    total += order.quantity - order.filled;
  }
  return total;
}

/** Close a share of one position by limit from its Positions row. */
export class CloseByLimit implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly index: number,
    readonly percent: 25 | 50 | 75 | 100,
  ) {}
  private target: { market: Market; account: string; turbo: boolean; sizes: bigint[]; dialog: string[]; seen: ReadonlySet<string>; restingClosing: bigint } | null = null;

  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox';
  }

  toString(): string {
    return `close ${this.percent} % by limit of position #${this.index} from Positions`;
  }

  async run(model: Model, real: Real): Promise<void> {
    real.step(this.toString());
    try {
      const before = await readBefore(real.truth, accountsOf(real), real.world.markets[model.marketIndex]!, model.turbo, real.world.page);
      await this.act(model, real, before);
      const target = this.target;
      if (target !== null) await holdsWithin(this.toString(), real.boundMs, () => this.postcondition(real, before, target));
      await runOracle(model, real);
    } catch (error) {
      real.failed(this.toString(), error);
      throw error;
    }
  }

  private async postcondition(real: Real, before: Before, target: NonNullable<CloseByLimit['target']>): Promise<Problems> {
    const fresh = (await real.truth.orders(target.market, target.turbo, contractsOf(accountsOf(real)), false, 50)).filter((order) => !target.seen.has(order.orderId));
    const refusal = await refusalShown(real.world.page, before);
    // The position read before the click and after the dialog showed: a fill in between makes either the one stated.
    const results = target.sizes.map((size) => checkCloseByLimit(target.market, { account: target.account, turbo: target.turbo, size }, this.percent, target.dialog, fresh, target.restingClosing, refusal));
    return results.find((problems) => problems.length === 0) ?? results[0] ?? [];
  }

  private async act(model: Model, real: Real, before: Before): Promise<void> {
    this.target = null;
    const { page } = real.world;
    if (model.detached.includes('positions')) return;
    const tab = page.getByTestId('tab-positions');
    if (await tab.count()) await tab.first().click();
    model.tab = 'positions';
    const button = `close-limit-${this.percent}`;
    const opened = await openCloseDialog(real, button, this.index);
    if (opened === null) return;
    const { found, market, account, turbo, first, second, text, seen } = opened;
    const restingClosing = restingClosingOf(before.resting, account, found.market_id, turbo, first > 0n ? 'Sell' : 'Buy');
    this.target = { market, account, turbo, sizes: [first, second], dialog: text, seen, restingClosing };
    await page.getByTestId('confirm-accept').click();
  }
}

/**
 * Choose, from a Positions row, what its market's P&L is marked at and the unit beside it. Its
 * contract: nothing reaches the exchange, and the row then names the mark chosen (the exit side's
 * bid or ask, the last trade, the mid; or the read's exit side where the window has no live frame
 * of the book) and shows the unit chosen; the screen oracle's cross-panel checks then hold the
 * ladder's foot and the chart's line to the same figure, name and unit.
 */
export class ChoosePnlDisplay implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly index: number,
    readonly mark: 'exit' | 'last' | 'mid',
    readonly unit: 'percent' | 'bps' | 'ticks',
  ) {}

  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox';
  }

  toString(): string {
    return `mark the P&L of position #${this.index}'s market at ${this.mark}, in ${this.unit}`;
  }

  async run(model: Model, real: Real): Promise<void> {
    real.step(this.toString());
    try {
      const { page } = real.world;
      if (model.detached.includes('positions')) return;
      const tab = page.getByTestId('tab-positions');
      if (await tab.count()) await tab.first().click();
      model.tab = 'positions';
      const rows = page.locator('[data-testid=position-row]:has([data-testid=position-mark-source])');
      const count = await rows.count();
      if (count > 0) {
        const row = rows.nth(this.index % count);
        const before = await readBefore(real.truth, accountsOf(real), real.world.markets[model.marketIndex]!, model.turbo, page);
        await row.getByTestId('position-mark-source').selectOption(this.mark, { timeout: 3000 });
        await row.getByTestId('position-pnl-unit').selectOption(this.unit, { timeout: 3000 });
        await holdsWithin(this.toString(), real.boundMs, async () => {
          const problems: Problems = [];
          const unit = await row.getAttribute('data-pnl-unit').catch(() => null);
          const choice = await row.getAttribute('data-mark-choice').catch(() => null);
          const name = (await row.getAttribute('data-mark-side').catch(() => null)) ?? '';
          if (unit !== this.unit || choice !== this.mark) problems.push(`the row shows the P&L marked by ${String(choice)} in ${String(unit)}, not the ${this.mark} in ${this.unit} chosen`);
          if (this.mark !== 'exit' && name !== '' && name !== this.mark && name !== 'bid' && name !== 'ask') problems.push(`the row names its mark "${name}" after the ${this.mark} was chosen`);
          const fresh = await real.truth.orders(real.world.markets[model.marketIndex]!, model.turbo, contractsOf(accountsOf(real)), false, 50);
          for (const order of fresh.filter((candidate) => !before.seen.has(candidate.orderId))) problems.push(`an order reached the exchange when only the P&L display was chosen: ${order.orderId}`);
          return problems;
        });
      }
      await runOracle(model, real);
    } catch (error) {
      real.failed(this.toString(), error);
      throw error;
    }
  }
}
