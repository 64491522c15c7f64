// `npm run sandbox -- [flags]`: starts the sandbox and prints exactly one line on stdout when
// it is ready, `sandbox listening on http://127.0.0.1:PORT`, which a parent process reads.
// Exits 2 on a bad flag; exits 0 on SIGTERM, SIGINT or when the parent's IPC channel closes
// (the app forks it with child_process.fork or Electron's utilityProcess.fork).
import { parseFlags, USAGE } from './options';
import { startSandbox } from './server';

async function main(): Promise<void> {
  const parsed = parseFlags(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`sandbox: ${parsed.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const sandbox = await startSandbox(parsed.value);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 2000);
    force.unref();
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // A forked child: the parent going away closes the IPC channel.
  if (process.send) process.on('disconnect', stop);
  // Electron's utilityProcess gives the child a parentPort instead of an IPC channel.
  const parentPort = (process as unknown as { parentPort?: { on(event: string, listener: () => void): void } }).parentPort;
  parentPort?.on('close', stop);
  process.stdout.write(`sandbox listening on ${sandbox.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
