// Imported first by the browser host's entry (cli.ts), so it runs before anything else of the host
// is loaded: the SIGUSR1 listener, the refusal of inspector flags and of an open inspector, and the
// watchdog (debugger-guard.ts).
import inspector from 'node:inspector';
import { guardAgainstDebugger } from './debugger-guard';

const decision = guardAgainstDebugger({
  execArgv: process.execArgv,
  nodeOptions: process.env.NODE_OPTIONS,
  inspectorUrl: () => inspector.url(),
  onDebugSignal: (listener) => process.on('SIGUSR1', listener),
  every: (milliseconds, check) => setInterval(check, milliseconds).unref(),
  log: (line) => process.stderr.write(`${line}\n`),
  abort: (reason) => {
    process.stderr.write(`${reason}\n`);
    inspector.close();
    process.exit(1);
  },
});

if (decision.refuse) {
  process.stderr.write(`refusing to start: the terminal host holds keys and does not run with a debugger (${decision.found.join(', ')})\n`);
  inspector.close();
  process.exit(1);
}
