// Packaging cannot run here (electron-builder downloads the Electron binary), so the configuration
// is the check: loaded by electron-builder's own loader and validated against its schema; every
// fuse and target; icons that are real PNGs of the stated sizes, drawn by build/make-icons.ts; and
// electron-builder's own file matcher applied to the repository, so that sources, tests and any
// keystore or secret are never packaged.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import type { Configuration } from 'app-builder-lib';
import { describe, expect, it } from 'vitest';
import config, { SECRET_EXCLUSIONS } from '../../../build/electron-builder.config';
import { decodeIco } from '../../../build/ico';
import { drawIcon } from '../../../build/icon-art';
import { ICO_PATH, ICO_SIZES, PNG_ICON_SIZES, pngIconPath } from '../../../build/make-icons';
import { crc32, decodePng, encodePng } from '../../../build/png';

const root = resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);

interface BuilderConfigModule {
  getConfig(projectDir: string, configPath: string, configFromOptions: null): Promise<Configuration>;
  validateConfiguration(config: Configuration, debugLogger: { isEnabled: boolean; add(key: string, value: unknown): void }): Promise<void>;
}
interface FileMatcherModule {
  FileMatcher: new (from: string, to: string, macroExpander: (text: string) => string, patterns: readonly string[]) => {
    createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean;
  };
}

const builderConfig = require('app-builder-lib/out/util/config/config.js') as BuilderConfigModule;
const { FileMatcher } = require('app-builder-lib/out/fileMatcher.js') as FileMatcherModule;

describe('electron-builder configuration', () => {
  it('loads through electron-builder itself and passes its schema', async () => {
    const loaded = await builderConfig.getConfig(root, 'build/electron-builder.config.ts', null);
    expect(loaded.appId).toBe(config.appId);
    expect(loaded.electronFuses).toEqual(config.electronFuses);
    await expect(builderConfig.validateConfiguration(loaded, { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
  });

  it('sets every fuse', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('names the app and its targets: AppImage and deb, dmg with hardened runtime, nsis; asar on', () => {
    expect(config.appId).toBe('io.ledgerterminal.app');
    expect(config.productName).toBe('Ledger Terminal');
    expect(config.asar).toBe(true);
    expect(config.publish).toBeNull();
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('the macOS entitlements file exists, allows JIT and nothing that would let code be injected', () => {
    for (const path of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
      expect(path).toBe('build/entitlements.mac.plist');
      const plist = readFileSync(join(root, path!), 'utf8');
      expect(plist).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
      const keys = [...plist.replace(/<!--[\s\S]*?-->/g, '').matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
      expect(keys).toEqual(['com.apple.security.cs.allow-jit']);
    }
  });
});

describe('icons', () => {
  it('the CRC of the PNG writer agrees with zlib', () => {
    const bytes = Buffer.from('IHDR and some bytes');
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });

  it('the configured icons exist and are valid PNGs of the stated sizes', () => {
    expect(config.linux?.icon).toBe('build/icons');
    expect(config.mac?.icon).toBe('build/icons/512x512.png');
    expect(config.win?.icon).toBe('build/icon.ico');
    for (const size of PNG_ICON_SIZES) {
      const image = decodePng(readFileSync(pngIconPath(size)));
      expect([image.width, image.height]).toEqual([size, size]);
      // Transparent outside the rounded tile, opaque inside.
      expect(image.rgba[3]).toBe(0);
      expect(image.rgba[((size / 2) * size + size / 2) * 4 + 3]).toBe(255);
    }
    const entries = decodeIco(readFileSync(join(root, config.win!.icon!)));
    expect(entries.map((entry) => entry.width)).toEqual([...ICO_SIZES]);
    for (const entry of entries) {
      const image = decodePng(entry.png);
      expect([image.width, image.height]).toEqual([entry.width, entry.height]);
    }
  });

  it('the committed icons are what build/make-icons.ts draws', () => {
    const drawn = drawIcon(256);
    expect(decodePng(readFileSync(pngIconPath(256))).rgba).toEqual(drawn.rgba);
    const entries = decodeIco(readFileSync(ICO_PATH));
    expect(decodePng(entries[0]!.png).rgba).toEqual(drawn.rgba);
    for (const entry of entries.slice(1)) expect(decodePng(entry.png).rgba).toEqual(drawIcon(entry.width).rgba);
    // The reader rejects a damaged file.
    const png = encodePng(drawIcon(16));
    png[40] = png[40]! ^ 0xff;
    expect(() => decodePng(png)).toThrow(/CRC mismatch/);
  });
});

describe('what gets packaged', () => {
  const filter = new FileMatcher(root, '/app', (text) => text, config.files as string[]).createFilter();
  const isFile = { isDirectory: () => false };
  const packaged = (relative: string) => filter(join(root, relative), isFile);
  const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

  it('ships the built app and package.json', () => {
    // Including code whose name merely mentions a secret: the exclusions match secret files, not features.
    for (const file of ['out/main/index.js', 'out/main/sandbox.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-abc.js', 'out/renderer/assets/passphrase-dialog-abc.js', 'out/main/chunks/keystore-abc.js', 'package.json']) {
      expect(packaged(file), file).toBe(true);
    }
  });

  it('never ships sources, tests, docs, build scripts or source maps', () => {
    const sourceFolders = ['shared/', 'main/', 'preload/', 'renderer/', 'sandbox/', 'test/', 'bench/', 'scripts/', 'docs/', 'build/'];
    const sources = tracked.filter((file) => sourceFolders.some((folder) => file.startsWith(folder)));
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter(packaged)).toEqual([]);
    for (const file of ['tsconfig.json', 'eslint.config.js', 'electron.vite.config.ts', 'vitest.config.ts', 'README.md', 'out/main/index.js.map']) expect(packaged(file), file).toBe(false);
    // No pattern names a source folder.
    expect((config.files as string[]).filter((pattern) => !pattern.startsWith('!'))).toEqual(['out/**/*', 'package.json']);
  });

  it('never ships a keystore or other secret, even one left inside out/', () => {
    for (const file of [
      'out/owner.keystore.json',
      'out/main/keystore.json',
      'out/main/keystore-backup.json',
      'out/main/owner.keystore',
      'out/passphrase.txt',
      'out/main/owner-passphrase.txt',
      'out/main/owner.passphrase',
      'out/main/.env',
      'out/.env.local',
      'out/main/signing.pem',
      'out/main/private.key',
      'out/cert.p12',
      'out/cert.pfx',
    ]) {
      expect(packaged(file), file).toBe(false);
    }
    expect(SECRET_EXCLUSIONS.every((pattern) => (config.files as string[]).includes(pattern))).toBe(true);
    // The offline signer's keystore is not among the tracked files either.
    expect(tracked.filter((file) => /keystore.*\.json$|\.keystore$/.test(file))).toEqual([]);
    expect(existsSync(join(root, 'build/icons/512x512.png'))).toBe(true);
  });
});
