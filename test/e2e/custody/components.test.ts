// The custody components in a real Chromium against the browser host, before the shell wires them:
// a small harness page (built here with vite into .tmp/) mounts CustodyPanel, or OfflineSigner when
// the host runs with --offline, under a BridgeContext over the same bridge the app uses. Clicks and
// typing drive them; the bridge frames the page sends are recorded to check that no secret crosses
// in plain text.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import solid from 'vite-plugin-solid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupedId } from '../../../main/services/confirm/confirmation-text';
import { addressOf } from '../../../shared/crypto/address';
import { generatePrivateKey, publicKeyOf } from '../../../shared/crypto/keys';
import { b256 } from '../../../shared/encoding/b256';
import { bytesToHex } from '../../../shared/encoding/hex';
import { buildWithdrawRequest } from '../../../shared/offline/build-request';
import { prettyCanonicalJson } from '../../../shared/offline/canonical-json';
import { requestToJson } from '../../../shared/offline/request-format';
import { responseToJson } from '../../../shared/offline/response-format';
import { signVerifiedRequest } from '../../../shared/offline/sign';
import { verifyOfflineRequest } from '../../../shared/offline/verify-request';
import { verifyOfflineResponse } from '../../../shared/offline/verify-response';
import { sequentialNonce } from '../../../shared/protocol/nonce-choice';
import type { Result } from '../../../shared/result';
import { screenshot } from '../../support/chromium';
import type { RunningHost } from '../../support/browser-host';
import type { BridgeClient } from '../../support/bridge-client';
import { openTerminal, type OpenTerminal } from '../../support/open-terminal';

const root = resolve(import.meta.dirname, '../../..');
const harness = join(root, '.tmp', `custody-harness-${process.pid}`);
const random = (length: number) => new Uint8Array(randomBytes(length));
const PASSPHRASE = 'correct horse battery staple';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

async function buildHarness(): Promise<string> {
  rmSync(harness, { recursive: true, force: true });
  mkdirSync(harness, { recursive: true });
  writeFileSync(join(harness, 'index.html'), readFileSync(join(root, 'renderer/index.html'), 'utf8').replace('./src/main.tsx', './entry.tsx'));
  writeFileSync(
    join(harness, 'entry.tsx'),
    `import { render } from 'solid-js/web';
import '../../renderer/src/styles.css';
import { connectApi } from '../../renderer/src/bridge/api';
import { CustodyPanel, OfflineSigner } from '../../renderer/src/features/custody';
import { withHostConfirmation } from '../../renderer/src/bridge/host-confirmation';
import { CodeDialog, createCodePrompt } from '../../renderer/src/components/CodeDialog';
import { BridgeContext } from '../../renderer/src/stores/bridge-context';
void (async () => {
  const root = document.getElementById('root')!;
  const raw = await connectApi((reason) => { root.textContent = reason; });
  const info = await raw.getAppInfo({});
  // As the app does (App.tsx): requests confirmed on the host's terminal ask for its code.
  const codes = createCodePrompt();
  const api = withHostConfirmation(raw, codes.ask);
  render(() => (info.ok && info.value.offline ? <BridgeContext.Provider value={raw}><OfflineSigner /></BridgeContext.Provider> : <><BridgeContext.Provider value={api}><CustodyPanel /></BridgeContext.Provider><CodeDialog pending={codes.pending()} settle={codes.settle} /></>), root);
})();
`,
  );
  await build({ root: harness, configFile: false, logLevel: 'warn', plugins: [solid()], build: { outDir: join(harness, 'out'), emptyOutDir: true } });
  return join(harness, 'out');
}

/** Text of every bridge frame the page sends. */
function recordFrames(page: Page): string[] {
  const sent: string[] = [];
  page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))));
  return sent;
}

let browser: Browser;
let rendererDir: string;

beforeAll(async () => {
  rendererDir = await buildHarness();
});

afterAll(() => {
  rmSync(harness, { recursive: true, force: true });
});

