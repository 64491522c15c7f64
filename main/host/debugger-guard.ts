// No debugger into the browser host, the process that holds the keys. Node 20 and 22 (before
// 22.14) have no --disable-sigusr1: on Linux and macOS, SIGUSR1 from any process of the same user
// (`kill -USR1`, `process._debugProcess`) makes Node open an unauthenticated inspector on
// 127.0.0.1:9229 that runs code in this process. Node starts the inspector from its own signal
// handler; a JavaScript listener for SIGUSR1 replaces that handler (libuv installs its own), and
// while the listener stays the signal only reaches it (test/integration/platform/host-debugger.test.ts
// sends the signal to a real host). The listener is never removed: without it SIGUSR1 would end the
// process (the default action), not open an inspector, but the guard should not rely on that.
//
// Then the host refuses to start with an inspector flag (its command line or NODE_OPTIONS) or an
// inspector already open (a signal that came before the listener), and a watchdog ends the process
// should one open later anyway (Windows, where the inspector is started by a remote thread that no
// signal listener sees; code that calls inspector.open()).
import type { DebugSwitchDecision, NodeDebugState } from '../platform/debug-switches';
import { nodeDebugDecision } from '../platform/debug-switches';

/** The parts of the process the guard uses (the real `process` and `node:inspector`, or fakes). */
export interface GuardedProcess {
  readonly execArgv: readonly string[];
  readonly nodeOptions: string | undefined;
  inspectorUrl(): string | undefined;
  /** Keep a listener on SIGUSR1 for the life of the process. */
  onDebugSignal(listener: () => void): void;
  /** Run `check` every `milliseconds` without keeping the process alive. */
  every(milliseconds: number, check: () => void): void;
  log(line: string): void;
  /** Close the inspector and leave at once, exit code 1. */
  abort(reason: string): void;
}

/** How often the watchdog looks for an inspector that opened after the start. */
export const WATCHDOG_MS = 200;

/** Install the SIGUSR1 listener first, then decide; the caller exits when the answer is a refusal. */
export function guardAgainstDebugger(target: GuardedProcess): DebugSwitchDecision {
  // Said once: a stream of signals must not flood the host's terminal, where confirmations are printed.
  let told = false;
  target.onDebugSignal(() => {
    if (told) return;
    told = true;
    target.log('SIGUSR1 ignored: the terminal host does not open a debugger (further ones are ignored silently)');
  });
  const state: NodeDebugState = { execArgv: target.execArgv, nodeOptions: target.nodeOptions, inspectorUrl: target.inspectorUrl() };
  const decision = nodeDebugDecision(state);
  if (!decision.refuse) {
    target.every(WATCHDOG_MS, () => {
      const url = target.inspectorUrl();
      if (url !== undefined) target.abort(`an inspector opened at ${url}; the terminal host holds keys and stops`);
    });
  }
  return decision;
}
