// What to do about a nonce refusal, from the texts the public service sends (wire notes).
export type NonceRefusalClass =
  /** "Parallel nonce is not usable", "word position out of sliding window": resync the window, retry once. */
  | 'RESYNC_WINDOW_AND_RETRY_ONCE'
  /** "nonce already used": the first attempt may have landed; look it up, never resend blindly. */
  | 'ALREADY_USED_DO_NOT_RETRY'
  /** "Nonce in the request": the sequential nonce is stale; read it again. */
  | 'REFETCH_SEQUENTIAL'
  | 'NOT_A_NONCE_REFUSAL';

export function classifyNonceRefusal(message: string): NonceRefusalClass {
  const text = message.toLowerCase();
  if (text.includes('nonce already used')) return 'ALREADY_USED_DO_NOT_RETRY';
  if (text.includes('parallel nonce is not usable') || text.includes('word position out of sliding window')) return 'RESYNC_WINDOW_AND_RETRY_ONCE';
  if (text.includes('nonce in the request')) return 'REFETCH_SEQUENTIAL';
  return 'NOT_A_NONCE_REFUSAL';
}
