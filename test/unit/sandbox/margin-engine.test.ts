// The margin engine and the Turbo matching in-process: shared-liquidity fills, atomic reverts,
// opening amounts from shared/margin, post-batch checks, settlement and the pool invariant.
import { describe, expect, it } from 'vitest';
import { filledQuantity } from '../../../sandbox/ledger/orders';
import { contractIdentity } from '../../../shared/encoding/identity';
import { computeRisk, openingAmount } from '../../../shared/margin/index';
import { buildMarginConfig } from '../../../sandbox/margin/config';
import { MarginEngine } from '../../../sandbox/margin/engine';
import { snapshotOf } from '../../../sandbox/margin/snapshot';
import { executeBatch } from '../../../sandbox/ledger/execute';
import { isRevert } from '../../../sandbox/ledger/revert';
import type { TurboLink } from '../../../sandbox/turbo/link';
import { createSharedOrder, createTurboOrder } from '../../../sandbox/turbo/matching';
import { ETH, USDC, fixture } from '../../support/sandbox/ledger-fixture';

function setup() {
  const base = fixture();
  const network = base.ledger.network;
  const config = buildMarginConfig(7, network);
  const margin = new MarginEngine(base.ledger, config, 1_000_000n);
  const link = base.ledger.turbo.get(base.config.market_id) as TurboLink;
  link.houseRoles.add(base.bob.id);
  let tx = 0;
  const context = (account: typeof base.alice) => ({ account, txId: `tx${++tx}`, timestamp: 1n });
  const problems = () => {
    const pool = margin.pool();
    const lent = new Map<string, bigint>();
    for (const session of margin.sessions.values()) {
      lent.set(config.collateralAssetId, (lent.get(config.collateralAssetId) ?? 0n) + session.quoteDrawn);
      for (const [asset, amount] of session.debts) lent.set(asset, (lent.get(asset) ?? 0n) + amount);
    }
    const out = [...base.ledger.checkInvariants()];
    for (const asset of config.poolFunding.keys()) if (pool.get(asset) + (lent.get(asset) ?? 0n) !== margin.expected.get(asset)) out.push(`pool ${asset}`);
    return out;
  };
  return { ...base, margin, config, link, context, problems };
}

describe('Turbo matching', () => {
  it('fills a Turbo taker only from shared quotes, at their price, and never from public orders', () => {
    const { ledger, market, link, alice, bob, context, problems } = setup();
    ledger.transact(() => market.createOrder(context(alice), { side: 'Sell', price: 2_990n * USDC, quantity: ETH, orderType: { kind: 'Spot' } }));
    const shared = ledger.transact(() => createSharedOrder(link, market, ledger.journal, ledger.changes, context(bob), { side: 'Sell', price: 3_000n * USDC, quantity: ETH, orderType: { kind: 'PostOnly' } }));
    expect(isRevert(shared)).toBe(false);
    const taker = ledger.transact(() => createTurboOrder(link, ledger.journal, ledger.changes, context(alice), { side: 'Buy', price: 3_100n * USDC, quantity: ETH / 2n, orderType: { kind: 'Spot' } }));
    if (isRevert(taker)) throw new Error(taker.message);
    expect(filledQuantity(taker)).toBe(ETH / 2n);
    expect(taker.turbo).toBe(true);
    expect(link.turbo.trades.all()[0]).toMatchObject({ price: 3_000n * USDC, sharedSourceOrderId: (shared as { id: string }).id });
    // The cheaper public ask is untouched and the canonical book still holds the rest of the shared quote.
    expect(market.book.bestAsk()).toBe(2_990n * USDC);
    expect(problems()).toEqual([]);
  });

  it('rests a Turbo order on the Turbo book where a Spot shared quote crossing it fills it first', () => {
    const { ledger, market, link, alice, bob, context, problems } = setup();
    const resting = ledger.transact(() => createTurboOrder(link, ledger.journal, ledger.changes, context(alice), { side: 'Buy', price: 3_000n * USDC, quantity: ETH, orderType: { kind: 'Spot' } }));
    if (isRevert(resting)) throw new Error(resting.message);
    expect(link.turbo.book.bestBid()).toBe(3_000n * USDC);
    expect(market.book.bestBid()).toBeUndefined();
    const spot = ledger.transact(() => createSharedOrder(link, market, ledger.journal, ledger.changes, context(bob), { side: 'Sell', price: 2_999n * USDC, quantity: ETH, orderType: { kind: 'Spot' } }));
    expect(isRevert(spot)).toBe(false);
    expect(resting.close).toBe(true);
    expect(link.turbo.trades.all()[0]?.price).toBe(3_000n * USDC);
    expect(problems()).toEqual([]);
  });
});

