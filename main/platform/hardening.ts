// Electron hardening applied to every web contents and session: navigation away from the app,
// new windows, webviews and every permission request are refused.
import { app, session, shell, type WebContents } from 'electron';
import { decidePermission, isAppUrl } from './security';

export function hardenApp(allowedOrigins: readonly string[], log: (line: string) => void): void {
  const denyAll = (ses: Electron.Session) => {
    ses.setPermissionRequestHandler((_contents, permission, callback) => callback(decidePermission(permission)));
    ses.setPermissionCheckHandler((_contents, permission) => decidePermission(permission));
    ses.setDevicePermissionHandler(() => false);
  };
  denyAll(session.defaultSession);
  app.on('session-created', denyAll);

  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, allowedOrigins)) {
        event.preventDefault();
        log(`blocked navigation to ${url}`);
      }
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url, allowedOrigins)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      // Links to the outside world (documentation, explorers) open in the user's browser.
      if (url.startsWith('https://')) void shell.openExternal(url);
      log(`blocked window.open of ${url}`);
      return { action: 'deny' };
    });
  });
}
