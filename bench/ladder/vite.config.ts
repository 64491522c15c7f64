// Builds the renderer's measurement page (renderer/bench) into out/bench: the same Solid compiler
// and CSS as the app, a page that the app's bundle never includes.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';

const root = resolve(import.meta.dirname, '../..');
const pages: Record<string, string> = { ladder: resolve(root, 'renderer/bench/ladder.html') };

export default defineConfig({
  root: resolve(root, 'renderer'),
  base: './',
  logLevel: 'warn',
  plugins: [solid()],
  build: {
    outDir: resolve(root, 'out/bench'),
    emptyOutDir: true,
    // Readable stacks when a profile of the benchmark is needed; speed is the same.
    minify: false,
    rollupOptions: { input: pages },
  },
});
