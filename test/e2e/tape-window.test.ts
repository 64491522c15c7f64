// A busy market's tape: the time and sales list keeps the newest 200 trades, and draws only the
// rows near its view (renderer/src/lib/row-window.ts), with spacer rows that keep the scroll
// height of all of them. Each trade shifts every row under it, so each row drawn is laid out and
// painted again on every frame. In Chromium against the sandbox, its maker taking ten times as
// often as usual (the four-window bench's market), so the list fills in seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { screenshots } from '../support/terminal-page';

/** The page's elements as the functions sent to it use them (test files compile without the DOM library). */
interface Box {
  getBoundingClientRect(): { readonly top: number; readonly bottom: number; readonly height: number };
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

describe.sequential('a busy tape draws the rows near its view', () => {
  let terminal: OpenTerminal;
  let page: Page;
  const shot = screenshots(() => page, 'tape-window');

  beforeAll(async () => {
    terminal = await openTerminal({ host: { args: ['--sandbox-maker-profile', 'realistic', '--sandbox-maker-rate', '20'] }, onboard: true, book: true });
    ({ page } = terminal);
  });

  afterAll(() => terminal?.close());

  /** The tape's rows in the document, its list's own count, the spacers and the scroller's view. */
  const tape = () =>
    page.getByTestId('tape').evaluate((root) => {
      const body = root.querySelector('tbody')!;
      const scroller = root.closest('.panel-body') as unknown as Box;
      const view = scroller.getBoundingClientRect();
      const rows = [...body.querySelectorAll('[data-testid=tape-row]')];
      const boxes = rows.map((row) => (row as unknown as Box).getBoundingClientRect());
      return {
        ids: rows.map((row) => row.getAttribute('data-trade-id')!),
        listed: Number(body.getAttribute('data-rows')),
        first: Number(body.getAttribute('data-first-row')),
        /** The drawn rows' mean height (rows differ by a fraction of a pixel). */
        rowHeight: boxes.length > 0 ? (boxes[boxes.length - 1]!.bottom - boxes[0]!.top) / boxes.length : 0,
        /** Rows wholly or partly inside the scroller's visible box. */
        inView: boxes.filter((box) => box.bottom > view.top && box.top < view.bottom).length,
        /** No gap in the view: the drawn rows start at the list's start or above the view's top, and end at its end or below its bottom. */
        covers:
          boxes.length > 0 &&
          (Number(body.getAttribute('data-first-row')) === 0 || boxes[0]!.top <= view.top) &&
          (Number(body.getAttribute('data-first-row')) + boxes.length === Number(body.getAttribute('data-rows')) || boxes[boxes.length - 1]!.bottom >= view.bottom),
        spacers: [...body.querySelectorAll('tr.row-spacer')].map((row) => ({ above: row.nextElementSibling?.getAttribute('data-testid') === 'tape-row', height: (row as unknown as Box).getBoundingClientRect().height })),
        scrollTop: scroller.scrollTop,
        scrollHeight: scroller.scrollHeight,
        clientHeight: scroller.clientHeight,
      };
    });

  it('holds up to 200 trades and draws the newest ones in view plus a margin, with the height of the rest below', async () => {
    await expect.poll(async () => (await tape()).listed, { timeout: 90_000, message: 'the tape fills with trades' }).toBe(200);
    // A frame after the list filled: the row height is measured and the window settled.
    await page.waitForTimeout(300);
    const now = await tape();
    expect(now.first).toBe(0);
    expect(now.rowHeight).toBeGreaterThan(0);
    const visible = Math.ceil(now.clientHeight / now.rowHeight);
    expect(now.ids.length).toBeGreaterThanOrEqual(Math.min(200, visible));
    expect(now.ids.length).toBeLessThan(200);
    expect(now.inView).toBeGreaterThan(0);
    expect(now.covers).toBe(true);
    // One spacer, below the drawn rows, standing for the rows not drawn.
    expect(now.spacers).toHaveLength(1);
    expect(now.spacers[0]!.above).toBe(false);
    expect(Math.abs(now.spacers[0]!.height - (200 - now.ids.length) * now.rowHeight)).toBeLessThanOrEqual(2 + 0.02 * now.spacers[0]!.height);
    await shot('top');
  });

  it('draws the oldest trades when scrolled to the bottom, with the height of the newer ones above', async () => {
    await page.getByTestId('tape').evaluate((root) => {
      const scroller = root.closest('.panel-body') as unknown as Box;
      scroller.scrollTop = scroller.scrollHeight;
    });
    await expect.poll(async () => (await tape()).first, { timeout: 5_000 }).toBeGreaterThan(0);
    const now = await tape();
    // The last rows are drawn and in view: the 200th row of the list is the last one drawn.
    expect(now.first + now.ids.length).toBe(now.listed);
    expect(now.inView).toBeGreaterThan(0);
    expect(now.covers).toBe(true);
    const above = now.spacers.find((spacer) => spacer.above);
    expect(above).toBeDefined();
    expect(Math.abs(above!.height - now.first * now.rowHeight)).toBeLessThanOrEqual(2 + 0.02 * above!.height);
    expect(now.spacers.filter((spacer) => !spacer.above).every((spacer) => spacer.height === 0)).toBe(true);
    await shot('bottom');
  });
});
