// The journal as the trader sees it: what was signed, when, and what became of it.

/** One damaged place found in a journal file at start. */
export interface JournalDamageItemView {
  /** The journal file it was found in (in the journal folder of the data directory). */
  readonly file: string;
  /** The untouched copy of that file as it was found, kept beside it. */
  readonly copy: string | null;
  /** unreadable bytes, a duplicated record, records missing whole, or an unreadable damage record. */
  readonly kind: 'unreadable' | 'duplicate' | 'missing' | 'unreadable-report';
  readonly offset: number;
  readonly length: number;
  /** Journal entry numbers just before and after the damage (null at the start or end of the file). */
  readonly afterSeq: number | null;
  readonly beforeSeq: number | null;
  readonly detail: string;
  /** Descriptions and ids still legible in the damaged bytes. */
  readonly hints: readonly string[];
}

export interface JournalDamageReportView {
  readonly id: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
  readonly items: readonly JournalDamageItemView[];
}

/** Damage the trader has not acknowledged: while any is listed, orders and withdrawals are refused (JOURNAL_DAMAGED). */
export interface JournalDamageView {
  readonly reports: readonly JournalDamageReportView[];
}

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
  /** A signed request of an execution algorithm: `<algorithm id>/<child key>` (main/services/algos). */
  readonly parent?: string;
}
