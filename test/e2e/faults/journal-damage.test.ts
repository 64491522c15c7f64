// The data directory on a bad day, with the real browser host, sandbox and Chromium:
// - a second host on the same data directory refuses to start and says who holds it (pid, since);
// - the first host is killed (its lock is left behind, stale) and a byte of its journal is damaged;
// - started again, the host takes over the stale lock, keeps every intact journal entry, refuses
//   new orders (JOURNAL_DAMAGED) while cancels still go, and the page shows what was damaged until
//   the trader acknowledges it; then trading goes on.
// Screenshots: test-results/screenshots/journal-damage.
import { closeSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalApi } from '../../../shared/ipc/contract';
import { openTerminal, type OpenTerminal } from '../../support/open-terminal';
import { launchChromium } from '../../support/chromium';
import { startSandboxProcess, type SandboxProcess } from '../../support/sandbox-process';
import { screenshots, until, value } from '../../support/terminal-page';

describe('data directory: one terminal at a time, and a damaged journal', () => {
  let sandbox: SandboxProcess;
  let terminal: OpenTerminal | null = null;
  let browser: Browser | null = null;
  let page: Page | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'lt-damage-data-'));
  const keyringHome = mkdtempSync(join(tmpdir(), 'lt-damage-keyring-'));
  const shot = screenshots(() => page!, 'journal-damage');
  const lockHolder = () => JSON.parse(readFileSync(join(dataDir, 'terminal.lock'), 'utf8')) as { pid: number; since: number };

  /** The host on this data directory and keychain, against the sandbox process; no page (the test opens one late). */
  const hostOnly = () => ({ browser: false, host: { dataDir, keyringHome, args: ['--exchange-url', sandbox.url] } });
  const boot = async (): Promise<TerminalApi> => {
    terminal = await openTerminal({ ...hostOnly(), bridge: true });
    return terminal.api;
  };

  beforeAll(async () => {
    sandbox = await startSandboxProcess();
  });

  afterAll(async () => {
    await browser?.close();
    await terminal?.close();
    await sandbox?.stop();
  });

  it('refuses a second host, takes over a stale lock, and blocks trading on journal damage until the trader has seen it', async () => {
    let api = await boot();
    await until(async () => (await api.listMarkets({})).ok, 'markets');
    const market = value(await api.listMarkets({})).markets[0]!;
    value(await api.createOwnerKey({ style: 'ledger' }));
    value(await api.createTradeAccount({}));
    value(await api.mintFromFaucet({}));
    value(await api.whitelistAccount({}));
    value(await api.createSession({ marketIds: [market.market_id], days: 1 }));
    const depth = (await (await fetch(`${sandbox.url}/v1/depth?market_id=${market.market_id}&precision=10`)).json()) as Record<string, { buys: { price: string }[] } | undefined>;
    const tick = 10n ** BigInt(market.quote.decimals - market.quote.max_precision);
    const price = ((BigInt((depth.view ?? depth.orders)!.buys[0]!.price) * 90n) / 100n / tick) * tick;
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    const byValue = ((2n * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 2n) * step;
    const byDust = ((market.dust + step - 1n) / step) * step;
    const quantity = byValue > byDust ? byValue : byDust;
    const first = value(await api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price, quantity }));
    const firstOrder = first.orders[0]!.orderId;

    // A second host on the same data directory says who holds it, and does not start.
    const holder = lockHolder();
    const second = await openTerminal(hostOnly()).then(
      async (started) => {
        await started.close();
        return null;
      },
      (error: unknown) => String(error),
    );
    expect(second).toContain(`is in use by another terminal (process ${holder.pid} on `);
    expect(second).toContain(`since ${new Date(holder.since).toISOString()})`);

    // The first host dies without a word (its lock stays behind), and one byte of the journal
    // entry of the first order is damaged.
    await terminal!.restartHost({
      crash: true,
      whileDown: async () => {
        const journalPath = join(dataDir, 'journal', 'journal.log');
        const bytes = readFileSync(journalPath);
        const target = bytes.indexOf('"endpoint":"POST /v1/session/actions"');
        expect(target).toBeGreaterThan(0);
        const fd = openSync(journalPath, 'r+');
        writeSync(fd, Buffer.from([bytes[target + 2]! ^ 0x20]), 0, 1, target + 2);
        closeSync(fd);
      },
    });
    api = terminal!.api;
    expect(lockHolder().pid).not.toBe(holder.pid);
    const damage = value(await api.getJournalDamage({}));
    expect(damage.reports).toHaveLength(1);
    expect(damage.reports[0]!.items[0]).toMatchObject({ file: 'journal.log', kind: 'unreadable' });
    expect(damage.reports[0]!.items[0]!.hints.join()).toMatch(/description "Buy /);
    // The rest of the journal is there: the session, the order's outcome.
    const journal = value(await api.getJournal({ limit: 50 }));
    expect(journal.some((entry) => entry.kind === 'outcome' && entry.status === 'accepted')).toBe(true);

    await until(async () => (await api.getAccountState({})).ok && value(await api.getAccountState({})).canTrade, 'the account to be ready');
    const refused = await api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: price - tick, quantity });
    expect(refused).toMatchObject({ ok: false, code: 'JOURNAL_DAMAGED' });

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(terminal!.host.url);
    const notice = page.getByTestId('journal-damage');
    await notice.waitFor({ timeout: 30_000 });
    expect(await page.getByRole('alertdialog').textContent()).toContain('New orders and withdrawals are refused until you acknowledge this');
    expect(await page.getByTestId('journal-damage-item').count()).toBe(1);
    expect(await page.getByTestId('journal-damage-hints').textContent()).toMatch(/Still legible there: .*description "Buy /);
    expect(await notice.textContent()).toMatch(/journal\.log\.damaged-\d+/);
    await shot('notice');

    // Cancelling still works while the notice is up.
    const cancelled = await api.cancelOrder({ marketId: market.market_id, orderId: firstOrder });
    expect(cancelled.ok, JSON.stringify(cancelled)).toBe(true);

    await page.getByTestId('journal-damage-acknowledge').click();
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
    await shot('acknowledged');
    expect(value(await api.getJournalDamage({})).reports).toEqual([]);
    const placed = value(await api.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price: price - tick, quantity }));
    expect(placed.orders).toHaveLength(1);
  });
});
