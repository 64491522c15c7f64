// `npm run web`: build the app if its sources changed (scripts/build-stamp.mjs) and start the
// browser host from the build (real main services, real sandbox). Flags after `--` go to the host:
// --port, --data-dir, --sandbox-seed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt } from './build-stamp.mjs';
import { ensureNodeModules, npmEnv, root } from './setup.mjs';

/**
 * Node 22.14+ and 23.7+ can refuse SIGUSR1's inspector outright (`--disable-sigusr1`); older ones
 * rely on the host's own SIGUSR1 listener (main/host/debugger-guard.ts), which is there on every version.
 */
function sigusr1Off() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major >= 24 || (major === 23 && minor >= 7) || (major === 22 && minor >= 14) ? ['--disable-sigusr1'] : [];
}

export function startBrowserHost(args) {
  ensureNodeModules();
  if (!ensureBuilt()) {
    console.error('Building the app failed; see the output above.');
    process.exit(1);
  }
  const child = spawn(process.execPath, [...sigusr1Off(), join(root, 'out/main/host.js'), ...args], { cwd: root, stdio: 'inherit', env: npmEnv });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (import.meta.url === `file://${process.argv[1]}`) startBrowserHost(process.argv.slice(2));
