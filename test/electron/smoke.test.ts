// Launches the real desktop app where an Electron runtime exists (npm test runs this project
// only then, under Xvfb, and prints why it skipped otherwise).
import { describe, expect, it } from 'vitest';
import { _electron as electron } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

describe('desktop app (Electron)', () => {
  it('opens a hardened window that lists the sandbox markets', async () => {
    const app = await electron.launch({ args: ['.'], cwd: process.cwd() });
    try {
      const window = await app.firstWindow();
      await expect.poll(() => window.getByTestId('market-row').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
      const preferences = await app.evaluate(({ BrowserWindow }) => {
        const contents = BrowserWindow.getAllWindows()[0]?.webContents;
        const prefs = (contents as unknown as { getLastWebPreferences(): Record<string, unknown> }).getLastWebPreferences();
        return { contextIsolation: prefs.contextIsolation, sandbox: prefs.sandbox, nodeIntegration: prefs.nodeIntegration };
      });
      expect(preferences).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false });
      expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
      mkdirSync(join(process.cwd(), 'test-results', 'screenshots'), { recursive: true });
      await window.screenshot({ path: join(process.cwd(), 'test-results', 'screenshots', 'electron-markets.png') });
    } finally {
      await app.close();
    }
  });
});
