// The Account view's owner keys and owner requests in Chromium over the browser host: the owners
// listed with the one in use, switching to another, forgetting a watch-only owner with the code the
// host prints on its own terminal, and an owner request (SettleBalance) confirmed the same way, the
// printed text naming the endpoint, the method and the market; for a watch-only owner the same
// request prepared for the offline signer, shown with its calls, signed and imported. Screenshots:
// test-results/screenshots/account-owners.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf } from '../../shared/crypto/address';
import { generatePrivateKey, publicKeyOf } from '../../shared/crypto/keys';
import { prettyCanonicalJson } from '../../shared/offline/canonical-json';
import { responseToJson } from '../../shared/offline/response-format';
import { signVerifiedRequest } from '../../shared/offline/sign';
import { verifyOfflineRequest } from '../../shared/offline/verify-request';
import type { Result } from '../../shared/result';
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

  it('a watch-only owner: the owner request prepared for the offline signer, shown call by call, signed offline and imported', async () => {
    const value = <T>(result: Result<T>): T => {
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
      return result.value;
    };
    const key = generatePrivateKey((length) => new Uint8Array(randomBytes(length)));
    value(await terminal.api.registerWatchOnlyOwner({ address: addressOf(publicKeyOf(key), 'ledger'), style: 'ledger' }));
    value(await terminal.api.createTradeAccount({}));
    value(await terminal.api.whitelistAccount({}));
    await page.getByTestId('owner-methods-watch-only').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('owner-method-submit').count()).toBe(0);
    await page.getByTestId('owner-method').selectOption('settleBalance');
    await page.getByTestId('owner-method-prepare').click();
    const pending = page.locator('[data-testid=owner-method-requests] [data-testid=pending-request]');
    await expect.poll(() => pending.getAttribute('data-state', { timeout: 1_000 }).catch(() => null), { timeout: 20_000 }).toBe('awaiting-signature');
    expect(await pending.getAttribute('data-kind')).toBe('owner-call');
    const lines = (await pending.getByTestId('pending-request-lines').textContent()) ?? '';
    expect(lines).toContain('POST /v1/accounts/actions');
    expect(lines).toContain('settle_balance');
    expect(lines).toContain('stated by the online terminal');
    expect(await pending.getByTestId('pending-request-download').count()).toBe(1);
    await pending.scrollIntoViewIfNeeded();
    await shot('04-watch-only-owner-request');

    const [view] = value(await terminal.api.getOwnerRequests({})).pending;
    const verified = value(verifyOfflineRequest(JSON.parse(view!.fileText), { nowSeconds: BigInt(Math.floor(Date.now() / 1000)) }));
    await page.getByTestId('owner-method-import-text').fill(prettyCanonicalJson(responseToJson(value(signVerifiedRequest(verified, key)))));
    await page.getByTestId('owner-method-import-submit').click();
    const result = page.locator('[data-testid=owner-method-requests] [data-testid=owner-result]');
    await expect.poll(() => result.getAttribute('data-status', { timeout: 1_000 }).catch(() => null), { timeout: 20_000 }).toBe('accepted');
    expect(await result.getAttribute('data-kind')).toBe('owner-call');
    await expect.poll(() => page.getByTestId('owner-method-requests-empty').count()).toBe(1);
    await shot('05-watch-only-owner-request-imported');
    expect(terminal.pageErrors).toEqual([]);
  });
});
