// The mark as a reference price on one book: the midpoint of the best bid and the best ask,
// rounded down to the raw unit. A trailing stop follows it and a price alert reads it, so both
// name the same figure "mark". (A held position is valued at its exit side instead, bid for a long
// and ask for a short: docs/protocol.md, "Mark".)

/** floor((bid + ask) / 2); null while either side of the book is empty. */
export function referenceMark(bid: bigint | null, ask: bigint | null): bigint | null {
  return bid === null || ask === null ? null : (bid + ask) / 2n;
}
