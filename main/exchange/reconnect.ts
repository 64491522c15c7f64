// The reconnect schedule of spec section 6: 2.0 s, growing 1.5 s per retry, capped at 10 s, up to
// 10 retries; after the last one the client reports that it gave up and waits for a manual reconnect.
export interface ReconnectPolicy {
  readonly firstDelayMs: number;
  readonly stepMs: number;
  readonly maxDelayMs: number;
  readonly maxRetries: number;
}

export const SPEC_RECONNECT_POLICY: ReconnectPolicy = { firstDelayMs: 2_000, stepMs: 1_500, maxDelayMs: 10_000, maxRetries: 10 };

/** Delay before retry number `retry` (1-based): 2000, 3500, 5000, 6500, 8000, 9500, 10000, … */
export function reconnectDelayMs(retry: number, policy: ReconnectPolicy = SPEC_RECONNECT_POLICY): number {
  return Math.min(policy.firstDelayMs + policy.stepMs * (Math.max(1, retry) - 1), policy.maxDelayMs);
}
