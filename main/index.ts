// Electron entry: lifecycle and wiring only. Everything else lives in services (no electron)
// and platform (electron adapters).
import { app, BrowserWindow, dialog } from 'electron';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openOsKeychain } from './platform/keychain';
import { chooseDigestSigner } from './platform/native-secp256k1';
import { createDispatcher } from './ipc/dispatcher';
import { bindIpc } from './ipc/electron-binding';
import { registerAppScheme, serveRenderer } from './platform/app-protocol';
import { hardenApp } from './platform/hardening';
import { installMenu } from './platform/menu';
import { showAlertNotification, showFillNotification } from './platform/notifications';
import { openMainWindow } from './platform/windows';
import { debugSwitchDecision } from './platform/debug-switches';
import { nativeDialogConfirmer } from './platform/confirm-dialog';
import { nativeSaveDialog } from './platform/save-dialog';
import { utilitySandboxSpawner } from './platform/sandbox-utility';
import { terminalLog } from './platform/terminal-log';
import { APP_ORIGIN } from './platform/security';
import { ElectronDeskPlatform } from './platform/desk-windows';
import { systemClock } from './services/system-clock';
import { DataDirectoryInUse } from './services/storage/data-dir-lock';
import { createTerminal, type Terminal } from './services/terminal';

const log = terminalLog((text) => process.stderr.write(text));
// `--offline`: the offline signer for an air-gapped machine; no sandbox, no network, no exchange.
const offline = process.argv.includes('--offline');

// A packaged build started with a debugging switch (--remote-debugging-port, --inspect, ...)
// quits before anything opens: fuses cover Node's inspector, not Chromium's DevTools protocol.
const debugging = debugSwitchDecision(process.argv, app.isPackaged);

if (debugging.refuse) {
  log(`refusing to start: a packaged Ledger Terminal does not run with debugging switches (${debugging.found.join(' ')})`);
  app.exit(1);
} else if (!app.requestSingleInstanceLock()) {
  // Another instance owns the keys, the journal and the nonce cursors: never run two.
  app.quit();
} else {
  registerAppScheme();
  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const allowedOrigins = [APP_ORIGIN, ...(devServerUrl ? [new URL(devServerUrl).origin] : [])];

  if (offline) {
    startOffline(allowedOrigins);
  } else {
    startOnline(allowedOrigins, devServerUrl);
  }
}

function commonSetup(allowedOrigins: readonly string[], handlers: Parameters<typeof createDispatcher>[0]): void {
  hardenApp(allowedOrigins, log);
  serveRenderer(join(import.meta.dirname, '../renderer'));
  installMenu();
  bindIpc(
    createDispatcher(handlers, {
      allowedOrigins,
      onBug: (error, channel) => log(`bug in ${channel}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    }),
  );
}

function startOffline(allowedOrigins: readonly string[]): void {
  // Loaded only here, so the online composition (exchange clients, sandbox) is never imported.
  void import('./services/custody/offline-terminal').then(({ createOfflineTerminal }) => {
    let terminal: ReturnType<typeof createOfflineTerminal>;
    try {
      terminal = createOfflineTerminal({
        clock: systemClock,
        random: (length) => new Uint8Array(randomBytes(length)),
        host: 'electron',
        version: app.getVersion(),
        dataDir: app.getPath('userData'),
        log,
      });
    } catch (error) {
      if (!(error instanceof DataDirectoryInUse)) throw error;
      refuseToStart(error);
      return;
    }
    void app.whenReady().then(() => {
      commonSetup(allowedOrigins, terminal.handlers);
      openMainWindow({ preload: join(import.meta.dirname, '../preload/index.cjs'), hub: terminal.windows });
    });
    app.on('window-all-closed', () => app.quit());
  });
}

function startOnline(allowedOrigins: readonly string[], devServerUrl: string | undefined): void {
  let terminal: Terminal;
  try {
    terminal = openTerminal();
  } catch (error) {
    // The single-instance lock covers this app only; the data directory's lock also covers a
    // browser host (or another install) on the same directory.
    if (!(error instanceof DataDirectoryInUse)) throw error;
    refuseToStart(error);
    return;
  }
  wireOnline(terminal, allowedOrigins, devServerUrl);
}

/** Another terminal holds the data directory: say who, and quit. */
function refuseToStart(error: DataDirectoryInUse): void {
  log(error.message);
  void app.whenReady().then(() => {
    dialog.showErrorBox('Ledger Terminal cannot start', error.message);
    app.quit();
  });
}

function openTerminal(): Terminal {
  return createTerminal({
    clock: systemClock,
    host: 'electron',
    version: app.getVersion(),
    dataDir: app.getPath('userData'),
    openKeychain: () => openOsKeychain({ service: 'ledger-terminal' }),
    random: (length) => new Uint8Array(randomBytes(length)),
    signer: chooseDigestSigner(),
    spawnSandbox: utilitySandboxSpawner(join(import.meta.dirname, 'sandbox.js')),
    // Withdrawals, new allow-list addresses, loosened safety settings and network addresses are
    // confirmed in a native dialog of main on the window that asked.
    confirmer: nativeDialogConfirmer(),
    // Alerts are shown by main as the OS's own notifications (the page may not raise any).
    showAlert: (firing, settings) => settings.desktopNotifications && showAlertNotification(firing),
    // Record exports are written where the trader picks in a native save dialog of main.
    chooseExportFile: nativeSaveDialog,
    log,
  });
}

function wireOnline(terminal: Terminal, allowedOrigins: readonly string[], devServerUrl: string | undefined): void {
  const desk = terminal.desk;
  const windowFactory = {
    preload: join(import.meta.dirname, '../preload/index.cjs'),
    hub: terminal.windows,
    ...(devServerUrl ? { rendererUrl: devServerUrl } : {}),
  };
  let deskPlatform: ElectronDeskPlatform | null = null;
  const openWindow = () => {
    if (!deskPlatform || !desk) return;
    const main = deskPlatform.openMain(desk.mainBounds());
    // The main window is the app: closing it quits, panel windows included (they reopen next time).
    main.on('closed', () => {
      if (process.platform !== 'darwin') app.quit();
    });
  };

  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  // One desktop notification per fill, when the trader wants them.
  terminal.windows.observe('fill', (notice) => {
    if (!terminal.settings().desktopNotifications) return;
    const market = terminal.runtime()?.markets?.market(notice.fill.marketId);
    showFillNotification(notice, market?.ok ? market.value : null);
  });

  void app.whenReady().then(async () => {
    commonSetup(allowedOrigins, terminal.handlers);
    const started = await terminal.start();
    if (!started.ok) log(`network start failed: ${started.message}`);
    // `screen` exists only once the app is ready.
    deskPlatform = new ElectronDeskPlatform(windowFactory, desk);
    desk.attachPlatform(deskPlatform);
    // The last session's arrangement first (panel windows open at their fitted places), then the
    // main window at its own, on top.
    desk.restore();
    openWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) openWindow();
    });
  });

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    // Stop the sandbox child and flush services before the process exits.
    event.preventDefault();
    quitting = true;
    // Windows closing because the app quits stay in the remembered arrangement.
    desk.freeze();
    void terminal.stop().finally(() => app.quit());
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
