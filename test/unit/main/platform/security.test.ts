// The Electron security checklist as configuration tests (Electron cannot start here: the settings
// are data in main/platform/security.ts, and the wiring is read from the source).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, contentSecurityPolicy, decidePermission, isAppUrl, secureWebPreferences } from '../../../../main/platform/security';

const root = join(import.meta.dirname, '../../../..');
const source = (path: string) => readFileSync(join(root, path), 'utf8');

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...values]) => [name!, values]));
}

describe('Electron security checklist', () => {
  it('every window: context isolation, sandbox, no node integration anywhere, no webview, web security on', () => {
    expect(secureWebPreferences('/preload.cjs')).toEqual({
      preload: '/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    });
  });

  it('a strict content security policy: own scripts only, no eval, no plugins, no framing, network to self', () => {
    const policy = directives(contentSecurityPolicy());
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-eval|\*|https?:/);
    // The browser host adds only its own loopback bridge.
    expect(directives(contentSecurityPolicy(['ws://127.0.0.1:4000'])).get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:4000']);
    // The page carries the same policy in a meta tag (a second line where headers are lost).
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(source('renderer/index.html'))?.[1] ?? '';
    expect(directives(meta).get('script-src')).toEqual(["'self'"]);
    expect(meta).not.toMatch(/unsafe-eval/);
  });

  it('every permission request is denied', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'midi', 'clipboard-read', 'openExternal', 'fullscreen', 'hid', 'serial', 'usb', 'unknown-future-permission']) {
      expect(decidePermission(permission)).toBe(false);
    }
    const hardening = source('main/platform/hardening.ts');
    expect(hardening).toMatch(/setPermissionRequestHandler\(\(_contents, permission, callback\) => callback\(decidePermission\(permission\)\)\)/);
    expect(hardening).toMatch(/setPermissionCheckHandler/);
    expect(hardening).toMatch(/setDevicePermissionHandler\(\(\) => false\)/);
    expect(hardening).toMatch(/app\.on\('session-created', denyAll\)/);
  });

  it('navigation leaves the app nowhere; new windows and webviews are refused', () => {
    expect(isAppUrl(`${APP_ORIGIN}/index.html`, [APP_ORIGIN])).toBe(true);
    for (const url of ['https://evil.example/', 'app://terminal.evil/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'http://127.0.0.1:1/', 'not a url']) {
      expect(isAppUrl(url, [APP_ORIGIN])).toBe(false);
    }
    const hardening = source('main/platform/hardening.ts');
    expect(hardening).toMatch(/on\('will-navigate'[\s\S]*?preventDefault/);
    expect(hardening).toMatch(/on\('will-redirect'[\s\S]*?preventDefault/);
    expect(hardening).toMatch(/on\('will-attach-webview', \(event\) => event\.preventDefault\(\)\)/);
    expect(hardening).toMatch(/setWindowOpenHandler\([\s\S]*?return \{ action: 'deny' \}/);
    expect(hardening).not.toMatch(/openExternal/);
  });

  it('IPC: the sender frame is checked for every request, and only a top frame may call', () => {
    const binding = source('main/ipc/electron-binding.ts');
    expect(binding).toMatch(/frameUrl: event\.senderFrame && event\.senderFrame\.parent === null \? event\.senderFrame\.url : null/);
    expect(binding).toMatch(/for \(const name of requestNames\)/);
    const dispatcher = source('main/ipc/dispatcher.ts');
    expect(dispatcher).toMatch(/FORBIDDEN_SENDER/);
  });

  it('the preload exposes only the bridge, never ipcRenderer', () => {
    const preload = source('preload/index.ts');
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toMatch(/exposeInMainWorld\('terminal', createBridge\(transport\)\)/);
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
  });

  it('one instance at a time, and the app page served from its own scheme with the policy', () => {
    expect(source('main/index.ts')).toMatch(/requestSingleInstanceLock\(\)/);
    expect(source('main/platform/app-protocol.ts')).toMatch(/headers\.set\('content-security-policy', contentSecurityPolicy\(\)\)/);
  });
});
