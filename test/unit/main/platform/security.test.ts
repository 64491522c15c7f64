// The Electron security checklist, by behaviour: Electron cannot start here, so the `electron`
// module is replaced by fakes (an app and sessions that record the handlers main installs, web
// contents that emit events, a BrowserWindow that records its options, an ipcMain that records its
// handlers), and the handlers main installed are called with events as Electron would call them.
// Each test fails if the behaviour it names is broken (navigation allowed, window.open allowed,
// a permission granted, a subframe let through, DevTools on in a packaged build).
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const fakes = vi.hoisted(() => {
  const state = {
    app: null as unknown as EventEmitter & { isPackaged: boolean },
    defaultSession: null as unknown as FakeSession,
    windows: [] as { options: Record<string, unknown>; loaded: string[] }[],
    ipc: new Map<string, (...args: unknown[]) => unknown>(),
  };
  interface FakeSession {
    request?: (contents: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void;
    check?: (contents: unknown, permission: string) => boolean;
    device?: (details: unknown) => boolean;
    setPermissionRequestHandler(handler: FakeSession['request']): void;
    setPermissionCheckHandler(handler: FakeSession['check']): void;
    setDevicePermissionHandler(handler: FakeSession['device']): void;
  }
  const makeSession = (): FakeSession => ({
    setPermissionRequestHandler(handler) {
      this.request = handler;
    },
    setPermissionCheckHandler(handler) {
      this.check = handler;
    },
    setDevicePermissionHandler(handler) {
      this.device = handler;
    },
  });
  return { state, makeSession };
});

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const app = Object.assign(new Emitter(), { isPackaged: false });
  fakes.state.app = app;
  fakes.state.defaultSession = fakes.makeSession();
  let ids = 0;
  class BrowserWindow extends Emitter {
    readonly webContents = { id: ++ids, send: () => undefined };
    constructor(options: Record<string, unknown>) {
      super();
      fakes.state.windows.push({ options, loaded: [] });
    }
    loadURL(url: string) {
      fakes.state.windows.at(-1)?.loaded.push(url);
      return Promise.resolve();
    }
    isVisible() {
      return false;
    }
    isMinimized() {
      return false;
    }
  }
  return {
    app,
    session: { defaultSession: fakes.state.defaultSession },
    BrowserWindow,
    ipcMain: {
      handle: (channel: string, handler: (...args: unknown[]) => unknown) => fakes.state.ipc.set(channel, handler),
      removeHandler: (channel: string) => fakes.state.ipc.delete(channel),
    },
  };
});

const { app, session } = await import('electron');
const { hardenApp } = await import('../../../../main/platform/hardening');
const { APP_ORIGIN, contentSecurityPolicy } = await import('../../../../main/platform/security');
const { openAppWindow } = await import('../../../../main/platform/windows');
const { bindIpc } = await import('../../../../main/ipc/electron-binding');
const { createDispatcher } = await import('../../../../main/ipc/dispatcher');
const { WindowHub } = await import('../../../../main/services/window-hub');
const { requestChannel } = await import('../../../../shared/ipc/channels');
const { requestNames } = await import('../../../../shared/ipc/contract');
const { ok } = await import('../../../../shared/result');

const root = join(import.meta.dirname, '../../../..');
const PERMISSIONS = ['media', 'geolocation', 'notifications', 'midi', 'midiSysex', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'pointerLock', 'hid', 'serial', 'usb', 'idle-detection', 'unknown-future-permission'];

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
}

/** An event as Electron passes it: preventDefault records that the handler refused. */
function event() {
  return { prevented: false, preventDefault() {
    this.prevented = true;
  } };
}

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...values]) => [name!, values]));
}

const logged: string[] = [];
hardenApp([APP_ORIGIN], (line) => logged.push(line));

function newContents(): FakeContents {
  const contents = new FakeContents();
  app.emit('web-contents-created', {}, contents);
  return contents;
}

function permissionOutcomes(target: ReturnType<typeof fakes.makeSession>): { requested: boolean[]; checked: boolean[]; device: boolean[] } {
  const requested: boolean[] = [];
  for (const permission of PERMISSIONS) target.request?.({}, permission, (granted) => requested.push(granted), { requestingUrl: `${APP_ORIGIN}/index.html` });
  return {
    requested,
    checked: PERMISSIONS.map((permission) => target.check?.({}, permission) ?? true),
    device: [target.device?.({ deviceType: 'usb', origin: APP_ORIGIN }) ?? true],
  };
}

