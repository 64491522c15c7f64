// A test build of the browser host with a mainnet pinned at build time, through the same
// `define` the release build uses (build/pinned-networks.ts), so a test can run the bundle that a
// pin produces instead of the sources (where mainnet is never pinned). Only the host's main side
// is bundled (a second or two); the page is the renderer the e2e project's global setup built.
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { pinnedNetworksDefine } from '../../build/pinned-networks';

const root = resolve(import.meta.dirname, '../..');

export interface PinnedBuild {
  /** The bundled host, for `startHost({ entry })`. */
  readonly entry: string;
  remove(): void;
}

/**
 * Bundles main/host/cli.ts with `env` as the build variables (LT_MAINNET_*, LT_TEST_BUILD). The
 * bundle lies two folders under the project's root, as main/host/cli.ts does, so it finds the
 * sandbox's sources and the built renderer where the sources would; the dependencies stay
 * external and resolve from the project's node_modules.
 */
export async function buildPinnedHost(env: Readonly<Record<string, string>>): Promise<PinnedBuild> {
  const outDir = join(root, 'out-test', `pinned-host-${process.pid}-${Date.now()}`);
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    define: pinnedNetworksDefine(env, root),
    build: { ssr: join(root, 'main/host/cli.ts'), outDir, emptyOutDir: true, target: 'node20', minify: false, sourcemap: false },
  });
  const parent = join(root, 'out-test');
  return {
    entry: join(outDir, 'cli.js'),
    remove: () => {
      rmSync(outDir, { recursive: true, force: true });
      // The shared parent goes with the last build in it (another run's build may still be there).
      if (readdirSync(parent).length === 0) rmSync(parent, { recursive: true, force: true });
    },
  };
}