describe('margin engine', () => {
  it('opens a prepaid session for exactly shared/margin openingAmount and keeps a failed batch atomic', () => {
    const { ledger, market, margin, config, alice, context, problems } = setup();
    const childId = margin.childId(alice.id, 0n);
    expect(isRevert(ledger.transact(() => margin.register(alice, childId, 0n, 0)))).toBe(false);
    const child = ledger.accounts.get(childId);
    if (child === undefined) throw new Error('no child');
    const tier = margin.latestTiers().find((candidate) => candidate.tierId === '2');
    if (tier === undefined) throw new Error('no tier');
    const amount = openingAmount({ cohort: 'Turbo', requiredCollateral: tier.requiredCollateral, openFee: tier.openFee, prolongFee: tier.prolongFee, discountBps: 0n, period: 'Week' });
    if (!amount.ok) throw new Error(amount.message);
    const inexact = ledger.transact(() => margin.startSession(alice, { kind: 'StartMarginSession', margin_account_id: childId, tier_id: 2n, amount: amount.value.amount - 1n, period: 'Week' }, context(alice)));
    expect(isRevert(inexact) && inexact.reason).toBe('InexactOpeningAmount');
    expect(isRevert(ledger.transact(() => margin.startSession(alice, { kind: 'StartMarginSession', margin_account_id: childId, tier_id: 2n, amount: amount.value.amount, period: 'Week' }, context(alice))))).toBe(false);
    // Draw within L, then a second draw in the same batch that breaks outstanding <= L: nothing stays.
    const batch = executeBatch(ledger, child, [{ market, turbo: false, actions: [{ kind: 'Draw', amount: 1_000n * USDC }, { kind: 'Draw', amount: 1_500n * USDC }] }], 'tx-batch', 1n, margin);
    expect(isRevert(batch) && batch.reason).toBe('OutstandingAboveCreditLine');
    expect(margin.sessions.get(childId)?.quoteDrawn).toBe(0n);
    expect(child.balances.get(config.collateralAssetId)).toBe(0n);
    const risk = computeRisk(snapshotOf(ledger, config, margin.oracle, margin.poolInventory(), child, margin.sessions.get(childId) as NonNullable<ReturnType<typeof margin.sessions.get>>));
    expect(risk.ok && risk.value.accountValue).toBe(tier.capital);
    expect(problems()).toEqual([]);
  });

  it('liquidates below the threshold: unwinds, repays the pool, books bad debt and keeps every invariant', () => {
    const { ledger, market, margin, config, alice, bob, link, context, problems } = setup();
    const childId = margin.childId(alice.id, 0n);
    ledger.transact(() => margin.register(alice, childId, 0n, 0));
    const child = ledger.accounts.get(childId) as NonNullable<ReturnType<typeof ledger.accounts.get>>;
    ledger.transact(() => margin.startSession(alice, { kind: 'StartMarginSession', margin_account_id: childId, tier_id: 2n, amount: 65n * USDC, period: 'Week' }, context(alice)));
    ledger.transact(() => createSharedOrder(link, market, ledger.journal, ledger.changes, context(bob), { side: 'Sell', price: 3_000n * USDC, quantity: ETH, orderType: { kind: 'PostOnly' } }));
    const bought = executeBatch(
      ledger,
      child,
      [{ market: link.turbo, link, turbo: true, actions: [{ kind: 'Draw', amount: 1_900n * USDC }, { kind: 'CreateOrder', side: 'Buy', price: 3_000n * USDC, quantity: (ETH * 6n) / 10n, order_type: { kind: 'Spot' } }, { kind: 'SettleBalance', to: contractIdentity(childId) }] }],
      'tx-buy',
      1n,
      margin,
    );
    expect(isRevert(bought)).toBe(false);
    margin.oracle.set(market.config.base.asset, { mid: 500n * 10n ** 18n }, 1n);
    const before = alice.balances.get(config.collateralAssetId);
    const settled = ledger.transact(() => margin.liquidate(child, context(child)));
    expect(isRevert(settled)).toBe(false);
    expect(margin.sessions.has(childId)).toBe(false);
    expect(margin.history.get(childId)?.[0]?.status).toBe('Liquidated');
    expect(margin.badDebt).toBeGreaterThan(0n);
    expect(alice.balances.get(config.collateralAssetId)).toBeGreaterThanOrEqual(before);
    expect(problems()).toEqual([]);
  });
});
