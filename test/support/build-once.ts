// Vitest global setup of the e2e project: the browser host serves the built renderer.
import { spawnSync } from 'node:child_process';

export default function setup(): void {
  // Set when the caller already built (npm test builds once for every suite that needs it).
  if (process.env.LT_SKIP_BUILD === '1') return;
  const result = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (result.status !== 0) throw new Error('electron-vite build failed');
}
