// Firing. After every committed transaction the engine looks at the prices its trades printed, per
// book; a pending, armed leg whose trigger they reached fires in a transaction of its own: its
// escrow returns to the trading account, its OCO sibling is cancelled, and it becomes the order
// it names through the same calls as every order (MarketState.createOrder, or the Turbo venue).
// When that order reverts (below min_order, outside the price window, no margin session, …) the
// fire is rolled back and the leg is cancelled with the order's revert reason instead.
//
// Direction (docs/sandbox.md): fixed when the leg is created, from the side of the market it stood
// on; a `rise` leg fires on a print at or above its trigger, a `fall` leg at or below. A leg sized
// from its parent is dormant until the parent has filled: prices printed before that are ignored.
import { lowerQuantityToWholeQuote, quoteValue } from '../../shared/market/amounts';
import { powerOfTen } from '../../shared/market/market';
import { quantityTick } from '../../shared/market/tick';
import { triggerOrderPrice, triggerOrderType, triggerReached } from '../../shared/protocol/trigger';
import type { ContractAccount } from '../ledger/accounts';
import type { ChangeSet } from '../ledger/changes';
import type { Ledger } from '../ledger/ledger';
import type { ActionContext } from '../ledger/action-context';
import type { MarketState } from '../ledger/market';
import { filledQuantity, type OrderRecord } from '../ledger/orders';
import { isRevert, revert, type Revert } from '../ledger/revert';
import type { MarginEngine } from '../margin/engine';
import { createTurboOrder } from '../turbo/matching';
import { sizedFromParent, touchTrigger, type TriggerRecord } from './records';

/** A trade a book's legs may react to: the book it printed on, its sequence there, its price. */
interface PrintedTrade {
  readonly book: string;
  readonly sequence: number;
  readonly price: bigint;
}

/** A leg sized from its parent arms once the parent has filled something; other legs are always armed. */
export function isArmed(market: MarketState, record: TriggerRecord): boolean {
  if (!sizedFromParent(record)) return true;
  const parent = record.parentId === undefined ? undefined : market.orders.get(record.parentId);
  return parent !== undefined && filledQuantity(parent) > 0n;
}

export interface TriggerEngineDeps {
  readonly ledger: Ledger;
  readonly margin?: MarginEngine;
  readonly nextTxId: () => string;
  /** Nanoseconds since the epoch. */
  readonly now: () => bigint;
}

export class TriggerEngine {
  /** Books whose legs may react to trades printed since the last pass, with those trades. */
  private readonly reached = new Map<MarketState, PrintedTrade[]>();
  private draining = false;
  /** Legs fired since start (tests and diagnostics). */
  fired = 0;

  constructor(private readonly deps: TriggerEngineDeps) {
    deps.ledger.onChange((changes) => this.collect(changes));
    deps.ledger.onPublished(() => this.drain());
  }

  private note(market: MarketState, trade: PrintedTrade): void {
    if (market.triggers.pendingCount === 0) return;
    const trades = this.reached.get(market);
    if (trades === undefined) this.reached.set(market, [trade]);
    else trades.push(trade);
  }

  private collect(changes: ChangeSet): void {
    const ledger = this.deps.ledger;
    for (const trade of changes.trades) {
      const market = ledger.marketOf(trade);
      if (market === undefined) continue;
      const printed: PrintedTrade = { book: market.config.contract_id, sequence: trade.sequence, price: trade.price };
      this.note(market, printed);
      // Legs on a Turbo book also watch the canonical book, whose quotes the Turbo book trades against.
      if (trade.turbo !== true) {
        const link = ledger.turbo.get(trade.marketId);
        if (link !== undefined) this.note(link.turbo, printed);
      }
    }
  }

