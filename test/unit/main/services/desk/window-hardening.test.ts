// Every window the desk opens is built like the main window: one place constructs BrowserWindows,
// always with the hardened preferences, and the app's pages still open no windows in Electron (the
// desk asks main, which opens them). Read from the source, as Electron cannot start here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secureWebPreferences } from '../../../../../main/platform/security';

const root = join(import.meta.dirname, '../../../../..');

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('desk windows keep the Electron hardening', () => {
  it('constructs BrowserWindows in main/platform/windows.ts only, from secureWebPreferences', () => {
    const constructing = sources(join(root, 'main')).filter((file) => /new BrowserWindow\(/.test(readFileSync(file, 'utf8')));
    expect(constructing.map((file) => relative(root, file))).toEqual(['main/platform/windows.ts']);
    const source = readFileSync(join(root, 'main/platform/windows.ts'), 'utf8');
    expect(source.match(/new BrowserWindow\(/g)).toHaveLength(1);
    expect(source).toMatch(/webPreferences: secureWebPreferences\(factory\.preload, \{ packaged: app\.isPackaged \}\)/);
  });

  it('opens panel windows through that factory', () => {
    const source = readFileSync(join(root, 'main/platform/desk-windows.ts'), 'utf8');
    expect(source).toMatch(/openAppWindow\(this\.factory/);
    expect(source).not.toMatch(/webPreferences/);
  });

  it('leaves window.open denied in Electron: the renderer opens a URL only when main answers one', () => {
    const hardening = readFileSync(join(root, 'main/platform/hardening.ts'), 'utf8');
    expect(hardening).toMatch(/setWindowOpenHandler\([\s\S]*action: 'deny'/);
    const platform = readFileSync(join(root, 'main/platform/desk-windows.ts'), 'utf8');
    expect(platform).toMatch(/ok\(\{ url: null \}\)/);
    const store = readFileSync(join(root, 'renderer/src/features/desk/desk-store.ts'), 'utf8');
    expect(store).toMatch(/if \(!isOwnPage\(url, origin\)\) return false;/);
  });

  it('the preferences are the checklist', () => {
    expect(secureWebPreferences('/p.cjs', { packaged: true })).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false, webSecurity: true, devTools: false });
  });
});
