// Set-up shared by `npm start`, `npm run web` and `npm test`: install the npm packages when they
// are missing, and the system packages the tests need (with apt when run as root).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Environment for every npm call: the Electron binary cannot be downloaded on every machine. */
export const npmEnv = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: npmEnv, ...options });
  return result.status ?? 1;
}

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export function ensureNodeVersion() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Node ${process.versions.node} is too old: install Node 20.19 or newer (https://nodejs.org), then run this again.`);
    process.exit(1);
  }
}

/** `npm ci` when node_modules is missing or older than the lockfile. */
export function ensureNodeModules() {
  ensureNodeVersion();
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing npm packages (npm ci)…');
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) {
    console.error('npm ci failed; see the output above.');
    process.exit(1);
  }
}

/** Debian packages the tests need, keyed by the command that proves each is there. */
const testPackages = [
  { command: 'chromium', package: 'chromium' },
  { command: 'gnome-keyring-daemon', package: 'gnome-keyring' },
  { command: 'dbus-run-session', package: 'dbus' },
  { command: 'dbus-launch', package: 'dbus-x11' },
  { command: 'xvfb-run', package: 'xvfb' },
];

export function ensureTestPackages() {
  const missing = testPackages.filter((entry) => !has(entry.command)).map((entry) => entry.package);
  if (missing.length === 0) return;
  const install = `apt-get install -y ${missing.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !has('apt-get')) {
    console.error(`The tests need system packages that are missing: ${missing.join(', ')}.\nInstall them with:\n  sudo apt-get update && sudo ${install}`);
    process.exit(1);
  }
  console.log(`Installing system packages: ${missing.join(', ')}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update', '-qq'], { env }) !== 0 || run('apt-get', ['install', '-y', '-qq', ...missing], { env }) !== 0) {
    console.error(`Installing system packages failed. Run by hand:\n  apt-get update && ${install}`);
    process.exit(1);
  }
}

/** The Electron binary, or null with the reason it is not usable here. */
export function electronRuntime() {
  try {
    if (!existsSync(join(root, 'node_modules', 'electron', 'package.json'))) {
      return { path: null, reason: `Electron is not installed: it is an optional dependency that npm installs only on Node 22.12 or newer (this is Node ${process.versions.node}; see the README, "Node versions")` };
    }
    const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
    if (!existsSync(pathFile)) return { path: null, reason: 'the Electron binary was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD, or no network access to its download host)' };
    const binary = join(root, 'node_modules', 'electron', 'dist', spawnSync('cat', [pathFile]).stdout.toString().trim());
    if (!existsSync(binary)) return { path: null, reason: `the Electron binary is missing at ${binary}` };
    if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
      return { path: null, binary, reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
    }
    return { path: binary, binary, reason: null };
  } catch (error) {
    return { path: null, reason: String(error) };
  }
}
