// Settlement pays what the risk panel showed: one definition of realized profit
// (shared/margin settlement.ts), the house's profit share rounded up (spec 2.1, 4.7), and the
// balance-sheet moves (collateral moves, draws, withdrawals, outside arrivals) not counted as profit.
import { describe, expect, it } from 'vitest';
import { openingAmount, profitShare } from '../../../shared/margin/index';
import { createSharedOrder } from '../../../sandbox/turbo/matching';
import { ETH, USDC } from '../../support/sandbox/ledger-fixture';
import { clientReport, marginSetup, sandboxReport } from '../../support/sandbox/margin-harness';

function legacyAmount(h: ReturnType<typeof marginSetup>, period: 'Day' | 'Week'): bigint {
  const tier = h.margin.latestTiers().find((candidate) => candidate.tierId === '1');
  if (tier === undefined) throw new Error('no legacy tier');
  const amount = openingAmount({ cohort: 'Legacy', requiredCollateral: tier.requiredCollateral, openFee: tier.openFee, prolongFee: tier.prolongFee, discountBps: 0n, period });
  if (!amount.ok) throw new Error(amount.message);
  return amount.value.amount;
}

describe('profit share (margin 4.7, rounding 2.1)', () => {
  it('floors the trader share and rounds the house share up', () => {
    expect(profitShare(298_020_297n, 1_000n)).toEqual({ trader: 268_218_267n, house: 29_802_030n });
    expect(profitShare(10n, 1_000n)).toEqual({ trader: 9n, house: 1n });
    expect(profitShare(1n, 1n)).toEqual({ trader: 0n, house: 1n });
    expect(profitShare(0n, 1_000n)).toEqual({ trader: 0n, house: 0n });
    expect(profitShare(-5n, 1_000n)).toEqual({ trader: 0n, house: 0n });
    // Zero share (shipped prepaid tiers): the trader keeps all.
    expect(profitShare(123n, 0n)).toEqual({ trader: 123n, house: 0n });
  });

  it('settlement takes the rounded-up share and the parent receives net collateral plus the floored trader share', () => {
    const h = marginSetup();
    const usdc = h.config.collateralAssetId;
    const child = h.open(1n, legacyAmount(h, 'Day'), 'Day');
    // A profit arrives by trading: buy 1 ETH from a shared quote at 3,000, sell it to a shared bid
    // at 3,298.02 (less the Turbo book's taker fees).
    h.must(h.ledger.transact(() => createSharedOrder(h.link, h.market, h.ledger.journal, h.ledger.changes, h.context(h.bob), { side: 'Sell', price: 3_000n * USDC, quantity: ETH, orderType: { kind: 'PostOnly' } })));
    h.must(h.batch(child, [{ kind: 'Draw', amount: 3_000n * USDC }, { kind: 'CreateOrder', side: 'Buy', price: 3_000n * USDC, quantity: ETH, order_type: { kind: 'Spot' } }, h.settleTo(child)]));
    const sellPrice = 3_298_020_000n;
    h.must(h.ledger.transact(() => createSharedOrder(h.link, h.market, h.ledger.journal, h.ledger.changes, h.context(h.bob), { side: 'Buy', price: sellPrice, quantity: ETH, orderType: { kind: 'PostOnly' } })));
    const eth = child.balances.get(h.market.config.base.asset);
    h.must(h.batch(child, [{ kind: 'CreateOrder', side: 'Sell', price: sellPrice, quantity: eth, order_type: { kind: 'Spot' } }, h.settleTo(child)]));
    h.must(h.batch(child, [{ kind: 'ReturnQuote', amount: 3_000n * USDC }]));
    const shown = clientReport(h, child);
    // Flat, nothing drawn: the profit is the quote left on the account.
    expect(shown.tradingPnl).toBe(child.balances.get(usdc));
    // Not a multiple of 10: the house's 10 % is a rounding case.
    expect(shown.tradingPnl % 10n).not.toBe(0n);
    const parentBefore = h.alice.balances.get(usdc);
    h.must(h.ledger.transact(() => h.margin.closeSession(h.alice, { kind: 'CloseMarginSession', margin_account_id: child.id, cleanups: [] }, h.context(h.alice))));
    const settlement = h.margin.history.get(child.id)?.[0]?.settlement;
    const split = profitShare(shown.tradingPnl, 1_000n);
    expect(settlement?.pnl).toBe(shown.tradingPnl.toString());
    expect(settlement?.profit_share).toBe(split.house.toString());
    expect(split.house * 10n).toBeGreaterThanOrEqual(shown.tradingPnl);
    // What stays the trader's: net collateral back to the parent, the profit less the house share on the child.
    expect(h.alice.balances.get(usdc) - parentBefore).toBe(BigInt(settlement?.collateral_returned ?? '0'));
    expect(child.balances.get(usdc)).toBe(split.trader);
  });
});

