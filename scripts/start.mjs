// `npm start`: the desktop app against the embedded sandbox. Where no Electron runtime exists on
// this machine, say so and start the browser host instead, which prints the URL to open.
import { spawn } from 'node:child_process';
import { ensureBuilt } from './build-stamp.mjs';
import { electronRuntime, ensureNodeModules, npmEnv, root } from './setup.mjs';
import { startBrowserHost } from './web.mjs';

ensureNodeModules();
const runtime = electronRuntime();
if (runtime.path === null) {
  console.log(`No Electron runtime on this machine: ${runtime.reason}.`);
  console.log('Starting the browser host instead: the same app (main services, embedded sandbox, renderer) in your browser.');
  startBrowserHost(process.argv.slice(2));
} else {
  if (!ensureBuilt()) process.exit(1);
  const child = spawn(runtime.path, ['.'], { cwd: root, stdio: 'inherit', env: npmEnv });
  child.on('exit', (code) => process.exit(code ?? 0));
}
