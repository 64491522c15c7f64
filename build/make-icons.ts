// Generates the app icons committed under build/: `npx tsx build/make-icons.ts`.
//   build/icons/512x512.png, build/icons/256x256.png  Linux (the directory) and macOS (the 512 PNG;
//                                                     electron-builder converts it to .icns)
//   build/icon.ico                                    Windows: 256, 48, 32 and 16 px PNG entries
// test/unit/build checks the committed files decode to exactly what drawIcon() draws.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawIcon } from './icon-art';
import { encodeIco } from './ico';
import { encodePng } from './png';

export const BUILD_DIRECTORY = dirname(fileURLToPath(import.meta.url));
export const PNG_ICON_SIZES = [512, 256] as const;
export const ICO_SIZES = [256, 48, 32, 16] as const;

export function pngIconPath(size: number): string {
  return join(BUILD_DIRECTORY, 'icons', `${size}x${size}.png`);
}

export const ICO_PATH = join(BUILD_DIRECTORY, 'icon.ico');

/** Every icon file and its bytes. */
export function iconFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const size of PNG_ICON_SIZES) files.set(pngIconPath(size), encodePng(drawIcon(size)));
  files.set(ICO_PATH, encodeIco(ICO_SIZES.map((size) => encodePng(drawIcon(size)))));
  return files;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [path, bytes] of iconFiles()) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    process.stdout.write(`${path} (${bytes.length} bytes)\n`);
  }
}
