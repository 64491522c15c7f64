// The first-fill path, measured as a new trader walks it: from an empty keychain in the
// browser host in Chromium, every interaction (a click, a key press, a field typed) is counted and
// the wall time taken from the first page load to the first fill the Fills panel shows. The figures
// are printed and written to test-results/first-fill.json; they are measured, not asserted against
// a time (this machine is shared and slow), but the path must end in a fill. The sandbox's maker is
// pinned (a fresh full book held still), so the market buy fills from a known book.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openTerminal } from '../support/open-terminal';
import { screenshots, stepDone, waitForFunds } from '../support/terminal-page';

describe.sequential('first fill from an empty keychain', () => {
  const report: Record<string, { interactions: number; seconds: number; steps: { what: string; atMs: number }[] }> = {};

  afterAll(async () => {
    mkdirSync('test-results', { recursive: true });
    writeFileSync(join('test-results', 'first-fill.json'), `${JSON.stringify(report, null, 2)}\n`);
  });

  /** One new trader on a fresh host (empty keychain and data directory), from the first page load to the first fill. */
  async function measure(path: string, setUp: (page: Page, act: (what: string, action: () => Promise<unknown>) => Promise<void>) => Promise<void>): Promise<void> {
    // The page is loaded below, once the clock starts.
    const terminal = await openTerminal({ maker: 'pinned', viewport: { width: 1440, height: 900 }, navigate: false });
    const { host, page } = terminal;
    const shot = screenshots(() => page, 'first-fill');
    const steps: { what: string; atMs: number }[] = [];
    try {
      const started = Date.now();
      const act = async (what: string, action: () => Promise<unknown>) => {
        await action();
        steps.push({ what, atMs: Date.now() - started });
      };
      await page.goto(host.url);
      await page.getByTestId('onboarding').waitFor({ timeout: 60_000 });
      await shot(`${path}-00-setup`);
      await setUp(page, act);
      await page.locator('[data-testid=ladder-row].best-ask').first().waitFor({ timeout: 60_000 });
      await waitForFunds(page, 60_000);
      // The quickest order that fills: a market buy from the ticket (its type, a size, Buy, confirm).
      await act('order type: Market', () => page.getByTestId('ticket-type').selectOption('Market'));
      await act('type the size 0.01', () => page.getByTestId('ticket-quantity').fill('0.01'));
      // A market order takes what is offered at the best offer when it lands: when nothing fills (the
      // ticket says so) the trader sends it again. Each attempt's clicks are counted.
      for (let attempt = 1; ; attempt++) {
        await act(attempt === 1 ? 'Buy' : `Buy again (attempt ${attempt})`, () => page.getByTestId('ticket-submit').click());
        await page.getByTestId('confirm-dialog').waitFor({ timeout: 10_000 });
        if (attempt === 1) await shot(`${path}-01-confirm`);
        await act('confirm', () => page.getByTestId('confirm-accept').click());
        // The ticket says what the order did; the first fill then shows in Fills.
        await expect.poll(() => page.getByTestId('ticket-result').getAttribute('data-ok'), { timeout: 30_000 }).not.toBeNull();
        const result = (await page.getByTestId('ticket-result').textContent()) ?? '';
        if (attempt === 1) await shot(`${path}-01b-result`);
        expect(await page.getByTestId('ticket-result').getAttribute('data-ok'), result).toBe('true');
        if (!/nothing filled/.test(result) || attempt === 3) break;
      }
      await page.getByTestId('tab-fills').click();
      await expect.poll(() => page.getByTestId('fill-row').count(), { timeout: 60_000 }).toBeGreaterThan(0);
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      await shot(`${path}-02-first-fill`);
      report[path] = { interactions: steps.length, seconds, steps };
      console.log(`first fill (${path}): ${steps.length} interactions, ${seconds} s\n${steps.map((step) => `  ${(step.atMs / 1000).toFixed(1)} s  ${step.what}`).join('\n')}`);
    } finally {
      await terminal.close();
    }
  }

  it('step by step: each setup step is a click', async () => {
    await measure('step-by-step', async (page, act) => {
      await act('create the owner key', () => page.getByTestId('onboarding-create-key').click());
      await stepDone(page, 'owner', 60_000);
      await act('create the trading account', () => page.getByTestId('onboarding-create-account').click());
      await stepDone(page, 'account', 60_000);
      await act('take test funds from the faucet', () => page.getByTestId('onboarding-mint').click());
      await stepDone(page, 'funds', 60_000);
      const whitelist = await page.getByTestId('onboarding-step-whitelist').getAttribute('data-state');
      if (whitelist !== 'done' && whitelist !== 'not-needed') {
        await act('whitelist', () => page.getByTestId('onboarding-whitelist').click());
        await stepDone(page, 'whitelist', 60_000);
      }
      await act('create the trading session', () => page.getByTestId('onboarding-create-session').click());
      await stepDone(page, 'session', 60_000);
      await act('back to the workspace', () => page.getByTestId('close-setup').click());
    });
    expect(report['step-by-step']?.interactions).toBeGreaterThan(0);
  });

  it('"Set up and trade": every setup step in one click, then back to the workspace by itself', async () => {
    await measure('set-up-and-trade', async (page, act) => {
      await act('Set up and trade', () => page.getByTestId('onboarding-setup-all').click());
      await page.getByTestId('workspace').waitFor({ timeout: 120_000 });
    });
    expect(report['set-up-and-trade']!.interactions).toBeLessThan(report['step-by-step']?.interactions ?? Infinity);
  });
});
