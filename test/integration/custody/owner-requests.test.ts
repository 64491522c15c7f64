// Owner-signed requests end to end against a real sandbox on 127.0.0.1 (in process), with main's
// real services (in-memory keychain) and the real offline signer CLI in a child process:
// - a hot owner withdraws (parallel and sequential nonce, a lost answer reconciled, refusals);
// - a watch-only owner prepares a withdrawal, the CLI signs it with a keystore of the same owner,
//   the terminal imports the signature, verifies it and submits it, and the balance moves;
// - a tampered request, a signature from another key and an expired request are refused;
// - a watch-only session is prepared, signed offline, imported from QR payloads, and trades;
// - a pending request survives a restart; a stale sequential nonce is refused with the reason.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupedId } from '../../../main/services/confirm/confirmation-text';
import { createTerminal, type Terminal } from '../../../main/services/terminal';
import type { NetworkConfig } from '../../../main/services/network/networks';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import type { Clock, TimerHandle } from '../../../shared/clock';
import { addressOf } from '../../../shared/crypto/address';
import { generatePrivateKey, publicKeyOf } from '../../../shared/crypto/keys';
import { signDigest } from '../../../shared/crypto/signature';
import { b256, type B256 } from '../../../shared/encoding/b256';
import { bytesToHex, bytesToPrefixedHex } from '../../../shared/encoding/hex';
import type { OwnerRequestView } from '../../../shared/ipc/views';
import { buildWithdrawRequest } from '../../../shared/offline/build-request';
import { prettyCanonicalJson } from '../../../shared/offline/canonical-json';
import { requestToJson } from '../../../shared/offline/request-format';
import { responseToJson } from '../../../shared/offline/response-format';
import { verifyOfflineRequest } from '../../../shared/offline/verify-request';
import { parallelNonce } from '../../../shared/protocol/nonce-choice';
import { ok, type Result } from '../../../shared/result';
import { MemorySecretStore } from '../../support/memory-secret-store';
import fc from 'fast-check';
import { createDispatcher } from '../../../main/ipc/dispatcher';
import type { RequestName } from '../../../shared/ipc/contract';
import { HostCodeConfirmer } from '../../../main/services/confirm/host-code-confirmer';
import { checkProperty } from '../../support/property';

const root = resolve(import.meta.dirname, '../../..');
const caller = { windowId: 'w1', frameUrl: 'app://terminal/' };
const PASSPHRASE = 'correct horse battery staple';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The offline signer CLI, as a person runs it (passphrase from LT_KEYSTORE_PASSPHRASE, as for tests). */
function signer(args: readonly string[], stdin?: string): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/offline/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, LT_KEYSTORE_PASSPHRASE: PASSPHRASE },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** Real time, plus an offset a test can move (the sandbox keeps real time). */
class ShiftedClock implements Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  setTimeout(callback: () => void, ms: number): TimerHandle {
    return setTimeout(callback, ms) as unknown as TimerHandle;
  }
  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as unknown as NodeJS.Timeout);
  }
}

let sandbox: RunningSandbox;
let directory: string;
const clock = new ShiftedClock();
/** What the confirmer printed on "the host's terminal". */
const hostTerminal: string[] = [];
const ALLOW_DELAY_MS = 1_500;

/** The last code printed on the host's terminal. */
function printedCode(): string {
  const codes = [...hostTerminal.join('').matchAll(/confirmation code: (\d{4} \d{4})/g)].map((match) => match[1]!);
  if (codes.length === 0) throw new Error('no confirmation code was printed');
  return codes.at(-1)!;
}

/** A request the trusted confirmer guards: the first call prints a code, the second brings it. */
async function confirmed<T>(call: (code: string | undefined) => Promise<Result<T>> | Result<T>): Promise<T> {
  const asked = await call(undefined);
  expect(asked).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
  return value(await call(printedCode()));
}

/** Puts `to` on the allow-list (confirmed) and waits out the delay before first use. */
async function allow(terminal: Terminal, to: string): Promise<void> {
  await confirmed((confirmationCode) => terminal.handlers.allowWithdrawAddress({ to: { Address: to }, confirmationCode }, caller));
  await new Promise((resolve) => setTimeout(resolve, ALLOW_DELAY_MS + 50));
}

function network(): NetworkConfig {
  return { id: 'devnet', name: 'Sandbox (in process)', kind: 'devnet', restUrl: sandbox.url, wsUrl: null, faucetUrl: sandbox.url, faucetNetwork: 'sandbox', production: false };
}

function makeTerminal(dataDir: string, store: MemorySecretStore): Terminal {
  return createTerminal({
    clock,
    host: 'browser',
    version: 'test',
    dataDir,
    openKeychain: () => Promise.resolve(ok(store)),
    spawnSandbox: () => {
      throw new Error('this test runs its own sandbox');
    },
    networkOverride: network(),
    random: (length) => new Uint8Array(randomBytes(length)),
    // The browser host's trusted confirmer, its terminal captured: a test reads the code the way the
    // trader does. A short delay before first use of an allowed address keeps the tests quick.
    confirmer: new HostCodeConfirmer({ clock, random: (length) => new Uint8Array(randomBytes(length)), write: (text) => hostTerminal.push(text) }),
    allowDelayMs: () => ALLOW_DELAY_MS,
  });
}

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  return (await (await fetch(`${sandbox.url}${path}`, init)).json()) as T;
}

async function onAccount(tradeAccountId: string, assetId: string): Promise<bigint> {
  return BigInt((await json<{ trading_account_balance: string }>(`/v1/balance?contract=${tradeAccountId}&asset_id=${assetId}`)).trading_account_balance);
}

