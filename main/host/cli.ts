// `npm run web`: the terminal's main services with the renderer served to a browser. Used where
// no Electron runtime is available and by the end-to-end tests.
//
// `--displays "0,0,1920,1080;1920,0,1280,1024"`: the displays the desk simulates (a browser reports
// none): one `x,y,width,height` per display, the first primary. Windows of a layout are fitted to
// them; the `setSimulatedDisplays` request replaces them (a test's display change). Default: one
// 1920×1080 display.
//
// `npm run web -- --offline`: the same app as the offline signer, for the air-gapped machine. The
// online composition (terminal, sandbox, keychain, exchange clients) is imported only on the online
// path, so in offline mode none of it is even loaded; the networking globals are removed as a
// second line (as main/offline/cli.ts does). The browser host itself listens on 127.0.0.1 to serve
// the page and its bridge, nothing else.
// First, before the rest of the host loads: no debugger into the process that holds the keys.
import './no-debugger';
import { existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { createDispatcher, type Handlers } from '../ipc/dispatcher';
import { systemClock } from '../services/system-clock';
import type { WindowHub } from '../services/window-hub';
import type { Desk } from '../services/desk/desk';
import type { OrderPathSpan } from '../services/trading/order-path-span';
import { terminalLog } from '../platform/terminal-log';
import { startBrowserHost } from './browser-host';
import { BrowserDeskPlatform, DEFAULT_DISPLAYS, parseDisplaysFlag } from './desk-browser';

const modulePath = fileURLToPath(import.meta.url);
// main/host/cli.ts from source, out/main/host.js from the build: both two folders below the root.
const projectRoot = resolve(dirname(modulePath), '../..');
/** The sandbox runs from the same kind of code as the host: built beside it, else from source through tsx (a test bundle of the host alone). */
const builtSandbox = join(dirname(modulePath), 'sandbox.js');
const sandboxEntry = !modulePath.endsWith('.ts') && existsSync(builtSandbox) ? { modulePath: builtSandbox, execArgv: [] } : { modulePath: join(projectRoot, 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] };

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run web -- [--port N] [--data-dir DIR] [--renderer-dir DIR] [--sandbox-seed N] [--displays "x,y,w,h;x,y,w,h"] [--offline]\n       [--sandbox-control] [--sandbox-maker-profile NAME] [--sandbox-maker-regime NAME] [--sandbox-maker-rate N] [--exchange-url URL] [--record-bridge FILE [--record-calls-only]] [--report-resources-ms N]\n`);
  process.exit(2);
}

function parseFlags() {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        'data-dir': { type: 'string' },
        'renderer-dir': { type: 'string', default: join(projectRoot, 'out/renderer') },
        'sandbox-seed': { type: 'string' },
        offline: { type: 'boolean', default: false },
        // The browser has no displays to report: the desk works on these simulated ones.
        displays: { type: 'string', default: DEFAULT_DISPLAYS },
        // The embedded sandbox with its control surface (moving prices, injecting faults): for
        // practice and tests.
        'sandbox-control': { type: 'boolean', default: false },
        // The embedded sandbox maker's depth profile and regime (docs/sandbox.md): tests pin the
        // book they were written against; the sandbox names the profiles and refuses others.
        'sandbox-maker-profile': { type: 'string' },
        'sandbox-maker-regime': { type: 'string' },
        // The embedded sandbox maker's takes per second per market (its --maker-rate, default 2):
        // the soak and the four-window bench run it at ten times that.
        'sandbox-maker-rate': { type: 'string' },
        // An exchange that runs outside this process (another sandbox, a devnet) instead of the
        // embedded sandbox; its faucet is expected at the same address.
        'exchange-url': { type: 'string' },
        // Append every bridge frame, both ways, to this file (the security test scans it).
        'record-bridge': { type: 'string' },
        // With --record-bridge: only the frames of calls and their replies, not the pushes (the
        // order-path bench, whose four windows' market data would make the file gigabytes).
        'record-calls-only': { type: 'boolean', default: false },
        // The soak's diagnostic: a line of heap, handle and listener counts every N ms (main/host/resource-report.ts).
        'report-resources-ms': { type: 'string' },
      },
      strict: true,
    });
    const port = Number(values.port);
    if (!/^\d{1,5}$/.test(values.port) || port > 65535) usage(`--port: expected 0-65535, got ${JSON.stringify(values.port)}`);
    const seed = values['sandbox-seed'];
    if (seed !== undefined && !/^\d{1,15}$/.test(seed)) usage(`--sandbox-seed: expected a non-negative integer, got ${JSON.stringify(seed)}`);
    if (values.offline && seed !== undefined) usage('--sandbox-seed: there is no sandbox in offline mode (--offline)');
    const maker: string[] = [];
    for (const [flag, sandboxFlag] of [['sandbox-maker-profile', '--maker-profile'], ['sandbox-maker-regime', '--maker-regime']] as const) {
      const name = values[flag];
      if (name === undefined) continue;
      if (!/^[a-z][a-z-]{0,39}$/.test(name)) usage(`--${flag}: expected a lower-case name such as realistic, got ${JSON.stringify(name)}`);
      if (values.offline) usage(`--${flag}: there is no sandbox in offline mode (--offline)`);
      maker.push(sandboxFlag, name);
    }
    const makerRate = values['sandbox-maker-rate'];
    if (makerRate !== undefined) {
      if (!/^\d{1,3}$/.test(makerRate)) usage(`--sandbox-maker-rate: expected takes per second per market, 0-999, got ${JSON.stringify(makerRate)}`);
      if (values.offline) usage('--sandbox-maker-rate: there is no sandbox in offline mode (--offline)');
      maker.push('--maker-rate', makerRate);
    }
    const exchangeUrl = values['exchange-url'];
    if (exchangeUrl !== undefined && !/^https?:\/\/[^\s/]+(:\d{1,5})?\/?$/.test(exchangeUrl)) usage(`--exchange-url: expected http(s)://host[:port], got ${JSON.stringify(exchangeUrl)}`);
    if (values.offline && (exchangeUrl !== undefined || values['sandbox-control'])) usage('--exchange-url and --sandbox-control: there is no network in offline mode (--offline)');
    const reportResources = values['report-resources-ms'];
    if (reportResources !== undefined && (!/^\d{3,7}$/.test(reportResources) || Number(reportResources) < 100)) usage(`--report-resources-ms: expected milliseconds, at least 100, got ${JSON.stringify(reportResources)}`);
    const displays = parseDisplaysFlag(values.displays);
    if (!displays.ok) usage(displays.message);
    const dataHome = process.env.XDG_DATA_HOME ?? join(process.env.HOME ?? '.', '.local/share');
    return {
      port,
      dataDir: resolve(values['data-dir'] ?? join(dataHome, 'ledger-terminal')),
      rendererDir: resolve(values['renderer-dir']),
      sandboxSeed: seed,
      offline: values.offline,
      displays: displays.value,
      sandboxControl: values['sandbox-control'],
      sandboxMaker: maker,
      exchangeUrl: exchangeUrl?.replace(/\/$/, ''),
      recordBridge: values['record-bridge'] === undefined ? undefined : resolve(values['record-bridge']),
      recordCallsOnly: values['record-calls-only'],
      reportResourcesMs: reportResources === undefined ? undefined : Number(reportResources),
    };
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
}

