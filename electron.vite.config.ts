import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import solid from 'vite-plugin-solid';
import { pinnedNetworksDefine } from './build/pinned-networks';

const root = import.meta.dirname;

// `electron` is an optional dependency that npm installs only on Node >= 22.12 (README "Node
// versions"). electron-vite picks its build targets from the installed Electron's major version;
// where npm skipped it, it learns it from the version package-lock.json pins (same targets).
if (!process.env.ELECTRON_MAJOR_VER && !existsSync(resolve(root, 'node_modules/electron/package.json'))) {
  const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8')) as { packages?: Record<string, { version?: string }> };
  const version = lock.packages?.['node_modules/electron']?.version;
  if (version === undefined) throw new Error('package-lock.json pins no electron version: run npm install');
  process.env.ELECTRON_MAJOR_VER = version.split('.')[0];
}

export default defineConfig({
  main: {
    // Mainnet's endpoints, from the reviewed build/networks.release.json or the build variables
    // LT_MAINNET_* (README "Packaging"); checked here, so a bad pin fails the build. Main's bundle
    // only: the preload and the renderer never see them.
    define: pinnedNetworksDefine(process.env, root),
    build: {
      outDir: resolve(root, 'out/main'),
      rollupOptions: {
        input: {
          index: resolve(root, 'main/index.ts'),
          sandbox: resolve(root, 'sandbox/cli.ts'),
          // The browser host (npm start where no Electron runtime exists, npm run web): run from
          // the build like the app, so a start does not transpile main from TypeScript.
          host: resolve(root, 'main/host/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // A sandboxed preload cannot require modules: bundle everything into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [solid()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rollupOptions: { input: { index: resolve(root, 'renderer/index.html') } },
    },
  },
});