describe('custody components, online', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;
  let bridge: BridgeClient;

  beforeAll(async () => {
    // The components' own renderer; each test opens its page.
    terminal = await openTerminal({ host: { args: ['--renderer-dir', rendererDir] }, bridge: true, navigate: false });
    ({ host, bridge, browser } = terminal);
  });

  afterAll(() => terminal?.close());

  it('a hot owner: deposit instructions, a reviewed withdrawal signed and sent, a referral looked up', async () => {
    const api = bridge.api;
    for (let attempt = 0; attempt < 100 && !(await api.listMarkets({})).ok; attempt++) await new Promise((resolve) => setTimeout(resolve, 200));
    value(await api.createOwnerKey({ style: 'ledger' }));
    const account = value(await api.createTradeAccount({}));
    value(await api.mintFromFaucet({}));
    const usdc = value(await api.getDepositInstructions({})).assets.find((asset) => asset.symbol === 'USDC')!.assetId;

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(host.url);
    await expect.poll(() => page.getByTestId('deposit-account').textContent(), { timeout: 20_000 }).toBe(account.tradeAccountId);
    await expect.poll(() => page.getByTestId('deposit-asset').count()).toBeGreaterThanOrEqual(4);
    expect(await page.getByTestId('deposit-sentence').first().textContent()).toMatch(/must name the asset id and the amount/);

    const to = `0x${randomBytes(32).toString('hex')}`;
    await expect.poll(() => page.getByTestId('withdraw-form').getAttribute('data-custody')).toBe('keychain');
    await page.getByTestId('withdraw-asset').selectOption(usdc);
    await page.getByTestId('withdraw-amount').fill('1.5');
    await page.getByTestId('withdraw-destination').fill(to);
    await page.getByTestId('withdraw-review').click();
    expect(await page.getByTestId('withdraw-confirmation').textContent()).toContain(`Withdraw 1.5 USDC (asset ${usdc}) to Address ${to}`);
    // Not on the allow-list yet: the page adds it, the trader types the code the host printed on
    // its own terminal (read here from the host's output, as the trader reads it there).
    await page.getByTestId('withdraw-not-allowed').waitFor();
    let since = host.output.length;
    await page.getByTestId('withdraw-allow-address').click();
    await page.getByTestId('host-code-dialog').waitFor();
    const allowCode = await host.confirmationCode(since);
    expect(allowCode.printed).toContain(`Address to allow (Address):\n      ${groupedId(to)}\n`);
    await page.getByTestId('host-code-input').fill('0000 0000');
    await page.getByTestId('host-code-submit').click();
    // A wrong code: the dialog asks again and says how many attempts are left.
    await expect.poll(() => page.getByTestId('host-code-problem').textContent()).toMatch(/attempts? left/);
    await page.getByTestId('host-code-input').fill(allowCode.code);
    await page.getByTestId('host-code-submit').click();
    await page.getByTestId('withdraw-allowed-state').waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('withdraw-allowed-row').count()).toBe(1);
    await screenshot(page, 'custody-allow-list');
    const usableFrom = Number(await page.getByTestId('withdraw-allowed-row').first().getAttribute('data-usable-from'));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, usableFrom - Date.now() + 100)));
    since = host.output.length;
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('host-code-dialog').waitFor();
    const withdrawCode = await host.confirmationCode(since);
    expect(withdrawCode.printed).toContain(`To (Address, on the allow-list):\n      ${groupedId(to)}\n`);
    expect(withdrawCode.printed).toContain('Amount: 1.5 USDC (1500000 raw units)');
    await page.getByTestId('host-code-input').fill(withdrawCode.code);
    await page.getByTestId('host-code-submit').click();
    await expect.poll(() => page.getByTestId('owner-result').first().getAttribute('data-status'), { timeout: 20_000 }).toBe('accepted');

    await page.getByTestId('withdraw-amount').fill('1.0000001');
    await page.getByTestId('withdraw-review').click();
    await expect.poll(() => page.getByTestId('withdraw-error').getAttribute('data-code')).toBe('TOO_MANY_DECIMALS');

    // Taking the address off the allow-list tightens it: asked once in the row, no host code.
    since = host.output.length;
    await page.getByTestId('withdraw-allowed-remove').click();
    await page.getByTestId('withdraw-allowed-remove-ask').waitFor();
    await screenshot(page, 'custody-allow-list-remove');
    await page.getByTestId('withdraw-allowed-remove-confirm').click();
    await expect.poll(() => page.getByTestId('withdraw-allowed-row').count()).toBe(0);
    expect(await page.getByTestId('host-code-dialog').count()).toBe(0);
    expect(host.output.slice(since).join('\n')).not.toMatch(/confirmation code/);

    await page.getByTestId('referral-code').fill('SANDBOX');
    await page.getByTestId('referral-lookup').click();
    await expect.poll(() => page.getByTestId('referral-found').getAttribute('data-usable')).toBe('true');
    await page.getByTestId('referral-code').fill('RETIRED');
    await page.getByTestId('referral-lookup').click();
    await expect.poll(() => page.getByTestId('referral-found').getAttribute('data-usable')).toBe('false');
    await screenshot(page, 'custody-hot-owner');
    await page.close();
  });

  it('a watch-only owner: the request prepared, shown with its animated QR, downloaded, and its signature imported', async () => {
    const api = bridge.api;
    const key = generatePrivateKey(random);
    const owner = addressOf(publicKeyOf(key), 'ledger');
    value(await api.registerWatchOnlyOwner({ address: owner, style: 'ledger' }));
    value(await api.createTradeAccount({}));
    value(await api.mintFromFaucet({}));
    const usdc = value(await api.getDepositInstructions({})).assets.find((asset) => asset.symbol === 'USDC')!.assetId;

    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 }, acceptDownloads: true });
    await page.goto(host.url);
    await expect.poll(() => page.getByTestId('withdraw-form').getAttribute('data-custody'), { timeout: 20_000 }).toBe('watch-only');
    await expect.poll(() => page.getByTestId('session-request-form').count()).toBe(1);
    await page.getByTestId('withdraw-asset').selectOption(usdc);
    await page.getByTestId('withdraw-amount').fill('2.25');
    await page.getByTestId('withdraw-destination').fill(`0x${'4e'.repeat(32)}`);
    await page.getByTestId('withdraw-review').click();
    await page.getByTestId('withdraw-submit').click();
    const pending = page.getByTestId('pending-request');
    await expect.poll(() => pending.getAttribute('data-state'), { timeout: 20_000 }).toBe('awaiting-signature');
    expect(await page.getByTestId('pending-request-words').textContent()).toMatch(/^Withdraw 2\.25 USDC/);
    expect(await page.getByTestId('pending-request-countdown').textContent()).toMatch(/^expires in 2[34]h/);
    expect(await page.getByTestId('pending-request-nonce').textContent()).toMatch(/^parallel, lane 4/);
    const qr = page.getByTestId('pending-request-qr');
    expect(Number(await qr.getAttribute('data-parts'))).toBeGreaterThan(1);
    // Animated: the part shown changes by itself.
    await expect.poll(() => qr.getAttribute('data-part'), { timeout: 5_000 }).toBe('2');
    await screenshot(page, 'custody-watch-only-pending');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('pending-request-download').click()]);
    const fileText = readFileSync((await download.path())!, 'utf8');
    const [view] = value(await api.getOwnerRequests({})).pending;
    expect(fileText).toBe(view!.fileText);

    const verified = value(verifyOfflineRequest(JSON.parse(fileText), { nowSeconds: BigInt(Math.floor(Date.now() / 1000)) }));
    const response = prettyCanonicalJson(responseToJson(value(signVerifiedRequest(verified, key))));
    await page.getByTestId('import-signature-text').fill(response);
    await page.getByTestId('import-signature-submit').click();
    await expect.poll(() => page.locator('[data-testid=pending-requests] [data-testid=owner-result]').getAttribute('data-status'), { timeout: 20_000 }).toBe('accepted');
    await expect.poll(() => page.getByTestId('pending-requests-empty').count()).toBe(1);
    await screenshot(page, 'custody-watch-only-imported');
    await page.close();
  });
});

