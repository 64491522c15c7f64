import { describe, expect, it } from 'vitest';
import { sessionScope, sessionScopeText } from '../../../../shared/market/session-scope';

const id = (digit: string) => `0x${digit.repeat(64)}`;
const canonical = ['1', '2', '3', '4', '5'].map((digit) => ({ market_id: id(digit), contract_id: id(String.fromCharCode(96 + Number(digit))) }));
// Turbo books share the canonical row's market id and have contracts of their own.
const turbo = ['1', '2', '3'].map((digit) => ({ market_id: id(digit), contract_id: id(String.fromCharCode(101 + Number(digit))) }));
const registry = id('9');
const turboAccount = id('8');

describe('session scope', () => {
  it('counts markets, books and the other contracts a session names, one way', () => {
    const contracts = [...canonical.map((book) => book.contract_id), ...turbo.map((book) => book.contract_id), registry];
    const scope = sessionScope(contracts, canonical, turbo);
    expect(scope).toEqual({ markets: 5, canonicalBooks: 5, turboBooks: 3, otherContracts: 1 });
    expect(sessionScopeText(scope)).toBe('5 markets, 8 books (5 Canonical, 3 Turbo) and 1 other contract');
  });

  it('a session recreated for a Turbo Account names more contracts, not more books', () => {
    const contracts = [...canonical.map((book) => book.contract_id), ...turbo.map((book) => book.contract_id), registry, turboAccount];
    expect(sessionScopeText(sessionScope(contracts, canonical, turbo))).toBe('5 markets, 8 books (5 Canonical, 3 Turbo) and 2 other contracts');
  });

  it('a market whose Turbo book alone is named still counts once', () => {
    expect(sessionScope([turbo[0]!.contract_id.toUpperCase()], canonical, turbo)).toEqual({ markets: 1, canonicalBooks: 0, turboBooks: 1, otherContracts: 0 });
  });
});
