// Properties of the ledger under random batches of every order type, cancels and settles from
// several accounts: after every batch (committed or reverted) the book is uncrossed, locks
// equal open orders, and every asset held plus fees equals what was minted; a reverted batch
// leaves no trace.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filledQuantity, filledQuote, isCancelled, listItems, orderFills, orderHistory, type OrderRecord } from '../../../sandbox/ledger/orders';
import { contractIdentity } from '../../../shared/encoding/identity';
import { feeOwed, quoteValue } from '../../../shared/market/amounts';
import type { OrderType } from '../../../shared/market/order-type';
import { isRevert } from '../../../sandbox/ledger/revert';
import { tradeId, tradeMakerFee, tradeTakerFee, tradeTotal } from '../../../sandbox/ledger/trades';
import { fixture } from '../../support/sandbox/ledger-fixture';
import { checkProperty } from '../../support/property';

const TICK = 10_000n;
const LOT = 100_000n;
const MID = 300_000n;

type Step =
  | { kind: 'order'; who: number; side: 'Buy' | 'Sell'; ticks: number; lots: number; type: number }
  | { kind: 'cancel'; who: number; pick: number }
  | { kind: 'settle'; who: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('order' as const), who: fc.nat(1), side: fc.constantFrom('Buy' as const, 'Sell' as const), ticks: fc.integer({ min: -30, max: 30 }), lots: fc.integer({ min: 10, max: 50_000 }), type: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.nat(1), pick: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settle' as const), who: fc.nat(1) }) },
);

function orderType(kind: number, price: bigint): OrderType {
  switch (kind) {
    case 0:
      return { kind: 'Spot' };
    case 1:
      return { kind: 'Market' };
    case 2:
      return { kind: 'PostOnly' };
    case 3:
      return { kind: 'FillOrKill' };
    case 4:
      // A limit below the order's price: a buy rests at it (bookPrice), locking less than it forwarded.
      return { kind: 'Limit', price: price - 2n * TICK, timestamp: 0n };
    default:
      return { kind: 'BoundedMarket', max_price: price + 5n * TICK, min_price: price - 5n * TICK };
  }
}

function snapshot(f: ReturnType<typeof fixture>): string {
  const orders = [...f.market.orders.values()].map((o) => `${o.id}:${o.remaining}:${o.live}:${o.close}:${isCancelled(o)}:${filledQuantity(o)}:${filledQuote(o)}:${o.lockedRemaining}:${orderHistory(o).map((h) => `${h.type}@${h.tx_id}`).join('/')}:${orderFills(o).map((fill) => `${fill.order_id}/${fill.quantity}`).join('/')}`);
  const balances = [...f.market.balances.entries()].map(([id, b]) => `${id}:${b.baseLocked}:${b.baseUnlocked}:${b.quoteLocked}:${b.quoteUnlocked}`);
  const accounts = [f.alice, f.bob].map((a) => [...a.balances.entries()].join(','));
  return JSON.stringify({ orders, balances, accounts, bid: String(f.market.book.bestBid()), ask: String(f.market.book.bestAsk()), fees: `${f.market.feesBase}/${f.market.feesQuote}` });
}

/**
 * Every order's quantity and quote filled, summed from the market's committed trade log (an
 * independent record: trades reach it only after commit) and as the orders give them (summed from
 * their own fills since the running totals were dropped): the two must agree.
 */
function fillTotals(f: ReturnType<typeof fixture>): { fromTrades: string[]; fromOrders: string[] } {
  const totals = new Map<string, { quantity: bigint; quote: bigint }>();
  for (const trade of f.market.trades.all()) {
    for (const id of [trade.makerOrderId, trade.takerOrderId]) {
      const entry = totals.get(id) ?? { quantity: 0n, quote: 0n };
      entry.quantity += trade.quantity;
      entry.quote += tradeTotal(trade);
      totals.set(id, entry);
    }
  }
  const orders = [...f.market.orders.values()];
  return {
    fromTrades: orders.map((o) => `${o.id}:${totals.get(o.id)?.quantity ?? 0n}:${totals.get(o.id)?.quote ?? 0n}`),
    fromOrders: orders.map((o) => `${o.id}:${filledQuantity(o)}:${filledQuote(o)}`),
  };
}

