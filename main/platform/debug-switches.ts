// Switches that open the app to a debugger, or weaken the isolation of its processes. Chromium's
// remote debugging (DevTools protocol over a port or a pipe) and Node's inspector attach a debugger;
// Chromium's launcher and prefix switches run another program as a child process of the app, and its
// sandbox and web-security switches take the walls between the page and the rest down. Electron's
// fuses turn off ELECTRON_RUN_AS_NODE, NODE_OPTIONS and --inspect (with SIGUSR1) for the Node side
// (build/electron-builder.config.ts), but not these Chromium switches: a process of the same user
// could start the packaged app with one and drive the bridge (and so the keys' operations) from
// outside. A packaged build refuses to start with any of them; a development run keeps them (that is
// how the app is debugged).
//
// The browser host is plain Node: it refuses Node's inspector flags on its command line and in
// NODE_OPTIONS, and an inspector already open (`nodeDebugDecision`, called by main/host/debugger-guard.ts).
//
// Pure, so the decisions are tested without Electron: main/index.ts calls it with process.argv.

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

/**
 * Chromium switches (without dashes, lower case) that run another program in place of a child
 * process of the app, or turn its sandbox, site isolation or web security off. The app needs none.
 */
export const ISOLATION_SWITCHES = [
  'renderer-cmd-prefix',
  'gpu-launcher',
  'utility-cmd-prefix',
  'browser-subprocess-path',
  'ppapi-plugin-launcher',
  'no-sandbox',
  'disable-gpu-sandbox',
  'disable-setuid-sandbox',
  'disable-namespace-sandbox',
  'disable-seccomp-filter-sandbox',
  'no-zygote',
  'no-zygote-sandbox',
  'single-process',
  'in-process-gpu',
  'disable-web-security',
  'disable-site-isolation-trials',
  'disable-features',
  'allow-running-insecure-content',
  'ignore-certificate-errors',
  'ignore-certificate-errors-spki-list',
] as const;

const REFUSED_SWITCHES: ReadonlySet<string> = new Set<string>([...DEBUG_SWITCHES, ...ISOLATION_SWITCHES]);

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
 * Whether the app must quit at start: packaged, and started with a debugging or isolation switch
 * anywhere in its command line (after `--` too: better to refuse a file oddly named than to be driven).
 */
export function debugSwitchDecision(argv: readonly string[], packaged: boolean, platform: string = process.platform): DebugSwitchDecision {
  const found = argv.slice(1).filter((argument) => {
    const name = switchName(argument, platform);
    return name !== null && REFUSED_SWITCHES.has(name);
  });
  return { refuse: packaged && found.length > 0, found };
}

/** Node's flags that open or arm its inspector: every `--inspect…` and `--debug…` (the old spelling). */
function isNodeDebugFlag(argument: string): boolean {
  return /^--?(?:inspect|debug)(?:[-=]|$)/i.test(argument);
}

export interface NodeDebugState {
  /** process.execArgv: the flags given to Node itself. */
  readonly execArgv: readonly string[];
  /** The NODE_OPTIONS environment variable Node read its extra flags from. */
  readonly nodeOptions: string | undefined;
  /** require('node:inspector').url(): the address of an inspector that is open, if any. */
  readonly inspectorUrl: string | undefined;
}

/**
 * Whether the browser host must refuse to start: an inspector flag given to Node (command line or
 * NODE_OPTIONS, `--inspect-port` too: it arms the port SIGUSR1 would open), or an inspector already
 * open (a signal that came before the host could stop it, or code that opened one).
 */
export function nodeDebugDecision(state: NodeDebugState): DebugSwitchDecision {
  const found = state.execArgv.filter(isNodeDebugFlag);
  // NODE_OPTIONS is split on white space; a flag may be quoted there.
  for (const word of (state.nodeOptions ?? '').split(/\s+/)) {
    const flag = word.replace(/^["']|["']$/g, '');
    if (isNodeDebugFlag(flag)) found.push(`NODE_OPTIONS: ${flag}`);
  }
  if (state.inspectorUrl !== undefined) found.push(`an open inspector at ${state.inspectorUrl}`);
  return { refuse: found.length > 0, found };
}
