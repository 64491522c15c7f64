// One signed request's way through main, for the order-path bench's floor per order
// (bench/order-path.bench.ts): when the submitter took it, got its nonce, handed its journal entry
// to the file, signed it, saw the entry on the device and handed the request to the operating
// system. Times are epoch milliseconds (`performance.timeOrigin + performance.now()`, sub-ms), the
// same clock the bench's page and proxy stamp with. Only times and the nonce (which the request
// carries in the clear): nothing secret. Reported after the answer is back, never on the way out.
export interface OrderPathSpan {
  readonly journalId: string;
  /** The nonce as the request carries it (decimal): how the bench finds the request its proxy saw. */
  readonly nonce: string;
  readonly submittedAt: number;
  readonly leasedAt: number;
  readonly writeStartedAt: number;
  readonly signedAt: number;
  readonly flushedAt: number;
  /** Null when the transport failed before handing the request over. */
  readonly sentAt: number | null;
}

/** `performance.now()` as epoch milliseconds. */
export function epochOf(monotonic: number): number {
  return performance.timeOrigin + monotonic;
}
