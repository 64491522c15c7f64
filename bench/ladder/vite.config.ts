// Builds the renderer's measurement and preview pages (renderer/bench, renderer/dev) into
// out/bench: the same Solid compiler and CSS as the app, pages that the app's bundle never includes.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';

const root = resolve(import.meta.dirname, '../..');
const pages: Record<string, string> = { ladder: resolve(root, 'renderer/bench/ladder.html') };
const preview = resolve(root, 'renderer/dev/preview.html');
if (existsSync(preview)) pages.preview = preview;

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
