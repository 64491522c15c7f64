// The bounds a credit form checks before the confirmation come from the live risk report, as
// main's own checks do; without a live report there is no bound (main checks).
import { describe, expect, it } from 'vitest';
import type { MarginRiskView } from '../../shared/ipc/views/margin';
import { creditLimit } from '../../renderer/src/features/margin/margin-limits';

const usdc = { assetId: '0xcc', symbol: 'USDC', decimals: 6 };
const eth = { assetId: '0xee', symbol: 'ETH', decimals: 9 };
const risk = {
  drawableQuote: 1_500n,
  loanHeadroom: 2_000n,
  netCollateral: 900n,
  // The report lists non-collateral assets only.
  assets: [
    { ...eth, onAccount: 7n, debt: 20n, borrowable: 50n, borrowableReturningQuoteFirst: 80n },
  ],
} as unknown as MarginRiskView;

describe('credit limits', () => {
  it('bounds a draw by the drawable quote and the loan headroom, the lower one named', () => {
    expect(creditLimit({ kind: 'draw', asset: usdc, risk, quoteDrawn: 400n })).toEqual({ amount: 1_500n, where: 'to draw now (the pool and the credit line)' });
  });

  it('bounds a return and a repay by what is held and what is owed', () => {
    expect(creditLimit({ kind: 'returnQuote', asset: usdc, risk, quoteDrawn: 100n })).toEqual({ amount: 100n, where: 'drawn' });
    // What the account holds of the collateral is not in the report: main checks it.
    expect(creditLimit({ kind: 'withdraw', asset: usdc, risk, quoteDrawn: 100n })).toBeNull();
    expect(creditLimit({ kind: 'withdraw', asset: eth, risk, quoteDrawn: 100n })).toEqual({ amount: 7n, where: 'on the Turbo Account' });
    expect(creditLimit({ kind: 'repay', asset: eth, risk, quoteDrawn: 0n })).toEqual({ amount: 7n, where: 'on the Turbo Account' });
    expect(creditLimit({ kind: 'repayBaseFromCollateral', asset: eth, risk, quoteDrawn: 0n })).toEqual({ amount: 20n, where: 'owed in debt' });
    expect(creditLimit({ kind: 'repayFromCollateral', asset: usdc, risk, quoteDrawn: 2_000n })).toEqual({ amount: 900n, where: 'in net posted collateral' });
  });

  it('bounds a borrow by what may be borrowed now, more when quote is returned first', () => {
    expect(creditLimit({ kind: 'borrow', asset: eth, risk, quoteDrawn: 0n })?.amount).toBe(50n);
    expect(creditLimit({ kind: 'borrow', asset: eth, risk, quoteDrawn: 0n, returningFirst: true })?.amount).toBe(80n);
  });

  it('has no bound without a live report', () => {
    expect(creditLimit({ kind: 'draw', asset: usdc, risk: null, quoteDrawn: null })).toBeNull();
  });
});
