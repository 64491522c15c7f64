// The terminal host stops under an open window (the browser host): the window says so over all of
// it, with the time, and takes no click or hotkey; before, it went on showing the last book and
// orders with "Live" in its header until the freshness badges aged to stale, and said nothing of why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { screenshots } from '../support/terminal-page';

describe.sequential('the terminal host stops under an open window', () => {
  let terminal: OpenTerminal;
  let page: Page;
  const shot = screenshots(() => page, 'host-gone');

  beforeAll(async () => {
    terminal = await openTerminal({ onboard: true, book: true });
    ({ page } = terminal);
  });

  afterAll(() => terminal?.close());

  it('covers the window with what happened and when, and no click or hotkey reaches the app', async () => {
    const cover = page.getByTestId('bridge-closed');
    expect(await cover.count()).toBe(0);
    const row = page.locator('[data-testid=ladder-row].best-bid').first();
    const box = (await row.boundingBox())!;
    await terminal.host.stop();
    await cover.waitFor({ timeout: 15_000 });
    await shot('covered');
    const text = (await cover.textContent()) ?? '';
    expect(text).toContain('Disconnected from the terminal');
    expect(text).toMatch(/closed at \d\d:\d\d:\d\d: the terminal host (stopped|is shutting down)/);
    expect(text).toContain('not live');
    // What is under the pointer where the best bid was is the cover, not the ladder.
    const under = await page.evaluate(({ x, y }) => {
      const doc = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): { closest(selector: string): unknown } | null } }).document;
      return doc.elementFromPoint(x, y)?.closest('[data-testid=bridge-closed]') !== null;
    }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    expect(under).toBe(true);
    // A key the app listens for reaches no listener of the page's own.
    const heard = await page.evaluate(() => {
      const scope = globalThis as unknown as { addEventListener(type: string, listener: () => void): void; dispatchEvent(event: unknown): boolean; KeyboardEvent: new (type: string, init: object) => unknown };
      let count = 0;
      scope.addEventListener('keydown', () => count++);
      scope.dispatchEvent(new scope.KeyboardEvent('keydown', { key: 'b', bubbles: true }));
      return count;
    });
    expect(heard).toBe(0);
    expect(terminal.pageErrors).toEqual([]);
  });
});
