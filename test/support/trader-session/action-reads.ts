// What the postconditions of the trader's actions read (postconditions.ts holds the pure checks):
// the exchange before and after a step (resting orders and legs of every account of the terminal,
// each account's newest orders on the book acted on), the statuses of orders that left the open
// list, and the refusals the screen shows. A check is read again until it holds or the bound
// passes: a request the step sent may still be on its way (a ladder click does not wait for its
// answer; a lost answer is looked up by the app before it settles).
import type { Page } from 'playwright-core';
import type { Market } from '../../../shared/market/market';
import type { Problems } from './postconditions';
import type { RestingState, Truth, TruthOrder } from './truth';

export class PostconditionFailure extends Error {}

export interface Accounts {
  readonly tradeAccountId: string;
  readonly turboAccountId: string | null;
  readonly turboMarkets: readonly string[];
}

export const contractsOf = (accounts: Accounts) => (accounts.turboAccountId === null ? [accounts.tradeAccountId] : [accounts.tradeAccountId, accounts.turboAccountId]);

/** The account that signs on a book: the Turbo Account traded as on a Turbo book, else the trading account. */
export const signerOn = (accounts: Accounts, turbo: boolean) => (turbo && accounts.turboAccountId !== null ? accounts.turboAccountId : accounts.tradeAccountId);

export interface Before {
  readonly resting: RestingState;
  /** Ids of the newest orders (any status) of every account on the book acted on. */
  readonly seen: ReadonlySet<string>;
  /** Notices shown before the step (a refusal must be a new one). */
  readonly notices: ReadonlySet<string>;
}

const NEWEST = 50;

export async function readBefore(truth: Truth, accounts: Accounts, market: Market, turbo: boolean, page: Page): Promise<Before> {
  const resting = await truth.resting(contractsOf(accounts), accounts.turboMarkets);
  const seen = new Set((await truth.orders(market, turbo, contractsOf(accounts), false, NEWEST)).map((order) => order.orderId));
  return { resting, seen, notices: new Set(await noticeTexts(page)) };
}

/** The orders on the book that were not among the newest before (the step's, or a fired leg's). */
export async function newOrders(truth: Truth, accounts: Accounts, market: Market, turbo: boolean, before: Before): Promise<TruthOrder[]> {
  return (await truth.orders(market, turbo, contractsOf(accounts), false, NEWEST)).filter((order) => !before.seen.has(order.orderId));
}

/** The exchange's word on each order that left the open list (filled, or cancelled). */
export async function statusesOf(truth: Truth, orders: readonly TruthOrder[]): Promise<Map<string, TruthOrder | null>> {
  const out = new Map<string, TruthOrder | null>();
  for (const order of orders) out.set(order.orderId, await truth.order(order.marketId, order.turbo, order.orderId));
  return out;
}

/** The text of every notice shown (toasts), with its level. */
async function notices(page: Page): Promise<{ level: string; text: string }[]> {
  return page
    .locator('[data-testid=notice]')
    .evaluateAll((nodes) => nodes.map((node) => ({ level: node.getAttribute('data-level') ?? '', text: node.textContent ?? '' })))
    .catch(() => []);
}

async function noticeTexts(page: Page): Promise<string[]> {
  return (await notices(page)).map((notice) => notice.text);
}

/** Error and warning notices that were not shown before the step: what went wrong, as the app told the trader. */
export async function newWarnings(page: Page, before: Before): Promise<string> {
  return (await notices(page))
    .filter((notice) => (notice.level === 'error' || notice.level === 'warning') && !before.notices.has(notice.text))
    .map((notice) => notice.text.trim())
    .join(' | ');
}

/**
 * The refusals the screen shows now: the ticket's result when it failed, its problem and why-not
 * lines, the ladder's hint, the stop form's, bracket's and amend's errors, and error or warning
 * notices that were not there before.
 */
export async function refusalShown(page: Page, before: Before): Promise<string> {
  const parts: string[] = [];
  for (const selector of ['[data-testid=ticket-result][data-ok=false]', '[data-testid=ticket-problem]', '[data-testid=ticket-why]', '[data-testid=ladder-hint]', '[data-testid=stop-error]', '[data-testid=bracket-error]', '[data-testid=amend-error]']) {
    parts.push(...(await page.locator(selector).allTextContents().catch(() => [])));
  }
  parts.push(...(await notices(page)).filter((notice) => (notice.level === 'error' || notice.level === 'warning') && !before.notices.has(notice.text)).map((notice) => notice.text));
  return parts.map((text) => text.trim()).filter((text) => text !== '').join(' | ');
}

/** Read and check again until the check holds or `boundMs` passes; then throw with what it found last. */
export async function holdsWithin(label: string, boundMs: number, check: () => Promise<Problems>): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const problems = await check();
    if (problems.length === 0) return;
    if (Date.now() > deadline) throw new PostconditionFailure(`postcondition of "${label}" broken on the exchange:\n  ${problems.join('\n  ')}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