describe('profit share from posted collateral', () => {
  it('takes the house share from the posted collateral when the profit is held in another asset', () => {
    const h = marginSetup();
    const usdc = h.config.collateralAssetId;
    const eth = h.market.config.base.asset;
    const child = h.open(1n, legacyAmount(h, 'Day'), 'Day');
    // 3,000 USDC from outside (not profit), spent on 1 ETH; then the oracle doubles the ETH.
    h.ledger.transact(() => h.margin.receive(child.id, () => h.ledger.mint({ ContractId: child.id }, usdc, 3_001n * USDC)));
    h.must(h.ledger.transact(() => createSharedOrder(h.link, h.market, h.ledger.journal, h.ledger.changes, h.context(h.bob), { side: 'Sell', price: 3_000n * USDC, quantity: ETH, orderType: { kind: 'PostOnly' } })));
    h.must(h.batch(child, [{ kind: 'CreateOrder', side: 'Buy', price: 3_000n * USDC, quantity: ETH, order_type: { kind: 'Spot' } }, h.settleTo(child)]));
    h.margin.oracle.set(eth, { mid: 6_000n * 10n ** 18n }, 1n);
    const shown = clientReport(h, child);
    expect(shown).toEqual(sandboxReport(h, child));
    expect(shown.tradingPnl).toBeGreaterThan(2_900n * USDC);
    const posted = shown.netCollateral;
    const held = child.balances.get(usdc);
    h.must(h.ledger.transact(() => h.margin.closeSession(h.alice, { kind: 'CloseMarginSession', margin_account_id: child.id, cleanups: [] }, h.context(h.alice))));
    const settlement = h.margin.history.get(child.id)?.[0]?.settlement;
    const due = profitShare(shown.tradingPnl, 1_000n).house;
    expect(settlement?.profit_share).toBe(due.toString());
    expect(settlement?.profit_share_unpaid).toBeUndefined();
    // The child's USDC went first, the rest came out of the collateral returned to the parent.
    expect(child.balances.get(usdc)).toBe(0n);
    expect(settlement?.collateral_returned).toBe((posted - (due - held)).toString());
  });
});

describe('realized profit: the panel shows what settlement pays', () => {
  it('ProlongSession, Draw, RepayFromCollateral, ReturnQuote: no profit, no loss', () => {
    const h = marginSetup();
    const usdc = h.config.collateralAssetId;
    const child = h.open(1n, legacyAmount(h, 'Day'), 'Day');
    h.must(h.batch(child, [{ kind: 'ProlongSession', period: 'Day', times: 2n }]));
    h.must(h.batch(child, [{ kind: 'Draw', amount: 100n * USDC }]));
    h.must(h.batch(child, [{ kind: 'RepayFromCollateral', amount: 40n * USDC }]));
    h.must(h.batch(child, [{ kind: 'ReturnQuote', amount: 60n * USDC }]));
    const shown = clientReport(h, child);
    expect(shown).toEqual(sandboxReport(h, child));
    // The trader's equity is what the open put in less the 6 USDC of prolong fees, reported apart.
    expect(shown.traderEquity).toBe(994n * USDC);
    expect(shown.tradingPnl).toBe(0n);
    h.must(h.ledger.transact(() => h.margin.closeSession(h.alice, { kind: 'CloseMarginSession', margin_account_id: child.id, cleanups: [] }, h.context(h.alice))));
    const settlement = h.margin.history.get(child.id)?.[0]?.settlement;
    expect(settlement?.pnl).toBe(shown.tradingPnl.toString());
    expect(settlement?.profit_share).toBe('0');
    // Everything the trader owns comes back: 954 collateral to the parent, 40 on the child.
    expect(settlement?.collateral_returned).toBe((954n * USDC).toString());
    expect(child.balances.get(usdc)).toBe(40n * USDC);
  });

  it('AddCollateral, a withdrawal to the parent and value from outside move neither realized profit nor the share', () => {
    const h = marginSetup();
    const usdc = h.config.collateralAssetId;
    const child = h.open(1n, legacyAmount(h, 'Day'), 'Day');
    // Value from outside (as a faucet mint or an owner withdrawal to the child does it).
    h.ledger.transact(() => h.margin.receive(child.id, () => h.ledger.mint({ ContractId: child.id }, usdc, 500n * USDC)));
    expect(clientReport(h, child).tradingPnl).toBe(0n);
    h.must(h.batch(child, [{ kind: 'AddCollateral', amount: 300n * USDC }]));
    expect(clientReport(h, child).tradingPnl).toBe(0n);
    h.must(h.batch(child, [{ kind: 'WithdrawFromMargin', asset_id: usdc, amount: 150n * USDC }]));
    const shown = clientReport(h, child);
    expect(shown).toEqual(sandboxReport(h, child));
    expect(shown.tradingPnl).toBe(0n);
    h.must(h.ledger.transact(() => h.margin.closeSession(h.alice, { kind: 'CloseMarginSession', margin_account_id: child.id, cleanups: [] }, h.context(h.alice))));
    expect(h.margin.history.get(child.id)?.[0]?.settlement?.pnl).toBe('0');
  });
});
