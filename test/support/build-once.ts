// Vitest global setup of the e2e project: the browser host runs from the build, so build it when
// its sources changed since the last build (scripts/build-stamp.mjs, the same check `npm start`
// makes); an unchanged tree starts at once.
import { ensureBuilt } from '../../scripts/build-stamp.mjs';

export default function setup(): void {
  // Set when the caller already built (npm test builds once for every suite that needs it).
  if (process.env.LT_SKIP_BUILD === '1') return;
  if (!ensureBuilt()) throw new Error('electron-vite build failed');
}
