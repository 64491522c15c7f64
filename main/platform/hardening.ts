// Electron hardening applied to every web contents and session: navigation away from the app,
// new windows, webviews and every permission request are refused.
import { app, session, type WebContents } from 'electron';
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
    // No page may open a window or hand a URL to the system browser: a compromised page could
    // otherwise open a look-alike site outside the app. Panel windows are opened by main (desk).
    contents.setWindowOpenHandler(({ url }) => {
      log(`blocked window.open of ${url}`);
      return { action: 'deny' };
    });
  });
}
