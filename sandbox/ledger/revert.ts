// An on-chain refusal: the transaction was submitted and reverted. The whole batch is rolled
// back, but the nonce is consumed (spec 7; docs/sandbox.md lists the reasons).
export interface Revert {
  readonly revert: true;
  /** The contract's error name, e.g. `TraderNotWhiteListed`. */
  readonly reason: string;
  readonly message: string;
}

export function revert(reason: string, message: string): Revert {
  return { revert: true, reason, message };
}

export function isRevert(value: unknown): value is Revert {
  return typeof value === 'object' && value !== null && (value as { revert?: unknown }).revert === true;
}