async function walletBalance(address: string, assetId: string): Promise<bigint> {
  return BigInt((await json<{ trading_account_balance: string; total_unlocked: string }>(`/v1/balance?address=${address}&asset_id=${assetId}`)).total_unlocked);
}

const randomAddress = () => b256(`0x${randomBytes(32).toString('hex')}`);

async function onboard(terminal: Terminal): Promise<{ tradeAccountId: string; usdc: string; eth: string }> {
  const h = terminal.handlers;
  const account = value(await h.createTradeAccount({}, caller));
  value(await h.mintFromFaucet({}, caller));
  value(await h.whitelistAccount({}, caller));
  const deposit = value(await h.getDepositInstructions({}, caller));
  const usdc = deposit.assets.find((asset) => asset.symbol === 'USDC')!.assetId;
  const eth = deposit.assets.find((asset) => asset.symbol === 'ETH')!.assetId;
  return { tradeAccountId: account.tradeAccountId, usdc, eth };
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', control: true });
  directory = mkdtempSync(join(tmpdir(), 'lt-custody-'));
});

afterAll(async () => {
  await sandbox?.close();
});

describe('a hot owner withdraws', () => {
  let terminal: Terminal;
  let tradeAccountId: string;
  let usdc: string;

  beforeAll(async () => {
    terminal = makeTerminal(mkdtempSync(join(tmpdir(), 'lt-custody-hot-')), new MemorySecretStore());
    value(await terminal.start());
    value(await terminal.handlers.createOwnerKey({ style: 'ledger' }, caller));
    ({ tradeAccountId, usdc } = await onboard(terminal));
  });

  afterAll(async () => {
    await terminal?.stop();
  });

  it('gives deposit instructions naming the contract, the asset ids and the amount, and that mainnet has no faucet', async () => {
    const deposit = value(await terminal.handlers.getDepositInstructions({}, caller));
    expect(deposit.tradeAccountId).toBe(tradeAccountId);
    expect(deposit.assets.map((asset) => asset.symbol)).toEqual(expect.arrayContaining(['ETH', 'USDC', 'USDT', 'BTC']));
    expect(deposit.assets.find((asset) => asset.symbol === 'USDC')?.decimals).toBe(6);
    expect(deposit.sentences[0]).toContain(tradeAccountId);
    expect(deposit.sentences[0]).toMatch(/must name the asset id and the amount/);
    expect(deposit.sentences.join(' ')).toMatch(/Mainnet has no faucet/);
  });

  it('moves the balance with a parallel nonce from the owner lane, and with the sequential nonce', async () => {
    const h = terminal.handlers;
    const before = await onAccount(tradeAccountId, usdc);
    expect(before).toBeGreaterThan(0n);
    const to = randomAddress();
    await allow(terminal, to);
    const first = await confirmed((confirmationCode) => h.withdraw({ assetId: usdc, amount: 1_250_000n, to: { Address: to }, confirmationCode }, caller));
    expect(first).toMatchObject({ kind: 'withdraw', status: 'accepted' });
    expect(first.txId).toMatch(/\S/);
    expect(first.description).toBe(`Withdraw 1.25 USDC (asset ${usdc}) from trade account ${tradeAccountId} to Address ${to}`);
    const second = await confirmed((confirmationCode) => h.withdraw({ assetId: usdc, amount: 750_000n, to: { Address: to }, nonce: 'sequential', confirmationCode }, caller));
    expect(second.status).toBe('accepted');
    expect(await onAccount(tradeAccountId, usdc)).toBe(before - 2_000_000n);
    expect(await walletBalance(to, usdc)).toBe(2_000_000n);

    const window = await json<{ slots: { word_position: string; bitmap: string }[] }>(`/v1/accounts/window?trade_account_id=${tradeAccountId}&nonce_session_id=4`);
    expect(window.slots.some((slot) => slot.bitmap !== '0')).toBe(true);
    const journal = value(await h.getJournal({ limit: 20 }, caller));
    const signed = journal.filter((entry) => entry.kind === 'signed' && entry.endpoint === 'POST /v1/accounts/withdraw');
    expect(signed).toHaveLength(2);
    expect(signed.map((entry) => entry.nonce)).toEqual(expect.arrayContaining([expect.stringMatching(/^lane 4 · /), expect.stringMatching(/^sequential /)]));
    for (const entry of signed) expect(journal.find((other) => other.kind === 'outcome' && other.id === entry.id)?.status).toBe('accepted');
  });

  it('refuses more than the on-account balance, an unknown asset, and the account itself, before signing', async () => {
    const h = terminal.handlers;
    const balance = await onAccount(tradeAccountId, usdc);
    const tooMuch = await h.withdraw({ assetId: usdc, amount: balance + 1n, to: { Address: randomAddress() } }, caller);
    expect(tooMuch).toMatchObject({ ok: false, code: 'INSUFFICIENT_ON_ACCOUNT' });
    expect(!tooMuch.ok && tooMuch.message).toContain(`(${balance} raw units) on the trading account itself`);
    expect(await h.withdraw({ assetId: randomAddress(), amount: 1n, to: { Address: randomAddress() } }, caller)).toMatchObject({ ok: false, code: 'UNKNOWN_ASSET' });
    expect(await h.withdraw({ assetId: usdc, amount: 1n, to: { ContractId: tradeAccountId } }, caller)).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect(await h.withdraw({ assetId: usdc, amount: 1n, to: { Address: `0x${'0'.repeat(64)}` } }, caller)).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect(await onAccount(tradeAccountId, usdc)).toBe(balance);
  });

  it('settles a lost answer by the nonce and never sends the withdrawal twice', async () => {
    const h = terminal.handlers;
    const before = await onAccount(tradeAccountId, usdc);
    const to = randomAddress();
    await allow(terminal, to);
    await json('/control/faults/drop', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 1, method: 'POST', path_prefix: '/v1/accounts/withdraw' }) });
    const lost = await confirmed((confirmationCode) => h.withdraw({ assetId: usdc, amount: 500_000n, to: { Address: to }, confirmationCode }, caller));
    expect(lost.status).toBe('landed');
    expect(lost.txId).toBeNull();
    expect(await onAccount(tradeAccountId, usdc)).toBe(before - 500_000n);
    expect(await walletBalance(to, usdc)).toBe(500_000n);
    const journal = value(await h.getJournal({ limit: 10 }, caller));
    expect(journal.find((entry) => entry.kind === 'reconciled' && entry.id === lost.journalId)?.status).toBe('landed');
    expect(journal.find((entry) => entry.kind === 'outcome' && entry.id === lost.journalId)?.status).toBe('unknown');
  });

  it('sends watch-only requests and the offline signer elsewhere', async () => {
    const h = terminal.handlers;
    expect(await h.prepareOwnerRequest({ kind: 'withdraw', assetId: usdc, amount: 1n, to: { Address: randomAddress() } }, caller)).toMatchObject({ ok: false, code: 'WRONG_CUSTODY' });
    expect(await h.offlineListKeystores({}, caller)).toMatchObject({ ok: false, code: 'OFFLINE_ONLY' });
    expect(await h.offlineBeginSecret({}, caller)).toMatchObject({ ok: false, code: 'OFFLINE_ONLY' });
  });

  it('the page alone cannot withdraw, allow an address, loosen a safety setting or move a network; the code printed on the host terminal completes each', async () => {
    // Everything a compromised page can do: call the bridge with any input (the dispatcher is what
    // the bridge reaches). Only the host's terminal shows the codes.
    const dispatch = createDispatcher(terminal.handlers, { allowedOrigins: [caller.frameUrl.replace(/\/$/, '')] });
    const call = (name: RequestName, input: unknown) => dispatch(name, input, caller);
    const before = await onAccount(tradeAccountId, usdc);
    const attacker = randomAddress();
    const take = (amount: bigint, confirmationCode?: string) => call('withdraw', { assetId: usdc, amount, to: { Address: attacker }, ...(confirmationCode === undefined ? {} : { confirmationCode }) });

    // Not on the allow-list: refused before anything is signed, whatever code comes along.
    expect(await take(1_000_000n)).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
    expect(await take(1_000_000n, '12345678')).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });

    // Adding it needs the code: guesses use up the attempts and the list stays as it was.
    expect(await call('allowWithdrawAddress', { to: { Address: attacker } })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(hostTerminal.join('')).toContain(`Address to allow (Address):\n      ${groupedId(attacker)}\n`);
    const real = printedCode().replace(' ', '');
    const guesses = ['00000000', '99999999', '12345678'].filter((guess) => guess !== real);
    for (const guess of guesses) expect(await call('allowWithdrawAddress', { to: { Address: attacker }, confirmationCode: guess })).toMatchObject({ ok: false, code: 'CONFIRMATION_CODE_WRONG' });
    expect(await call('allowWithdrawAddress', { to: { Address: attacker }, confirmationCode: real })).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
    const listed = await call('getWithdrawAddresses', {});
    expect(listed.ok && (listed.value as { addresses: { value: string }[] }).addresses.map((address) => address.value)).not.toContain(attacker);

    // Once the trader typed the code the address is on the list, but not usable before its delay.
    await confirmed((confirmationCode) => terminal.handlers.allowWithdrawAddress({ to: { Address: attacker }, label: 'test', confirmationCode }, caller));
    expect(await take(1_000_000n)).toMatchObject({ ok: false, code: 'ADDRESS_NOT_YET_USABLE' });
    await new Promise((resolve) => setTimeout(resolve, ALLOW_DELAY_MS + 50));

    // Usable now, and still each withdrawal needs its own code, for its exact amount and destination.
    expect(await take(1_000_000n)).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    const printed = hostTerminal.join('');
    expect(printed).toContain(`To (Address, on the allow-list):\n      ${groupedId(attacker)}\n`);
    expect(printed).toContain('Amount: 1 USDC (1000000 raw units)');
    expect(printed).toContain(`Asset: USDC, asset id ${usdc}`);
    const forOne = printedCode();
    expect(await take(2_000_000n, forOne)).toMatchObject({ ok: false, code: 'CONFIRMATION_EXPIRED' });
    // Any code the page makes up.
    await checkProperty(
      fc.asyncProperty(fc.stringMatching(/^\d{8}$/), async (guess) => {
        expect((await take(3_000_000n, guess)).ok).toBe(false);
      }),
      { numRuns: 12 },
    );
    expect(await onAccount(tradeAccountId, usdc)).toBe(before);
    expect(await walletBalance(attacker, usdc)).toBe(0n);
    // With the code printed for it, the withdrawal the trader asked for goes through.
    expect(await take(1_000_000n)).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(await take(1_000_000n, printedCode())).toMatchObject({ ok: true, value: { status: 'accepted' } });
    expect(await walletBalance(attacker, usdc)).toBe(1_000_000n);

    // Safety settings: turning confirmations off, raising or removing a cap, longer sessions.
    const settings = async () => value(await terminal.handlers.getSettings({}, caller));
    expect(await call('updateSettings', { confirmOrders: false })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(hostTerminal.join('')).toContain('Confirm every order: on → off');
    expect(await call('updateSettings', { confirmOrders: false, confirmationCode: '00000001' })).toMatchObject({ ok: false });
    expect((await settings()).confirmOrders).toBe(true);
    const market = (await call('listMarkets', {})) as Result<{ markets: { market_id: string }[] }>;
    const marketId = value(market).markets[0]!.market_id;
    expect(await call('updateSettings', { maxOrderQuantity: { [marketId]: 10n } })).toMatchObject({ ok: true });
    expect(await call('updateSettings', { maxOrderQuantity: { [marketId]: 20n } })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(await call('updateSettings', { maxOrderQuantity: {} })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(await call('updateSettings', { sessionDays: 365 })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    // A session longer than the configured length, asked for directly: the same code, nothing signed without it.
    expect(await call('createSession', { marketIds: [marketId], days: 365 })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(hostTerminal.join('')).toContain('Session length: 365 days (the configured length is 30 days)');
    expect(await call('createSession', { marketIds: [marketId], hours: 8760, confirmationCode: '00000001' })).toMatchObject({ ok: false });
    expect((await settings()).maxOrderQuantity).toEqual({ [marketId]: 10n });
    // Tightening needs nothing; loosening completes with its code.
    expect(await call('updateSettings', { maxOrderQuantity: { [marketId]: 5n }, sound: false })).toMatchObject({ ok: true });
    await confirmed((confirmationCode) => call('updateSettings', { confirmOrders: false, maxOrderQuantity: {}, ...(confirmationCode === undefined ? {} : { confirmationCode }) }));
    expect(await settings()).toMatchObject({ confirmOrders: false, maxOrderQuantity: {} });
    expect(await call('updateSettings', { confirmOrders: true })).toMatchObject({ ok: true });

    // The bound of a Turbo Account's market orders: tightening needs nothing, widening needs the code.
    const bound = async () => (value(await terminal.handlers.getMarginOverview({}, caller)) as { settings: { marketSlippageBps: number } }).settings.marketSlippageBps;
    expect(await call('updateMarginSettings', { marketSlippageBps: 50 })).toMatchObject({ ok: true });
    expect(await call('updateMarginSettings', { marketSlippageBps: 500 })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(hostTerminal.join('')).toContain('Bound of Turbo market orders: 50 bps → 500 bps');
    expect(await call('updateMarginSettings', { marketSlippageBps: 500, confirmationCode: '00000001' })).toMatchObject({ ok: false });
    expect(await bound()).toBe(50);
    await confirmed((confirmationCode) => call('updateMarginSettings', { marketSlippageBps: 500, ...(confirmationCode === undefined ? {} : { confirmationCode }) }));
    expect(await bound()).toBe(500);

    // Network addresses: a new URL is confirmed; plaintext off loopback and mainnet are refused outright.
    const testnet = async () => (value(await terminal.handlers.listNetworks({}, caller)) as readonly { id: string; restUrl: string | null }[]).find((network) => network.id === 'testnet')!;
    expect(await call('configureNetwork', { networkId: 'testnet', restUrl: 'https://exchange.example', wsUrl: null, faucetUrl: null })).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(hostTerminal.join('')).toContain('REST: https://exchange.example');
    expect((await testnet()).restUrl).toBeNull();
    expect(await call('configureNetwork', { networkId: 'testnet', restUrl: 'http://exchange.example', wsUrl: null, faucetUrl: null })).toMatchObject({ ok: false, code: 'INSECURE_NETWORK_URL' });
    expect(await call('configureNetwork', { networkId: 'testnet', restUrl: 'https://exchange.example', wsUrl: 'ws://exchange.example/v1/ws', faucetUrl: null })).toMatchObject({ ok: false, code: 'INSECURE_NETWORK_URL' });
    expect(await call('configureNetwork', { networkId: 'mainnet', restUrl: 'https://exchange.example', wsUrl: null, faucetUrl: null })).toMatchObject({ ok: false, code: 'NETWORK_PINNED' });
    await confirmed((confirmationCode) => call('configureNetwork', { networkId: 'testnet', restUrl: 'https://exchange.example', wsUrl: null, faucetUrl: null, ...(confirmationCode === undefined ? {} : { confirmationCode }) }));
    expect((await testnet()).restUrl).toBe('https://exchange.example');
  });

  it('looks referral codes up, refuses invalid or inactive ones, and registers a valid one with the trading session', async () => {
    const h = terminal.handlers;
    expect(value(await h.lookupReferralCode({ code: 'SANDBOX' }, caller))).toMatchObject({ valid: true, active: true, usable: true });
    expect(value(await h.lookupReferralCode({ code: 'RETIRED' }, caller))).toMatchObject({ valid: true, active: false, usable: false });
    expect(value(await h.lookupReferralCode({ code: 'NOPE' }, caller))).toMatchObject({ valid: false, usable: false });
    expect(await h.registerReferral({ code: 'SANDBOX' }, caller)).toMatchObject({ ok: false, code: 'NO_SESSION' });
    const markets = value(await h.listMarkets({}, caller));
    value(await h.createSession({ marketIds: [markets.markets[0]!.market_id], hours: 2 }, caller));
    // A session covers the accounts registry, which RegisterReferer targets.
    expect((await h.registerReferral({ code: 'SANDBOX' }, caller)).ok).toBe(true);
    expect(await h.registerReferral({ code: 'RETIRED' }, caller)).toMatchObject({ ok: false });
    expect(await h.registerReferral({ code: 'NOPE' }, caller)).toMatchObject({ ok: false });
  });
});

describe('a watch-only owner signs offline', () => {
  const store = new MemorySecretStore();
  let dataDir: string;
  let terminal: Terminal;
  let owner: B256;
  let keystore: string;
  let tradeAccountId: string;
  let usdc: string;
  let otherKey: Uint8Array;
  let otherKeystore: string;

  const prepareWithdraw = async (amount: bigint, to: B256, nonce?: 'sequential' | 'parallel') =>
    value(await terminal.handlers.prepareOwnerRequest({ kind: 'withdraw', assetId: usdc, amount, to: { Address: to }, ...(nonce ? { nonce } : {}) }, caller));

  const writeRequest = (view: OwnerRequestView): string => {
    const path = join(directory, `${view.requestId}.json`);
    writeFileSync(path, view.fileText);
    return path;
  };

  const signOffline = async (view: OwnerRequestView, extra: readonly string[] = []): Promise<{ text: string; path: string; run: Run }> => {
    const request = writeRequest(view);
    const out = join(directory, `${view.requestId}.signature.json`);
    const run = await signer(['sign', '--keystore', keystore, '--request', request, '--out', out, '--yes', ...extra]);
    if (run.code !== 0) throw new Error(`signer exited ${run.code}: ${run.stderr}`);
    return { text: readFileSync(out, 'utf8'), path: out, run };
  };

  beforeAll(async () => {
    keystore = join(directory, 'owner.keystore.json');
    const created = await signer(['create-keystore', '--out', keystore, '--style', 'ledger', '--test-only-weak-kdf']);
    expect(created.code, created.stderr).toBe(0);
    owner = b256(/^address: (0x[0-9a-f]{64})$/m.exec(created.stdout)![1]!);
    otherKey = generatePrivateKey((length) => new Uint8Array(randomBytes(length)));
    otherKeystore = join(directory, 'other.keystore.json');
    const imported = await signer(['import-keystore', '--out', otherKeystore, '--style', 'ledger', '--test-only-weak-kdf'], bytesToHex(otherKey));
    expect(imported.code, imported.stderr).toBe(0);

    dataDir = mkdtempSync(join(tmpdir(), 'lt-custody-watch-'));
    terminal = makeTerminal(dataDir, store);
    value(await terminal.start());
    value(await terminal.handlers.registerWatchOnlyOwner({ address: owner, style: 'ledger' }, caller));
    ({ tradeAccountId, usdc } = await onboard(terminal));
  });

  afterAll(async () => {
    await terminal?.stop();
  });

  it('refuses to sign for a watch-only owner, and prepares the request instead', async () => {
    const h = terminal.handlers;
    expect(await h.withdraw({ assetId: usdc, amount: 1n, to: { Address: randomAddress() } }, caller)).toMatchObject({ ok: false, code: 'WRONG_CUSTODY' });
    const to = randomAddress();
    const before = Math.floor(Date.now() / 1000);
    const view = await prepareWithdraw(3_000_000n, to);
    expect(view).toMatchObject({ kind: 'withdraw', state: 'awaiting-signature', owner, tradeAccountId });
    expect(view.description).toBe(`Withdraw 3 USDC (asset ${usdc}) from trade account ${tradeAccountId} to Address ${to}`);
    expect(view.nonce.kind).toBe('parallel');
    if (view.nonce.kind === 'parallel') {
      expect(view.nonce.lane).toBe(4);
      // offlineNonceTtlSeconds: the request's 24 h plus an hour.
      expect(Number(view.nonce.expiry) - before).toBeGreaterThanOrEqual(25 * 3600 - 5);
      expect(Number(view.nonce.expiry) - before).toBeLessThanOrEqual(25 * 3600 + 5);
    }
    expect(Number(view.expiresAt - view.createdAt)).toBe(24 * 3600);
    expect(view.lines.find((line) => line.label === 'Destination')?.value).toBe(`Address ${to}`);
    expect(view.qrPayloads.length).toBeGreaterThan(1);
    expect(view.qrImages).toHaveLength(view.qrPayloads.length);
    for (const image of view.qrImages) expect(image).toMatch(/^data:image\/png;base64,/);
    expect(verifyOfflineRequest(JSON.parse(view.fileText), { nowSeconds: BigInt(before) }).ok).toBe(true);

    expect(await prepareWithdraw(1n, to).catch((error: Error) => error.message)).toMatch(/^REQUEST_PENDING/);
    const listed = value(await h.getOwnerRequests({}, caller));
    expect(listed.pending.map((pending) => pending.requestId)).toEqual([view.requestId]);
  });

  it('imports the signature the CLI made with a keystore of the same owner, verifies it, submits it, and the balance moves', async () => {
    const h = terminal.handlers;
    const [view] = value(await h.getOwnerRequests({}, caller)).pending;
    const to = (/to Address (0x[0-9a-f]{64})$/.exec(view!.description) ?? [])[1]!;
    const before = await onAccount(tradeAccountId, usdc);
    const signed = await signOffline(view!);
    expect(signed.run.stdout).toContain('Check: OK');
    const result = value(await h.importOwnerSignature({ text: signed.text }, caller));
    expect(result).toMatchObject({ kind: 'withdraw', status: 'accepted', requestId: view!.requestId });
    expect(await onAccount(tradeAccountId, usdc)).toBe(before - 3_000_000n);
    expect(await walletBalance(to, usdc)).toBe(3_000_000n);
    const after = value(await h.getOwnerRequests({}, caller));
    expect(after.pending).toEqual([]);
    expect(after.lastResult?.journalId).toBe(result.journalId);
    const journal = value(await h.getJournal({ limit: 10 }, caller));
    expect(journal.find((entry) => entry.kind === 'signed' && entry.id === result.journalId)).toMatchObject({ endpoint: 'POST /v1/accounts/withdraw', description: view!.description });
    // The same signature again: its request is gone, nothing is sent twice.
    expect(await h.importOwnerSignature({ text: signed.text }, caller)).toMatchObject({ ok: false, code: 'NO_PENDING_REQUEST' });
  });

  it('refuses a tampered request at the signer, and a signature of another request at the terminal', async () => {
    const h = terminal.handlers;
    const view = await prepareWithdraw(1_000_000n, randomAddress());
    // Edited on the way (the amount): the signer rebuilds the bytes and refuses.
    const edited = JSON.parse(view.fileText) as { withdraw: { amount: string } };
    edited.withdraw.amount = '900000000';
    const editedPath = join(directory, 'edited.json');
    writeFileSync(editedPath, JSON.stringify(edited, null, 2));
    const refused = await signer(['sign', '--keystore', keystore, '--request', editedPath, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/REFUSED \[OFFLINE_MESSAGE_MISMATCH\]/);

    // Edited consistently (another destination, same request id): the signer signs what it shows, and the
    // terminal refuses the signature because it is not for the request it made.
    const pending = verifyOfflineRequest(JSON.parse(view.fileText), { nowSeconds: BigInt(Math.floor(Date.now() / 1000)) });
    if (!pending.ok) throw new Error(pending.message);
    const original = pending.value.request;
    if (original.kind !== 'withdraw') throw new Error('expected a withdrawal');
    const idBytes = Buffer.from(original.request_id, 'hex');
    const forged = buildWithdrawRequest({
      network: original.network,
      chain_id: original.chain_id,
      owner: original.owner,
      trade_account_id: original.trade_account_id,
      nowSeconds: original.created_at,
      random: () => new Uint8Array(idBytes),
      nonce: parallelNonce(original.nonce.value),
      to: { Address: randomAddress() },
      amount: original.withdraw.amount,
      asset: { id: original.withdraw.asset_id, symbol: original.withdraw.asset_symbol, decimals: original.withdraw.asset_decimals },
    });
    if (!forged.ok) throw new Error(forged.message);
    const forgedPath = join(directory, 'forged.json');
    writeFileSync(forgedPath, prettyCanonicalJson(requestToJson(forged.value.request)));
    const forgedOut = join(directory, 'forged.signature.json');
    const signedForged = await signer(['sign', '--keystore', keystore, '--request', forgedPath, '--out', forgedOut, '--yes']);
    expect(signedForged.code, signedForged.stderr).toBe(0);
    const mismatch = await h.importOwnerSignature({ text: readFileSync(forgedOut, 'utf8') }, caller);
    expect(mismatch).toMatchObject({ ok: false, code: 'OFFLINE_RESPONSE_MISMATCH' });
    expect(!mismatch.ok && mismatch.message).toMatch(/request_hash/);
  });

  it('refuses a signature from another key, whether it says so or claims to be the owner', async () => {
    const h = terminal.handlers;
    const [view] = value(await h.getOwnerRequests({}, caller)).pending;
    // The CLI will not even ask for the passphrase of another owner's keystore.
    const refused = await signer(['sign', '--keystore', otherKeystore, '--request', writeRequest(view!), '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/REFUSED \[OFFLINE_WRONG_OWNER\]/);

    const verified = verifyOfflineRequest(JSON.parse(view!.fileText), { nowSeconds: BigInt(Math.floor(Date.now() / 1000)) });
    if (!verified.ok) throw new Error(verified.message);
    const signature = bytesToPrefixedHex(signDigest(verified.value.digest, otherKey));
    const response = (signer: string) =>
      JSON.stringify(responseToJson({ version: 1, request_id: view!.requestId, request_hash: view!.requestHash, signature, signer: signer as B256 }));
    const otherAddress = addressOf(publicKeyOf(otherKey), 'ledger');
    expect(await h.importOwnerSignature({ text: response(otherAddress) }, caller)).toMatchObject({ ok: false, code: 'OFFLINE_WRONG_OWNER' });
    const claimed = await h.importOwnerSignature({ text: response(owner) }, caller);
    expect(claimed).toMatchObject({ ok: false, code: 'OFFLINE_SIGNATURE_INVALID' });
  });

  it('refuses an expired request with the reason, and lets it be cancelled', async () => {
    const h = terminal.handlers;
    const [view] = value(await h.getOwnerRequests({}, caller)).pending;
    const signed = await signOffline(view!);
    const before = await onAccount(tradeAccountId, usdc);
    clock.offsetMs = 24 * 3600 * 1000 + 1000;
    try {
      const expired = await h.importOwnerSignature({ text: signed.text }, caller);
      expect(expired).toMatchObject({ ok: false, code: 'OFFLINE_EXPIRED' });
      expect(!expired.ok && expired.message).toMatch(/request\.expires_at: the request expired at/);
      expect(value(await h.getOwnerRequests({}, caller)).pending[0]?.state).toBe('expired');
    } finally {
      clock.offsetMs = 0;
    }
    expect(await onAccount(tradeAccountId, usdc)).toBe(before);
    expect(value(await h.cancelOwnerRequest({ kind: 'withdraw' }, caller)).pending).toEqual([]);
    expect(await h.cancelOwnerRequest({ kind: 'withdraw' }, caller)).toMatchObject({ ok: false, code: 'NO_PENDING_REQUEST' });
  });

  it('puts a session prepared here and signed offline in force from its QR payloads, trades with it and registers a referral', async () => {
    const h = terminal.handlers;
    expect(await h.createSession({ marketIds: [], hours: 1 }, caller)).toMatchObject({ ok: false });
    const markets = value(await h.listMarkets({}, caller));
    const market = markets.markets[0]!;
    const view = value(await h.prepareOwnerRequest({ kind: 'session', marketIds: [market.market_id], hours: 48 }, caller));
    expect(view.kind).toBe('session');
    expect(view.nonce.kind).toBe('sequential');
    const sessionAddress = view.lines.find((line) => line.label === 'Session key')!.value;
    expect(store.entries.has(`session:${sessionAddress}`)).toBe(true);
    const qrDir = join(directory, 'qr-session');
    await signOffline(view, ['--qr-dir', qrDir]);
    const partsFile = readFileSync(join(qrDir, `signature-${view.requestId.slice(0, 8)}-parts.txt`), 'utf8');
    // Parts in another order, with a repeat, as a camera would read a loop.
    const parts = partsFile.trim().split('\n');
    const text = [...parts].reverse().concat(parts[0]!).join('\n');
    const result = value(await h.importOwnerSignature({ text }, caller));
    expect(result).toMatchObject({ kind: 'session', status: 'accepted' });
    expect(result.session?.sessionAddress).toBe(sessionAddress);

    const state = value(await h.getAccountState({}, caller));
    expect(state.canTrade).toBe(true);
    expect(state.session?.sessionAddress).toBe(sessionAddress);
    const ledger = await json<{ accounts: { trade_account_id: string; session: { session_id: { Address: string } } | null; referer: unknown }[] }>('/control/ledger');
    expect(ledger.accounts.find((account) => account.trade_account_id === tradeAccountId)?.session?.session_id.Address).toBe(sessionAddress);

    const depth = await json<{ view?: { buys: { price: string }[] }; orders?: { buys: { price: string }[] } }>(`/v1/depth?market_id=${market.market_id}&precision=10`);
    const bestBid = BigInt((depth.view ?? depth.orders)!.buys[0]!.price);
    const tick = 10n ** BigInt(market.quote.decimals - market.quote.max_precision);
    const price = ((bestBid * 9n) / 10n / tick) * tick;
    const step = 10n ** BigInt(market.base.decimals - market.base.max_precision);
    const byValue = ((2n * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 2n) * step;
    const byDust = ((market.dust + step - 1n) / step) * step;
    const placed = value(await h.placeOrder({ marketId: market.market_id, side: 'Buy', orderType: { kind: 'Spot' }, price, quantity: byValue > byDust ? byValue : byDust }, caller));
    expect(placed.orders).toHaveLength(1);

    expect(await h.registerReferral({ code: 'RETIRED' }, caller)).toMatchObject({ ok: false, code: 'REFERRAL_INACTIVE' });
    expect(await h.registerReferral({ code: 'NOPE' }, caller)).toMatchObject({ ok: false, code: 'REFERRAL_INVALID' });
    const referral = value(await h.registerReferral({ code: 'SANDBOX' }, caller));
    const info = await json<{ ownerAddress: string }>('/analytics/v1/referral/code-info?code=SANDBOX');
    expect(referral.refererAddress).toBe(info.ownerAddress);
    const after = await json<{ accounts: { trade_account_id: string; referer: { Address: string } | null }[] }>('/control/ledger');
    expect(after.accounts.find((account) => account.trade_account_id === tradeAccountId)?.referer).toEqual({ Address: info.ownerAddress });
  });

  it('keeps a pending request across a restart, and refuses it with the reason once its sequential nonce was used', async () => {
    const to = randomAddress();
    const view = await prepareWithdraw(2_000_000n, to, 'sequential');
    expect(view.nonce.kind).toBe('sequential');
    await terminal.stop();
    terminal = makeTerminal(dataDir, store);
    value(await terminal.start());
    const h = terminal.handlers;
    const restored = value(await h.getOwnerRequests({}, caller));
    expect(restored.pending.map((pending) => [pending.requestId, pending.state])).toEqual([[view.requestId, 'awaiting-signature']]);
    const signed = await signOffline(restored.pending[0]!);

    // An order (sequential nonce, the default) takes the account nonce first.
    const markets = value(await h.listMarkets({}, caller));
    const open = value(await h.getOrders({}, caller)).open;
    value(await h.cancelOrder({ marketId: markets.markets[0]!.market_id, orderId: open[0]!.orderId }, caller));
    const stale = await h.importOwnerSignature({ text: signed.text }, caller);
    expect(stale).toMatchObject({ ok: false, code: 'OWNER_NONCE_STALE' });
    expect(!stale.ok && stale.message).toMatch(/another owner action or order came first/);
    expect(await walletBalance(to, usdc)).toBe(0n);
    expect(value(await h.getOwnerRequests({}, caller)).pending).toEqual([]);
  });
});

describe("a watch-only owner's owner methods go through the offline signer", () => {
  const store = new MemorySecretStore();
  let terminal: Terminal;
  let keystore: string;
  let tradeAccountId: string;
  let marketId: string;

  const prepare = async (method: string, parameters: Record<string, string>) =>
    value(await terminal.handlers.prepareOwnerRequest({ kind: 'owner-call', method, parameters }, caller));

  const signOffline = async (view: OwnerRequestView): Promise<string> => {
    const request = join(directory, `${view.requestId}.json`);
    writeFileSync(request, view.fileText);
    const out = join(directory, `${view.requestId}.signature.json`);
    const run = await signer(['sign', '--keystore', keystore, '--request', request, '--out', out, '--yes']);
    if (run.code !== 0) throw new Error(`signer exited ${run.code}: ${run.stderr}`);
    expect(run.stdout).toContain('Check: OK');
    return readFileSync(out, 'utf8');
  };

  const ledger = async () => (await json<{ accounts: { trade_account_id: string; implementation: string }[] }>('/control/ledger')).accounts.find((account) => account.trade_account_id === tradeAccountId)!;

  beforeAll(async () => {
    keystore = join(directory, 'owner-calls.keystore.json');
    const created = await signer(['create-keystore', '--out', keystore, '--style', 'ledger', '--test-only-weak-kdf']);
    expect(created.code, created.stderr).toBe(0);
    const owner = b256(/^address: (0x[0-9a-f]{64})$/m.exec(created.stdout)![1]!);
    terminal = makeTerminal(mkdtempSync(join(tmpdir(), 'lt-custody-owner-calls-')), store);
    value(await terminal.start());
    value(await terminal.handlers.registerWatchOnlyOwner({ address: owner, style: 'ledger' }, caller));
    ({ tradeAccountId } = await onboard(terminal));
    marketId = value(await terminal.handlers.listMarkets({}, caller)).markets[0]!.market_id;
  });

  afterAll(async () => {
    await terminal?.stop();
  });

  it('refuses to sign here, prepares the request with every call shown, and a tampered call is refused by the signer', async () => {
    const h = terminal.handlers;
    const refused = await h.callOwnerMethod({ method: 'settleBalance', parameters: { marketId } }, caller);
    expect(refused).toMatchObject({ ok: false, code: 'WRONG_CUSTODY' });
    expect(!refused.ok && refused.message).toContain('Prepare the request for the offline signer');
    expect(await h.prepareOwnerRequest({ kind: 'owner-call', method: 'transfer', parameters: {} }, caller)).toMatchObject({ ok: false, code: 'OWNER_METHOD_NOT_ALLOWED' });
    const view = await prepare('settleBalance', { marketId });
    expect(view).toMatchObject({ kind: 'owner-call', state: 'awaiting-signature', tradeAccountId });
    expect(view.nonce).toMatchObject({ kind: 'parallel', lane: 4 });
    expect(view.lines.find((line) => line.label === 'Endpoint')?.value).toBe('POST /v1/accounts/actions');
    expect(view.lines.find((line) => line.label === 'Call 1/1 function')?.value).toBe('settle_balance');
    expect(view.lines.find((line) => line.label === 'Parameter marketId')?.value).toContain(marketId);
    expect(await h.prepareOwnerRequest({ kind: 'owner-call', method: 'whitelist', parameters: { marketId } }, caller)).toMatchObject({ ok: false, code: 'REQUEST_PENDING' });

    const edited = JSON.parse(view.fileText) as { owner_call: { calls: { selector: string }[] } };
    edited.owner_call.calls[0]!.selector = 'withdraw';
    const editedPath = join(directory, 'edited-owner-call.json');
    writeFileSync(editedPath, JSON.stringify(edited, null, 2));
    const tampered = await signer(['sign', '--keystore', keystore, '--request', editedPath, '--yes']);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain('OFFLINE_MESSAGE_MISMATCH');
    value(await h.cancelOwnerRequest({ kind: 'owner-call' }, caller));
  });

  it('upgrade: signed offline and imported, the exchange moves the account to the implementation it publishes', async () => {
    const h = terminal.handlers;
    // A wrong implementation: the signature is valid (the message carries none) and the exchange refuses it by name.
    const wrong = await prepare('upgrade', { implementation: `0x${'77'.repeat(32)}` });
    const refused = await h.importOwnerSignature({ text: await signOffline(wrong) }, caller);
    expect(refused.ok).toBe(false);
    const published = /publishes (0x[0-9a-f]{64})/.exec(refused.ok ? '' : refused.message)?.[1];
    expect(published).toBeDefined();
    value(await h.cancelOwnerRequest({ kind: 'owner-call' }, caller));
    expect((await ledger()).implementation).not.toBe(published);

    const view = await prepare('upgrade', { implementation: published! });
    const result = value(await h.importOwnerSignature({ text: await signOffline(view) }, caller));
    expect(result).toMatchObject({ kind: 'owner-call', status: 'accepted', requestId: view.requestId });
    expect((await ledger()).implementation).toBe(published);
    const journal = value(await h.getJournal({ limit: 10 }, caller));
    expect(journal.find((entry) => entry.kind === 'signed' && entry.id === result.journalId)).toMatchObject({ endpoint: 'POST /v1/accounts/upgrade' });
    expect(value(await h.getOwnerRequests({}, caller)).pending).toEqual([]);
  });

  it('a lost answer is looked up by the nonce and never sent twice', async () => {
    const h = terminal.handlers;
    const view = await prepare('settleBalance', { marketId });
    const text = await signOffline(view);
    await json('/control/faults/drop', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 1, method: 'POST', path_prefix: '/v1/accounts/actions' }) });
    const lost = value(await h.importOwnerSignature({ text }, caller));
    expect(lost).toMatchObject({ kind: 'owner-call', status: 'landed', txId: null });
    const journal = value(await h.getJournal({ limit: 20 }, caller));
    expect(journal.filter((entry) => entry.kind === 'signed' && entry.endpoint === 'POST /v1/accounts/actions')).toHaveLength(1);
    expect(journal.find((entry) => entry.kind === 'reconciled' && entry.id === lost.journalId)?.status).toBe('landed');
    if (view.nonce.kind !== 'parallel') throw new Error('a parallel nonce was expected');
    const window = await json<{ slots: { word_position: string; bitmap: string }[] }>(`/v1/accounts/window?trade_account_id=${tradeAccountId}&nonce_session_id=${view.nonce.lane}`);
    const slot = window.slots.find((candidate) => BigInt(candidate.word_position) === (view.nonce.kind === 'parallel' ? view.nonce.wordPosition : -1n));
    expect(slot && (BigInt(slot.bitmap) >> BigInt(view.nonce.bitPosition)) & 1n).toBe(1n);
    // The same signature again: its request is settled, nothing is sent.
    expect(await h.importOwnerSignature({ text }, caller)).toMatchObject({ ok: false, code: 'NO_PENDING_REQUEST' });
  });
});