const flags = parseFlags();

/**
 * Appends each bridge frame as one line `<in|out> <epoch ms, µs precision> <frame text>` (the security
 * test scans the frames; the order-path bench reads the times), and each signed order's timings in
 * main as `path <span as JSON>` (main/services/trading/order-path-span.ts; the bench's floor per
 * order). Lines are stamped at once and written in batches (every 50 ms and at exit), so recording
 * puts no disk write on the event loop per frame.
 */
function bridgeRecorder(path: string, callsOnly: boolean): { frame(direction: 'in' | 'out', text: string): void; span(span: OrderPathSpan): void } {
  const fd = openSync(path, 'a', 0o600);
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const lines = pending.join('');
    pending = [];
    writeSync(fd, lines);
  };
  setInterval(flush, 50).unref();
  process.on('exit', flush);
  return {
    frame: (direction, text) => {
      if (callsOnly && text.startsWith('{"t":"push"')) return;
      pending.push(`${direction} ${(performance.timeOrigin + performance.now()).toFixed(3)} ${text}\n`);
    },
    span: (span) => {
      pending.push(`path ${JSON.stringify(span)}\n`);
    },
  };
}
const recorder = flags.recordBridge === undefined ? null : bridgeRecorder(flags.recordBridge, flags.recordCallsOnly);
mkdirSync(flags.dataDir, { recursive: true, mode: 0o700 });

const log = terminalLog((text) => process.stderr.write(text));
const random = (length: number) => new Uint8Array(randomBytes(length));
const version = process.env.npm_package_version ?? '0.0.0';

