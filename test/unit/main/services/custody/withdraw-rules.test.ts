import { describe, expect, it } from 'vitest';
import { checkOnAccount, checkWithdrawBudget, checkWithdrawFields } from '../../../../../main/services/custody/withdraw-rules';
import { ZERO_B256 } from '../../../../../shared/encoding/b256';
import { DESTINATION, marketsIndex, TRADE_ACCOUNT, USDC } from '../../../../support/main/custody/fixtures';

const markets = marketsIndex();

describe('withdraw rules', () => {
  it('accepts an asset the markets use and a real destination', () => {
    expect(checkWithdrawFields({ assetId: USDC, amount: 1n, to: { Address: DESTINATION } }, markets, TRADE_ACCOUNT, 'Devnet')).toMatchObject({ ok: true, value: { symbol: 'USDC', decimals: 6 } });
  });

  it('refuses an unknown asset, the zero id and the trading account itself, naming the field', () => {
    const unknown = checkWithdrawFields({ assetId: DESTINATION, amount: 1n, to: { Address: DESTINATION } }, markets, TRADE_ACCOUNT, 'Devnet');
    expect(unknown).toMatchObject({ ok: false, code: 'UNKNOWN_ASSET', details: { field: 'assetId' } });
    expect(!unknown.ok && unknown.message).toContain(`assetId: ${DESTINATION} is not an asset of any market on Devnet (they use ETH`);
    expect(checkWithdrawFields({ assetId: USDC, amount: 1n, to: { Address: ZERO_B256 } }, markets, TRADE_ACCOUNT, 'Devnet')).toMatchObject({ ok: false, code: 'INVALID_DESTINATION', message: expect.stringMatching(/^to\.Address: 0x0{64} is the zero id/) });
    expect(checkWithdrawFields({ assetId: USDC, amount: 1n, to: { ContractId: TRADE_ACCOUNT } }, markets, TRADE_ACCOUNT, 'Devnet')).toMatchObject({ ok: false, code: 'INVALID_DESTINATION', message: expect.stringMatching(/^to\.ContractId: .* is this trading account itself/) });
  });

  it('refuses more than the balance on the account, in units and raw units', () => {
    const asset = { assetId: USDC, symbol: 'USDC', decimals: 6 };
    expect(checkOnAccount(5_000_000n, 5_000_000n, asset).ok).toBe(true);
    const refused = checkOnAccount(5_000_001n, 5_000_000n, asset);
    expect(refused).toMatchObject({ ok: false, code: 'INSUFFICIENT_ON_ACCOUNT', details: { field: 'amount', onAccount: '5000000' } });
    expect(!refused.ok && refused.message).toBe(
      'amount: 5.000001 USDC (5000001 raw units) is more than the 5 USDC (5000000 raw units) on the trading account itself; funds in order books must be settled to the account first, and open orders cancelled',
    );
  });

  it('refuses when the client budget of withdrawals is spent, saying when the next frees', () => {
    expect(checkWithdrawBudget({ remaining: 1, nextFreeAt: null }, 0).ok).toBe(true);
    expect(checkWithdrawBudget({ remaining: 0, nextFreeAt: 12_500 }, 1_000)).toMatchObject({ ok: false, code: 'WITHDRAW_RATE_LIMITED', details: { retryAfterSeconds: 12 } });
  });
});
