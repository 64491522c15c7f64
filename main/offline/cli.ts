// The offline signer for a bare air-gapped machine: `npx tsx main/offline/cli.ts COMMAND ...`
// (`npm run offline-signer -- COMMAND ...` once the script is added). See docs/offline-signing.md.
//
// NO NETWORK, BY CONSTRUCTION. This file and everything it imports (main/offline, shared/,
// qrcode, zod, @noble) use no network module: no http, https, http2, net, tls, dgram, dns, ws,
// undici or child_process, and no fetch/WebSocket. test/unit/main/offline/no-network.test.ts walks
// the whole import graph, into node_modules, and fails if one appears. As a second line, the
// networking globals Node provides are deleted before any command runs, so a later edit that
// reaches for them fails loudly here instead of quietly connecting from the machine holding the key.
import { randomBytes } from 'node:crypto';
import { fail, ok, type Result } from '../../shared/result';
import { runCli } from './commands';
import { currentOwnership } from './file-permissions';
import { openTerminal } from './terminal';

for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'Request', 'Response', 'Headers']) {
  Reflect.deleteProperty(globalThis, name);
}

function readStdin(limit: number): Promise<Result<Buffer>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const settle = (result: Result<Buffer>) => {
      if (settled) return;
      settled = true;
      for (const chunk of chunks) chunk.fill(0);
      resolve(result);
    };
    process.stdin.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        chunk.fill(0);
        process.stdin.pause();
        settle(fail('STDIN_TOO_LARGE', `stdin: more than ${limit} bytes; expected one private key`));
        return;
      }
      chunks.push(chunk);
    });
    process.stdin.on('end', () => settle(ok(Buffer.concat(chunks))));
    process.stdin.on('error', (error) => settle(fail('STDIN', `stdin: ${error.message}`)));
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  nowSeconds: () => BigInt(Math.floor(Date.now() / 1000)),
  random: (length) => new Uint8Array(randomBytes(length)),
  stdinIsTerminal: process.stdin.isTTY === true,
  readStdin,
  openTerminal,
  ownership: currentOwnership(),
});
process.exitCode = code;