describe('Electron hardening, by behaviour', () => {
  beforeEach(() => {
    logged.length = 0;
  });

  it('blocks navigation and redirects away from the app; navigation inside it goes on', () => {
    const contents = newContents();
    for (const url of ['https://evil.example/', 'http://127.0.0.1:1/', 'app://terminal.evil/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'not a url']) {
      const navigation = event();
      contents.emit('will-navigate', navigation, url);
      expect(navigation.prevented, `will-navigate ${url}`).toBe(true);
      const redirect = event();
      contents.emit('will-redirect', redirect, url);
      expect(redirect.prevented, `will-redirect ${url}`).toBe(true);
    }
    const inside = event();
    contents.emit('will-navigate', inside, `${APP_ORIGIN}/index.html#ladder`);
    expect(inside.prevented).toBe(false);
    expect(logged.some((line) => line.includes('https://evil.example/'))).toBe(true);
  });

  it('denies window.open for every URL, https and the app page included, and refuses webviews', () => {
    const contents = newContents();
    expect(contents.openHandler).not.toBeNull();
    for (const url of ['https://example.com/', 'https://accounts.example/login', 'http://example.com/', `${APP_ORIGIN}/index.html`, 'about:blank', 'mailto:x@example.com']) {
      expect(contents.openHandler!({ url }), url).toEqual({ action: 'deny' });
    }
    const attach = event();
    contents.emit('will-attach-webview', attach, {}, {});
    expect(attach.prevented).toBe(true);
  });

  it('denies every permission request, check and device, on the default session and every later one', () => {
    const fresh = fakes.makeSession();
    app.emit('session-created', fresh);
    for (const target of [session.defaultSession as unknown as ReturnType<typeof fakes.makeSession>, fresh]) {
      const outcome = permissionOutcomes(target);
      expect(outcome.requested).toEqual(PERMISSIONS.map(() => false));
      expect(outcome.checked).toEqual(PERMISSIONS.map(() => false));
      expect(outcome.device).toEqual([false]);
    }
  });

  it('builds every window with the hardened preferences; DevTools only when not packaged', () => {
    const hub = new WindowHub();
    for (const packaged of [false, true]) {
      (app as unknown as { isPackaged: boolean }).isPackaged = packaged;
      openAppWindow({ preload: '/preload.cjs', hub }, { bounds: null, minWidth: 10, minHeight: 10, title: 't' });
      const built = fakes.state.windows.at(-1)!;
      expect(built.options.webPreferences).toEqual({
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
        devTools: !packaged,
      });
      expect(built.loaded).toEqual([`${APP_ORIGIN}/index.html`]);
    }
    (app as unknown as { isPackaged: boolean }).isPackaged = false;
  });

  it('IPC: every request is bound, and only a main frame of the app page reaches a handler', async () => {
    const reached: string[] = [];
    const handlers = Object.fromEntries(requestNames.map((name) => [name, () => (reached.push(name), ok(null))]));
    const unbind = bindIpc(createDispatcher(handlers as never, { allowedOrigins: [APP_ORIGIN] }));
    expect([...fakes.state.ipc.keys()].sort()).toEqual(requestNames.map((name) => requestChannel(name)).sort());
    const call = (frame: unknown) => fakes.state.ipc.get(requestChannel('getSettings'))!({ sender: { id: 7 }, senderFrame: frame }, {}) as Promise<{ ok: boolean; code?: string }>;
    const top = { url: `${APP_ORIGIN}/index.html`, parent: null };
    expect(await call(top)).toMatchObject({ ok: true });
    expect(reached).toEqual(['getSettings']);
    for (const frame of [{ url: `${APP_ORIGIN}/index.html`, parent: top }, { url: 'https://evil.example/', parent: null }, null, undefined]) {
      expect(await call(frame)).toMatchObject({ ok: false, code: 'FORBIDDEN_SENDER' });
    }
    expect(reached).toEqual(['getSettings']);
    unbind();
    expect(fakes.state.ipc.size).toBe(0);
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
    expect(directives(contentSecurityPolicy(['ws://127.0.0.1:4000'])).get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:4000']);
    // The page carries the same policy in a meta tag (a second line where headers are lost).
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(join(root, 'renderer/index.html'), 'utf8'))?.[1] ?? '';
    expect(directives(meta).get('script-src')).toEqual(["'self'"]);
    expect(meta).not.toMatch(/unsafe-eval/);
  });
});
