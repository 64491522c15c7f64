// `npm run web`: the terminal's main services with the renderer served to a browser. Used where
// no Electron runtime is available and by the end-to-end tests.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { openOsKeychain } from '../platform/keychain';
import { createDispatcher } from '../ipc/dispatcher';
import { nodeSandboxSpawner } from '../services/sandbox-process-node';
import { systemClock } from '../services/system-clock';
import { createTerminal } from '../services/terminal';
import { startBrowserHost } from './browser-host';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run web -- [--port N] [--data-dir DIR] [--renderer-dir DIR] [--sandbox-seed N]\n`);
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
      },
      strict: true,
    });
    const port = Number(values.port);
    if (!/^\d{1,5}$/.test(values.port) || port > 65535) usage(`--port: expected 0-65535, got ${JSON.stringify(values.port)}`);
    const seed = values['sandbox-seed'];
    if (seed !== undefined && !/^\d{1,15}$/.test(seed)) usage(`--sandbox-seed: expected a non-negative integer, got ${JSON.stringify(seed)}`);
    const dataHome = process.env.XDG_DATA_HOME ?? join(process.env.HOME ?? '.', '.local/share');
    return {
      port,
      dataDir: resolve(values['data-dir'] ?? join(dataHome, 'ledger-terminal')),
      rendererDir: resolve(values['renderer-dir']),
      sandboxSeed: seed,
    };
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
}

const flags = parseFlags();
mkdirSync(flags.dataDir, { recursive: true, mode: 0o700 });

const log = (line: string) => process.stderr.write(`${line}\n`);
const terminal = createTerminal({
  clock: systemClock,
  host: 'browser',
  version: process.env.npm_package_version ?? '0.0.0',
  dataDir: flags.dataDir,
  openKeychain: () => openOsKeychain({ service: 'ledger-terminal' }),
  random: (length) => new Uint8Array(randomBytes(length)),
  spawnSandbox: nodeSandboxSpawner({ modulePath: join(projectRoot, 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] }),
  sandboxArgs: flags.sandboxSeed !== undefined ? ['--seed', flags.sandboxSeed] : [],
  log,
});

const started = await terminal.start();
if (!started.ok) {
  log(`could not start: ${started.message}`);
  process.exit(1);
}

const host = await startBrowserHost({
  createDispatch: (origin) =>
    createDispatcher(terminal.handlers, {
      allowedOrigins: [origin],
      onBug: (error, channel) => log(`bug in ${channel}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    }),
  windows: terminal.windows,
  rendererDir: flags.rendererDir,
  port: flags.port,
  log,
});

process.stdout.write(`terminal ready at ${host.url}\n`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await host.close();
  await terminal.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
