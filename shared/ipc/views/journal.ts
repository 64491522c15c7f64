// The journal as the trader sees it: what was signed, when, and what became of it.

export interface JournalEntryView {
  readonly seq: number;
  /** Milliseconds since the epoch. */
  readonly at: number;
  readonly id: string;
  readonly kind: 'signed' | 'outcome' | 'reconciled';
  readonly networkId: string | null;
  readonly endpoint: string | null;
  readonly nonce: string | null;
  readonly description: string | null;
  readonly status: string | null;
  readonly detail: string | null;
}
