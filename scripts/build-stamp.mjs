// Build the app (electron-vite) only when its sources changed since the last build, and never run
// a stale one. The stamp is a SHA-256 over the path and content of every file the build reads
// (sources of main, preload, renderer, shared and sandbox, the build configuration, the reviewed
// network pins and the build variables that pin mainnet, and the lockfile); it is written after a
// build succeeds and removed before one starts, so an interrupted build is never taken for a good one. Content, not modification times: a checkout, a copy or a
// clock change cannot make an old build look current.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root, run } from './setup.mjs';

const SOURCE_DIRECTORIES = ['main', 'preload', 'renderer', 'shared', 'sandbox', 'types', 'build'];
/** The build variables electron-vite's define writes into main (build/pinned-networks.ts): a build with another pin is another build. */
const BUILD_VARIABLES = ['LT_MAINNET_REST_URL', 'LT_MAINNET_WS_URL', 'LT_MAINNET_CHAIN_ID', 'LT_TEST_BUILD', 'LT_NETWORKS_FILE'];
const SOURCE_FILES = ['electron.vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.node.json', 'tsconfig.preload.json', 'tsconfig.web.json', 'tsconfig.shared.json'];
/** What a build produces and a start needs; a stamp without them is not a build. */
const OUTPUTS = ['out/main/index.js', 'out/main/host.js', 'out/main/sandbox.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
const STAMP = join(root, 'out', '.build-stamp');

function filesUnder(directory) {
  const found = [];
  if (!existsSync(directory)) return found;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** The hash of every input of the build, as it is on disk now. */
export function sourceHash() {
  const files = [...SOURCE_DIRECTORIES.flatMap((directory) => filesUnder(join(root, directory))), ...SOURCE_FILES.map((file) => join(root, file)).filter((file) => existsSync(file))]
    .map((file) => relative(root, file))
    .sort();
  const hash = createHash('sha256');
  for (const name of BUILD_VARIABLES) hash.update(`${name}=${process.env[name] ?? ''}\0`);
  const networksFile = process.env.LT_NETWORKS_FILE ?? '';
  if (networksFile !== '' && existsSync(networksFile)) hash.update(readFileSync(networksFile));
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether out/ holds a complete build of exactly these sources. */
export function buildIsCurrent(hash = sourceHash()) {
  if (!existsSync(STAMP) || OUTPUTS.some((output) => !existsSync(join(root, output)))) return false;
  return readFileSync(STAMP, 'utf8').trim() === hash;
}

/**
 * Build unless out/ is a build of the current sources. Returns false when a build was needed and
 * failed. LT_FORCE_BUILD=1 builds regardless.
 */
export function ensureBuilt({ log = (line) => console.log(line) } = {}) {
  let hash = sourceHash();
  if (process.env.LT_FORCE_BUILD !== '1' && buildIsCurrent(hash)) {
    log('The build in out/ is of the current sources: not rebuilding.');
    return true;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    rmSync(STAMP, { force: true });
    log('Building the app (its sources changed since the last build) …');
    if (run('npx', ['electron-vite', 'build', '--logLevel', 'warn']) !== 0) return false;
    const after = sourceHash();
    if (after === hash) {
      writeFileSync(STAMP, `${hash}\n`);
      return true;
    }
    // Sources edited while the build ran: the build is of neither version; build again.
    hash = after;
  }
  log('The sources kept changing during three builds: stopping rather than running a build of unknown sources.');
  return false;
}
