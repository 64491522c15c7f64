// `npm run web`: build the renderer and start the browser host (real main services, real
// sandbox). Flags after `--` go to the host: --port, --data-dir, --sandbox-seed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureNodeModules, npmEnv, root, run } from './setup.mjs';

export function startBrowserHost(args) {
  ensureNodeModules();
  if (run('npx', ['electron-vite', 'build', '--logLevel', 'warn']) !== 0) {
    console.error('Building the app failed; see the output above.');
    process.exit(1);
  }
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'main/host/cli.ts'), ...args], { cwd: root, stdio: 'inherit', env: npmEnv });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (import.meta.url === `file://${process.argv[1]}`) startBrowserHost(process.argv.slice(2));
