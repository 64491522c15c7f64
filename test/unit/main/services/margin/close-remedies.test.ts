// What unblocks a clean close: drawn quote returned from what the account holds, the rest repaid
// from posted collateral on a legacy session (never on a prepaid one), and in-kind debt likewise.
import { describe, expect, it } from 'vitest';
import { closeRemedies } from '../../../../../main/services/margin/close-remedies';

const usdc = { assetId: '0xcc', symbol: 'USDC', decimals: 6 };
const eth = { assetId: '0xee', symbol: 'ETH', decimals: 9 };
const show = (amount: bigint, asset: { symbol: string; decimals: number }) => `${amount}/${asset.symbol}`;
const base = { collateral: usdc, show, debts: [] };

describe('close remedies', () => {
  it('returns what the account holds and, on a legacy session, repays the rest from posted collateral', () => {
    // A flatten left only a remainder no order sells: 449 USDC held against 500 drawn.
    expect(closeRemedies({ ...base, legacy: true, drawn: 500n, held: 449n, netCollateral: 1_000n })).toEqual([
      { kind: 'returnQuote', asset: usdc, amount: 449n, text: 'Return 449/USDC of drawn quote from what the account holds' },
      { kind: 'repayFromCollateral', asset: usdc, amount: 51n, text: 'Repay 51/USDC of drawn quote from posted collateral' },
    ]);
  });

  it('offers no repay from collateral on a prepaid session, or beyond the net collateral', () => {
    expect(closeRemedies({ ...base, legacy: false, drawn: 500n, held: 449n, netCollateral: 1_000n }).map((remedy) => remedy.kind)).toEqual(['returnQuote']);
    expect(closeRemedies({ ...base, legacy: true, drawn: 500n, held: 0n, netCollateral: 499n })).toEqual([]);
  });

  it('repays in-kind debt from what is held, and buys the rest out from collateral on a legacy session', () => {
    const debts = [{ asset: eth, debt: 100n, held: 30n }];
    expect(closeRemedies({ ...base, debts, legacy: true, drawn: 0n, held: 0n, netCollateral: 10n }).map((remedy) => [remedy.kind, remedy.amount])).toEqual([
      ['repay', 30n],
      ['repayBaseFromCollateral', 70n],
    ]);
    expect(closeRemedies({ ...base, debts, legacy: false, drawn: 0n, held: 0n, netCollateral: 10n }).map((remedy) => remedy.kind)).toEqual(['repay']);
  });

  it('is empty when nothing is owed', () => {
    expect(closeRemedies({ ...base, legacy: true, drawn: 0n, held: 5n, netCollateral: 5n })).toEqual([]);
  });
});
