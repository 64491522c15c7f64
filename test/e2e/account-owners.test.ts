// The Account view's owner keys and owner requests in Chromium over the browser host: the owners
// listed with the one in use, switching to another, forgetting a watch-only owner with the code the
// host prints on its own terminal, and an owner request (SettleBalance) confirmed the same way, the
// printed text naming the endpoint, the method and the market. Screenshots:
// test-results/screenshots/account-owners.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf } from '../../shared/crypto/address';
import { generatePrivateKey, publicKeyOf } from '../../shared/crypto/keys';
import type { RunningHost } from '../support/browser-host';
import { openTerminal, type OpenTerminal } from '../support/open-terminal';
import { screenshots } from '../support/terminal-page';

describe.sequential('owner keys and owner requests in the Account view', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let page: Page;
  const shot = screenshots(() => page, 'account-owners');

  beforeAll(async () => {
    terminal = await openTerminal({ onboard: true, bridge: true });
    ({ host, page } = terminal);
  });

  afterAll(() => terminal?.close());

  const rows = () => page.getByTestId('owner-row');
  const row = (address: string) => page.locator(`[data-testid=owner-row][data-owner="${address}"]`);

  it('switches to another owner and back, and forgets a watch-only owner with the host code', async () => {
    const state = await terminal.api.getAccountState({});
    const hot = state.ok ? (state.value.activeOwner?.address ?? '') : '';
    const watched = addressOf(publicKeyOf(generatePrivateKey((length) => new Uint8Array(randomBytes(length)))), 'ledger');
    await page.getByTestId('open-setup').click();
    await page.getByTestId('owner-keys').waitFor();
    expect(await rows().count()).toBe(1);
    // A second owner, watch-only, added from the form under the owner in use.
    await page.getByTestId('owner-add').click();
    await page.getByTestId('owner-mode-watch').click();
    await page.getByTestId('owner-watch-address').fill(watched);
    await page.getByTestId('onboarding-watch-only').click();
    await expect.poll(() => rows().count()).toBe(2);
    await expect.poll(() => row(watched).getAttribute('data-active')).toBe('true');
    // Forget is disabled for the keychain owner: the terminal never deletes its key.
    expect(await row(hot).getByTestId('owner-forget').isDisabled()).toBe(true);
    await shot('01-two-owners');
    await row(hot).getByTestId('owner-select').click();
    await expect.poll(() => row(hot).getAttribute('data-active')).toBe('true');

    const since = host.output.length;
    await row(watched).getByTestId('owner-forget').click();
    await page.getByTestId('host-code-dialog').waitFor();
    const { code, printed } = await host.confirmationCode(since);
    expect(printed).toContain('Forget the watch-only owner');
    expect(printed).toContain('No key is deleted');
    await shot('02-forget-host-code');
    await page.getByTestId('host-code-input').fill(code);
    await page.getByTestId('host-code-submit').click();
    await expect.poll(() => rows().count()).toBe(1);
    await expect.poll(() => row(hot).getAttribute('data-active')).toBe('true');
  });

  it('an owner request: settle a book, confirmed with the host code naming the endpoint, the method and the market', async () => {
    await page.getByTestId('owner-methods').waitFor();
    await page.getByTestId('owner-method').selectOption('settleBalance');
    const marketId = await page.getByTestId('owner-method-marketId').inputValue();
    const since = host.output.length;
    await page.getByTestId('owner-method-submit').click();
    await page.getByTestId('host-code-dialog').waitFor();
    const { code, printed } = await host.confirmationCode(since);
    expect(printed).toContain('Endpoint: POST /v1/accounts/actions');
    expect(printed).toContain('Method: settleBalance');
    expect(printed).toContain(`marketId: ${marketId}`);
    await page.getByTestId('host-code-input').fill(code);
    await page.getByTestId('host-code-submit').click();
    await expect.poll(async () => (await page.getByTestId('owner-method-result').textContent({ timeout: 1_000 }).catch(() => '')) ?? '', { timeout: 20_000 }).toMatch(/SettleBalance .*accepted/);
    await shot('03-owner-request-done');
    expect(terminal.pageErrors).toEqual([]);
  });
});