describe('the offline signer component, offline mode', () => {
  let terminal: OpenTerminal;
  let host: RunningHost;

  beforeAll(async () => {
    terminal = await openTerminal({ host: { args: ['--offline', '--renderer-dir', rendererDir] }, navigate: false });
    ({ host, browser } = terminal);
  });

  afterAll(() => terminal?.close());

  it('loads a request, imports the key into a keystore, signs; no secret crosses the bridge in plain text', async () => {
    const key = generatePrivateKey(random);
    const owner = addressOf(publicKeyOf(key), 'ledger');
    const now = BigInt(Math.floor(Date.now() / 1000));
    const request = value(
      buildWithdrawRequest({
        network: 'sandbox',
        chain_id: 9889n,
        owner: { address: owner, style: 'ledger' },
        trade_account_id: b256(`0x${'77'.repeat(32)}`),
        nowSeconds: now,
        random,
        nonce: sequentialNonce(3n),
        to: { Address: b256(`0x${'4e'.repeat(32)}`) },
        amount: 1_500_000n,
        asset: { id: b256(`0x${'9c'.repeat(32)}`), symbol: 'USDC', decimals: 6 },
      }),
    ).request;

    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const frames = recordFrames(page);
    await page.goto(host.url);
    await expect.poll(() => page.getByTestId('offline-signer').count(), { timeout: 20_000 }).toBe(1);

    const tampered = JSON.parse(prettyCanonicalJson(requestToJson(request))) as { withdraw: { amount: string } };
    tampered.withdraw.amount = '1500001';
    await page.getByTestId('offline-request-text').fill(JSON.stringify(tampered));
    await page.getByTestId('offline-request-load').click();
    await expect.poll(() => page.getByTestId('offline-error').getAttribute('data-code')).toBe('OFFLINE_MESSAGE_MISMATCH');

    await page.getByTestId('offline-request-text').fill(prettyCanonicalJson(requestToJson(request)));
    await page.getByTestId('offline-request-load').click();
    await expect.poll(() => page.getByTestId('offline-preview').count()).toBe(1);
    expect(await page.locator('[data-testid=offline-preview-lines] td').first().textContent()).toBe(request.description);

    await page.getByTestId('offline-keystore-create').locator('summary').click();
    await page.getByTestId('offline-new-name').fill('owner');
    await page.getByTestId('offline-new-mode').selectOption('import');
    await page.getByTestId('offline-new-key').fill(bytesToHex(key));
    await page.getByTestId('offline-new-passphrase').fill(PASSPHRASE);
    await page.getByTestId('offline-new-passphrase-again').fill(PASSPHRASE);
    await page.getByTestId('offline-new-create').click();
    const keystore = page.locator('[data-testid=offline-keystore][data-name=owner]');
    await expect.poll(() => keystore.getAttribute('data-matches'), { timeout: 20_000 }).toBe('true');
    // The fields were cleared as soon as their values were taken.
    expect(await page.getByTestId('offline-new-passphrase').inputValue()).toBe('');
    expect(await page.getByTestId('offline-new-key').inputValue()).toBe('');

    await keystore.locator('input').check();
    await page.getByTestId('offline-sign-passphrase').fill(PASSPHRASE);
    await page.getByTestId('offline-sign').click();
    await expect.poll(() => page.getByTestId('offline-signature-text').count(), { timeout: 20_000 }).toBe(1);
    const responseText = (await page.getByTestId('offline-signature-text').textContent())!;
    expect(verifyOfflineResponse(request, JSON.parse(responseText), { nowSeconds: now + 1n }).ok).toBe(true);
    await screenshot(page, 'custody-offline-signer');

    const everything = frames.join('\n');
    expect(frames.some((frame) => frame.includes('offlineSign'))).toBe(true);
    expect(everything).not.toContain(PASSPHRASE);
    expect(everything).not.toContain(bytesToHex(key));
    expect(everything).not.toContain(Buffer.from(PASSPHRASE).toString('hex'));
    await page.close();
  });
});