  /** Fire every leg the collected prices reached, including those reached by the orders fired meanwhile. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        const next = this.reached.entries().next();
        if (next.done === true) break;
        const [market, trades] = next.value;
        this.reached.delete(market);
        this.evaluate(market, trades);
      }
    } finally {
      this.draining = false;
    }
  }

  private evaluate(market: MarketState, trades: readonly PrintedTrade[]): void {
    for (const record of market.triggers.pending()) {
      if (record.state !== 'pending') continue;
      // Only trades printed after the leg was judged count.
      const reached = trades.some((trade) => trade.sequence > (record.since.get(trade.book) ?? 0) && triggerReached(record.direction, record.leg.trigger_price, trade.price));
      if (!reached || !isArmed(market, record)) continue;
      this.fire(market, record);
    }
  }

  /** Fire one leg now (its own transaction); on a revert, cancel it with the reason. */
  fire(market: MarketState, record: TriggerRecord): OrderRecord | Revert {
    const { ledger } = this.deps;
    const account = ledger.accounts.get(record.account);
    if (account === undefined) return revert('OrderNotFound', `trigger ${record.id} belongs to an unknown account`);
    const context: ActionContext = { account, txId: this.deps.nextTxId(), timestamp: this.deps.now() };
    const outcome = ledger.transact(() => this.fireIn(market, account, record, context));
    if (isRevert(outcome)) {
      ledger.transact(() => {
        market.triggers.cancel(record, outcome.reason, context);
        return undefined;
      });
    } else this.fired++;
    return outcome;
  }

  private fireIn(market: MarketState, account: ContractAccount, record: TriggerRecord, context: ActionContext): OrderRecord | Revert {
    const { ledger, margin } = this.deps;
    const config = market.config;
    const leg = record.leg;
    const asset = market.triggers.lockAsset(record);
    const escrow = market.triggers.fire(record, context);
    account.balances.add(asset, escrow);
    const price = triggerOrderPrice(leg);
    let quantity: bigint;
    if (leg.quantity.kind === 'Quantity') quantity = leg.quantity.quantity;
    else {
      const sized = this.sizeFromParent(market, account, record, price);
      if (isRevert(sized)) return sized;
      quantity = sized;
    }
    const guard = account.kind === 'margin' ? margin?.beforeBatch(account) : undefined;
    if (account.kind === 'margin') {
      const allowed = margin?.orderAllowed(account, market);
      if (allowed) return allowed;
    }
    const args = { side: leg.side, price, quantity, orderType: triggerOrderType(leg) };
    const link = record.turbo === true ? ledger.turbo.get(config.market_id) : undefined;
    const order = link !== undefined ? createTurboOrder(link, ledger.journal, ledger.changes, context, args) : market.createOrder(context, args);
    if (isRevert(order)) return order;
    if (guard !== undefined && margin !== undefined) {
      const judged = margin.afterBatch(account, guard, false);
      if (judged) return judged;
    }
    touchTrigger(ledger.journal, record);
    record.firedOrderId = order.id;
    ledger.changes.triggers.add(record);
    return order;
  }

  /**
   * A leg sized from its parent sells (or buys back) the parent's filled quantity, as far as the
   * account's funds on this book and on the account cover it (the parent's fills sit in the book's
   * unlocked balance; fees may have taken a little). What it needs from the book is moved to the
   * account first, from which the order takes its lock like any order.
   */
  private sizeFromParent(market: MarketState, account: ContractAccount, record: TriggerRecord, price: bigint): bigint | Revert {
    const config = market.config;
    const parent = record.parentId === undefined ? undefined : market.orders.get(record.parentId);
    const filled = parent === undefined ? 0n : filledQuantity(parent);
    const tick = quantityTick(config);
    const asset = market.triggers.lockAsset(record);
    const buy = record.leg.side === 'Buy';
    const balance = market.balanceOf(account.id);
    const unlocked = buy ? balance.quoteUnlocked : balance.baseUnlocked;
    const held = account.balances.get(asset);
    const available = held + unlocked;
    const needFor = (quantity: bigint): bigint => (buy ? quoteValue(config, price, quantity) : quantity);
    let quantity = filled - (filled % tick);
    if (needFor(quantity) > available) {
      const affordable = buy ? (available * powerOfTen(config.base.decimals)) / price : available;
      quantity = affordable - (affordable % tick);
    }
    quantity = lowerQuantityToWholeQuote(config, price, quantity);
    if (quantity === 0n) {
      return revert('InsufficientBalance', `trigger ${record.id}: sized from ${record.parentId ?? 'its parent'} (filled ${filled}), but trade account ${account.id} holds ${available} of asset ${asset} here`);
    }
    const need = needFor(quantity);
    if (held < need) {
      const take = need - held;
      balance.touch();
      if (buy) balance.quoteUnlocked -= take;
      else balance.baseUnlocked -= take;
      balance.check();
      account.balances.add(asset, take);
      this.deps.ledger.changes.balances.add(account.id);
    }
    return quantity;
  }
}
