// Switches that open the app to a debugger: Chromium's remote debugging (DevTools protocol over a
// port or a pipe) and Node's inspector. Electron's fuses turn off ELECTRON_RUN_AS_NODE, NODE_OPTIONS
// and --inspect for the Node side (build/electron-builder.config.ts), but not Chromium's
// --remote-debugging-port: a process of the same user could start the packaged app with it and
// drive the bridge (and so the keys' operations) from outside. A packaged build refuses to start
// with any of them; a development run keeps them (that is how the app is debugged).
//
// Pure, so the decision is tested without Electron: main/index.ts calls it with process.argv.

/** Switch names (without dashes, lower case) that attach a debugger or expose the DevTools protocol. */
export const DEBUG_SWITCHES = [
  'remote-debugging-port',
  'remote-debugging-pipe',
  'remote-debugging-address',
  'remote-debugging-io-pipes',
  'remote-allow-origins',
  'inspect',
  'inspect-brk',
  'inspect-port',
  'inspect-publish-uid',
  'inspect-wait',
  'debug',
  'debug-brk',
  'debug-port',
  'js-flags',
] as const;

/** The name of a command-line switch as Chromium and Node read it, or null for a plain argument. */
export function switchName(argument: string, platform: string): string | null {
  // Chromium accepts `--name`, `-name` and, on Windows, `/name`; Node only the dashed forms.
  const match = /^(?:--?|\/)([^=]+)(?:=.*)?$/s.exec(argument);
  if (!match?.[1]) return null;
  if (argument.startsWith('/') && platform !== 'win32') return null;
  // Chromium matches switch names without regard to case on Windows; be as wide everywhere.
  return match[1].toLowerCase();
}

export interface DebugSwitchDecision {
  readonly refuse: boolean;
  /** The arguments that would open a debugger, as given. */
  readonly found: readonly string[];
}

/**
 * Whether the app must quit at start: packaged, and started with a debugging switch anywhere in
 * its command line (after `--` too: better to refuse a file oddly named than to be driven).
 */
export function debugSwitchDecision(argv: readonly string[], packaged: boolean, platform: string = process.platform): DebugSwitchDecision {
  const found = argv.slice(1).filter((argument) => {
    const name = switchName(argument, platform);
    return name !== null && (DEBUG_SWITCHES as readonly string[]).includes(name);
  });
  return { refuse: packaged && found.length > 0, found };
}
