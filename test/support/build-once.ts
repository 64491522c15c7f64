// Vitest global setup of the e2e project: the browser host serves the built renderer.
import { spawnSync } from 'node:child_process';

export default function setup(): void {
  const result = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (result.status !== 0) throw new Error('electron-vite build failed');
}