interface Composition {
  readonly handlers: Handlers;
  readonly windows: WindowHub;
  /** The windows and layouts of the online terminal; none offline. */
  readonly desk: Desk | null;
  stop(): Promise<void>;
}

async function offlineComposition(): Promise<Composition> {
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']) Reflect.deleteProperty(globalThis, name);
  const { createOfflineTerminal } = await import('../services/custody/offline-terminal');
  const terminal = createOfflineTerminal({ clock: systemClock, random, host: 'browser', version, dataDir: flags.dataDir, log });
  return { handlers: terminal.handlers, windows: terminal.windows, desk: null, stop: () => Promise.resolve() };
}

async function onlineComposition(): Promise<Composition> {
  const [{ createTerminal }, { openOsKeychain }, { nodeSandboxSpawner }, { chooseDigestSigner }, { HostCodeConfirmer }] = await Promise.all([
    import('../services/terminal'),
    import('../platform/keychain'),
    import('../services/network/sandbox-process-node'),
    import('../platform/native-secp256k1'),
    import('../services/confirm/host-code-confirmer'),
  ]);
  const terminal = createTerminal({
    clock: systemClock,
    host: 'browser',
    version,
    dataDir: flags.dataDir,
    openKeychain: () => openOsKeychain({ service: 'ledger-terminal' }),
    random,
    signer: chooseDigestSigner(),
    spawnSandbox: nodeSandboxSpawner(sandboxEntry),
    // Withdrawals, new allow-list addresses, loosened safety settings and network addresses are
    // confirmed with a one-time code printed here, on the host's own terminal (stderr), which no
    // page can read; the trader types it into the app.
    confirmer: new HostCodeConfirmer({ clock: systemClock, random, write: (text) => process.stderr.write(text) }),
    sandboxArgs: [...(flags.sandboxSeed !== undefined ? ['--seed', flags.sandboxSeed] : []), ...(flags.sandboxControl ? ['--control'] : []), ...flags.sandboxMaker],
    ...(flags.exchangeUrl === undefined
      ? {}
      : {
          networkOverride: {
            id: 'external',
            name: 'External exchange',
            kind: 'devnet' as const,
            restUrl: flags.exchangeUrl,
            wsUrl: null,
            faucetUrl: flags.exchangeUrl,
            faucetNetwork: 'sandbox',
            production: false,
          },
        }),
    ...(recorder === null ? {} : { orderPathTrace: recorder.span }),
    log,
  });
  const started = await terminal.start();
  if (!started.ok) {
    log(`could not start: ${started.message}`);
    process.exit(1);
  }
  return { handlers: terminal.handlers, windows: terminal.windows, desk: terminal.desk, stop: () => terminal.stop() };
}

const composition = await (flags.offline ? offlineComposition() : onlineComposition()).catch((error: unknown) => {
  // Another terminal holds the data directory: say who, and do not start (test/support reads stderr).
  if (error instanceof Error && (error as { code?: unknown }).code === 'DATA_DIR_LOCKED') {
    log(`could not start: ${error.message}`);
    process.exit(1);
  }
  throw error;
});

const host = await startBrowserHost({
  createDispatch: (origin) =>
    createDispatcher(composition.handlers, {
      allowedOrigins: [origin],
      onBug: (error, channel) => log(`bug in ${channel}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    }),
  windows: composition.windows,
  rendererDir: flags.rendererDir,
  port: flags.port,
  onPage: (pageId, windowKey) => composition.desk?.bindPage(pageId, windowKey),
  ...(recorder === null ? {} : { record: recorder.frame }),
  log,
});

// The desk (absent offline): tabs for panel windows and simulated displays, then the last session's arrangement.
const desk = composition.desk;
const deskPlatform = desk
  ? new BrowserDeskPlatform({ pageUrl: (windowKey) => `${host.url}&window=${windowKey}`, displays: flags.displays, clock: systemClock, onGone: (windowKey) => desk.pageGoneFor(windowKey) })
  : null;
if (desk && deskPlatform) {
  desk.attachPlatform(deskPlatform);
  desk.restore();
}

// test/support/browser-host.ts reads this exact line.
process.stdout.write(`terminal ready at ${host.url}\n`);
if (flags.reportResourcesMs !== undefined) {
  const { startResourceReport } = await import('./resource-report');
  startResourceReport(flags.reportResourcesMs, (line) => process.stdout.write(line));
}

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  // Tabs closing because the host stops stay in the remembered arrangement.
  desk?.freeze();
  deskPlatform?.close();
  await host.close();
  await composition.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