/**
 * Every order's history as the ledger appended it before its 'fill' entries were read from its
 * fills: `created`, then a 'fill' entry whenever the order traded in a transaction other than that
 * of its latest entry (taken here from the market's committed trade log, in trade order), then the
 * closing entry the order keeps. Compared with `orderHistory` after every batch.
 */
function historiesByOldRule(f: ReturnType<typeof fixture>): { expected: string[]; actual: string[] } {
  const latest = new Map<string, string>();
  const fills = new Map<string, string[]>();
  const orders = [...f.market.orders.values()];
  for (const order of orders) latest.set(order.id, order.createdTx);
  for (const trade of f.market.trades.all()) {
    for (const id of [trade.makerOrderId, trade.takerOrderId]) {
      if (!latest.has(id) || latest.get(id) === trade.txId) continue;
      latest.set(id, trade.txId);
      fills.set(id, [...(fills.get(id) ?? []), `fill@${trade.txId}`]);
    }
  }
  return {
    expected: orders.map((o) => [`created@${o.createdTx}`, ...(fills.get(o.id) ?? []), ...listItems(o.history).map((h) => `${h.type}@${h.tx_id}`)].join('/')),
    actual: orders.map((o) => orderHistory(o).map((h) => `${h.type}@${h.tx_id}`).join('/')),
  };
}

/**
 * Every committed trade's id, total and fees as the ledger used to keep them (computed when the
 * trade was made: the id from the book's contract id, kind 01 and the sequence in 14 hex digits;
 * the total floor(price * quantity / 10^decimals); each side's fee on what it received, at its
 * role's rate, rounded up), beside what `tradeId`, `tradeTotal`, `tradeMakerFee` and
 * `tradeTakerFee` read back; and the fees summed per asset (the market's running counters).
 */
function tradesByOldRule(f: ReturnType<typeof fixture>): { expected: string[]; actual: string[]; feesBase: bigint; feesQuote: bigint } {
  const config = f.market.config;
  const expected: string[] = [];
  const actual: string[] = [];
  let feesBase = 0n;
  let feesQuote = 0n;
  for (const trade of f.market.trades.all()) {
    const id = `${config.contract_id.slice(0, 50)}01${trade.sequence.toString(16).padStart(14, '0')}`;
    const total = quoteValue(config, trade.price, trade.quantity);
    // The taker's side is the trade's; the buyer pays on the quantity (base), the seller on the total (quote).
    const takerBuys = trade.side === 'Buy';
    const buyerFee = feeOwed(trade.quantity, takerBuys ? config.taker_fee : config.maker_fee);
    const sellerFee = feeOwed(total, takerBuys ? config.maker_fee : config.taker_fee);
    feesBase += buyerFee;
    feesQuote += sellerFee;
    const [makerFee, takerFee] = takerBuys ? [sellerFee, buyerFee] : [buyerFee, sellerFee];
    expected.push(`${id} total ${total} maker ${makerFee} taker ${takerFee}`);
    actual.push(`${tradeId(trade)} total ${tradeTotal(trade)} maker ${tradeMakerFee(trade)} taker ${tradeTakerFee(trade)}`);
  }
  return { expected, actual, feesBase, feesQuote };
}

