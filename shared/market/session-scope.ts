// What a trading session covers, counted one way wherever it is said (account setup, the journal):
// markets, the books of those markets (each market's Canonical book and its Turbo book count as two
// books of one market), and the other contracts a session also names (the accounts registry, a
// margin pool, Turbo Accounts), which are neither markets nor books.

export interface ScopeBook {
  readonly market_id: string;
  readonly contract_id: string;
}

export interface SessionScope {
  readonly markets: number;
  readonly canonicalBooks: number;
  readonly turboBooks: number;
  /** Named contracts that are no book of a listed market. */
  readonly otherContracts: number;
}

export function sessionScope(contractIds: readonly string[], canonical: readonly ScopeBook[], turbo: readonly ScopeBook[]): SessionScope {
  const named = new Set(contractIds.map((id) => id.toLowerCase()));
  const markets = new Set<string>();
  let canonicalBooks = 0;
  let turboBooks = 0;
  const books = new Set<string>();
  for (const [list, isTurbo] of [
    [canonical, false],
    [turbo, true],
  ] as const) {
    for (const book of list) {
      const contract = book.contract_id.toLowerCase();
      if (!named.has(contract) || books.has(contract)) continue;
      books.add(contract);
      markets.add(book.market_id.toLowerCase());
      if (isTurbo) turboBooks++;
      else canonicalBooks++;
    }
  }
  return { markets: markets.size, canonicalBooks, turboBooks, otherContracts: named.size - books.size };
}

const count = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;

/** "5 markets, 8 books (5 Canonical, 3 Turbo) and 2 other contracts". */
export function sessionScopeText(scope: SessionScope): string {
  const books = scope.canonicalBooks + scope.turboBooks;
  const others = scope.otherContracts === 0 ? '' : ` and ${count(scope.otherContracts, 'other contract', 'other contracts')}`;
  return `${count(scope.markets, 'market', 'markets')}, ${count(books, 'book', 'books')} (${scope.canonicalBooks} Canonical, ${scope.turboBooks} Turbo)${others}`;
}
