// Requests main answers with NOT_READY (a service still starting, or not built yet) are retried
// on a slow timer instead of failing the panel; every other failure is shown as it is.
import type { Result } from '../../../shared/result';

export interface RetryHandle {
  stop(): void;
}

export interface RetryOptions {
  readonly intervalMs?: number;
  readonly setTimer?: (callback: () => void, ms: number) => unknown;
  readonly clearTimer?: (handle: unknown) => void;
}

export function isNotReady(result: Result<unknown>): boolean {
  return !result.ok && result.code === 'NOT_READY';
}

/** Call `load` until it answers anything but NOT_READY; `onResult` sees every answer. */
export function retryWhileNotReady<T>(load: () => Promise<Result<T>>, onResult: (result: Result<T>) => void, options: RetryOptions = {}): RetryHandle {
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let stopped = false;
  let timer: unknown = null;
  const attempt = () => {
    void load().then((result) => {
      if (stopped) return;
      onResult(result);
      if (isNotReady(result)) timer = setTimer(attempt, options.intervalMs ?? 5000);
    });
  };
  attempt();
  return {
    stop() {
      stopped = true;
      if (timer !== null) clearTimer(timer);
    },
  };
}
