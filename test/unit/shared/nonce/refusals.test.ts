import { describe, expect, it } from 'vitest';
import { classifyNonceRefusal } from '../../../../shared/nonce/refusals';

describe('nonce refusal classes', () => {
  it.each([
    ['Parallel nonce is not usable', 'RESYNC_WINDOW_AND_RETRY_ONCE'],
    ['error: word position out of sliding window (lane 1)', 'RESYNC_WINDOW_AND_RETRY_ONCE'],
    ['Nonce already used', 'ALREADY_USED_DO_NOT_RETRY'],
    ['Nonce in the request (5) does not match 6', 'REFETCH_SEQUENTIAL'],
    ['TraderNotWhiteListed', 'NOT_A_NONCE_REFUSAL'],
  ])('%s → %s', (text, expected) => {
    expect(classifyNonceRefusal(text)).toBe(expected);
  });
});
