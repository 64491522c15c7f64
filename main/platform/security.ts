// The Electron security checklist as data, so tests can read it without starting Electron:
// every window is created from these preferences and every page is served with this policy.

/** Content Security Policy of every page of the app. `connectSources` adds the browser host's bridge. */
export function contentSecurityPolicy(connectSources: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    // Solid and uPlot set element styles at runtime; no inline scripts are allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${connectSources.map((source) => ` ${source}`).join('')}`,
    "media-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "worker-src 'none'",
  ].join('; ');
}

export interface SecureWebPreferences {
  readonly preload: string;
  readonly contextIsolation: true;
  readonly sandbox: true;
  readonly nodeIntegration: false;
  readonly nodeIntegrationInWorker: false;
  readonly nodeIntegrationInSubFrames: false;
  readonly webviewTag: false;
  readonly webSecurity: true;
  readonly allowRunningInsecureContent: false;
  readonly experimentalFeatures: false;
  readonly navigateOnDragDrop: false;
  readonly spellcheck: false;
  /** Development builds only: a packaged app has no DevTools (`!app.isPackaged`). */
  readonly devTools: boolean;
}

export function secureWebPreferences(preload: string, options: { readonly packaged: boolean }): SecureWebPreferences {
  return {
    preload,
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
    devTools: !options.packaged,
  };
}

/** The scheme and host the renderer is served from in the desktop app. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'terminal';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Permission requests a page may make (camera, notifications prompt, ...): none are granted. */
export function decidePermission(_permission: string): false {
  return false;
}

/** Whether a navigation target stays inside the app; every other navigation is blocked. */
export function isAppUrl(url: string, allowedOrigins: readonly string[]): boolean {
  try {
    const parsed = new URL(url);
    const origin = parsed.origin !== 'null' ? parsed.origin : `${parsed.protocol}//${parsed.host}`;
    return allowedOrigins.includes(origin);
  } catch {
    return false;
  }
}