describe('ledger properties', () => {
  it('keeps its invariants under random batches, and reverted batches change nothing', () => {
    checkProperty(
      fc.property(fc.array(fc.array(stepArbitrary, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 40 }), (batches) => {
        const f = fixture();
        const accounts = [f.alice, f.bob];
        let tx = 0;
        // The orders cancelled, kept as the order's `cancel` field used to be set: by a CancelOrder
        // that succeeded, or when a Market or BoundedMarket order closed with part of it dropped.
        // Only committed batches count. isCancelled, read from the history, must say the same.
        const cancelled = new Set<string>();
        let batchNumber = 0;
        for (const batch of batches) {
          // Every other batch is one transaction id for all its steps (a maker filled twice in one
          // transaction gets one 'fill' entry), the others one per step.
          const sharedTx = ++batchNumber % 2 === 0 ? `batch${batchNumber}` : undefined;
          const before = snapshot(f);
          const cancelledInBatch: string[] = [];
          const result = f.ledger.transact(() => {
            for (const step of batch) {
              const account = accounts[step.who] as (typeof accounts)[number];
              const context = { account, txId: sharedTx ?? `tx${++tx}`, timestamp: BigInt(++tx) };
              let outcome: unknown;
              if (step.kind === 'order') {
                const price = (MID + BigInt(step.ticks)) * TICK;
                const type = orderType(step.type, price);
                outcome = f.market.createOrder(context, { side: step.side, price, quantity: BigInt(step.lots) * LOT, orderType: type });
                const order = outcome as OrderRecord;
                if (!isRevert(outcome) && order.close && (type.kind === 'Market' || type.kind === 'BoundedMarket') && filledQuantity(order) < order.quantity) cancelledInBatch.push(order.id);
              } else if (step.kind === 'cancel') {
                const mine = [...(f.market.ordersByAccount.get(account.id) ?? [])];
                const target = mine[step.pick % Math.max(1, mine.length)];
                outcome = target === undefined ? undefined : f.market.cancelOrder(context, target.id);
                if (target !== undefined && !isRevert(outcome)) cancelledInBatch.push(target.id);
              } else outcome = f.market.settle(context, contractIdentity(account.id));
              if (isRevert(outcome)) return outcome;
            }
            return undefined;
          });
          expect(f.ledger.checkInvariants()).toEqual([]);
          if (isRevert(result)) expect(snapshot(f)).toBe(before);
          else for (const id of cancelledInBatch) cancelled.add(id);
          for (const order of f.market.orders.values()) {
            expect(isCancelled(order), `cancel of ${order.id}`).toBe(cancelled.has(order.id));
            if (isCancelled(order)) expect(order.close).toBe(true);
            // An open buy with no fill locks exactly the quote value of its remainder at its book
            // price (createOrder skips releaseExcess when the order is untouched: it would release nothing).
            if (!order.close && order.side === 'Buy' && order.fills === undefined) expect(order.lockedRemaining, `lock of ${order.id}`).toBe(quoteValue(f.market.config, order.price, order.remaining));
          }
          // Each side's best level, kept apart from its price map, is the map's level of the best price.
          for (const side of [f.market.book.bids, f.market.book.asks]) {
            const best = side.prices[side.prices.length - 1];
            expect(side.best()).toBe(best === undefined ? undefined : side.levels.get(best));
          }
          const { fromTrades, fromOrders } = fillTotals(f);
          expect(fromOrders).toEqual(fromTrades);
          // A trade keeps no id, total or fees: they are read back from its id block, sequence, the
          // market's scale and the rates it was charged. They must be the values onFill computed
          // and used to keep (the market's fee counters are the sums of what onFill charged).
          const { expected: eager, actual: derived, feesBase, feesQuote } = tradesByOldRule(f);
          expect(derived).toEqual(eager);
          expect([feesBase, feesQuote]).toEqual([f.market.feesBase, f.market.feesQuote]);
          // The history's 'fill' entries, read from the fills, are the ones the old rule appended;
          // the order keeps at most its closing entry, and only once it closed.
          const { expected, actual } = historiesByOldRule(f);
          expect(actual).toEqual(expected);
          for (const order of f.market.orders.values()) {
            const kept = listItems(order.history);
            expect(kept.length).toBeLessThanOrEqual(1);
            if (kept.length === 1) expect(order.close).toBe(true);
          }
        }
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
