// Accounts, sessions and session actions over HTTP, signed with shared/protocol as a client
// would: the happy path and the spec's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { StreamClient } from '../../support/sandbox/stream-client';
import { sha256, signDigest } from '../../../shared/crypto/index';
import { sessionDigest } from '../../../shared/protocol/session';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

let sandbox: RunningSandbox;
let client: SandboxClient;
let ethUsdc: Market;
let fuelUsdc: Market;
let registry: B256;
const ETH = 1_000_000_000n;
const USDC = 1_000_000n;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, rateLimits: false });
  client = new SandboxClient(sandbox.url);
  const markets = await client.markets();
  registry = markets.accountsRegistryId;
  ethUsdc = markets.markets.find((m) => m.base.symbol === 'ETH' && m.quote.symbol === 'USDC') as Market;
  fuelUsdc = markets.markets.find((m) => m.base.symbol === 'FUEL') as Market;
});

afterAll(async () => {
  await sandbox.close();
});

describe('accounts', () => {
  it('deploys one account per owner, nonce 0x0, and looks it up in every form', async () => {
    const trader = await Trader.create(client, { fund: false });
    const again = await client.request<{ trade_account_id: string; nonce: string }>('POST', '/v1/accounts', { identity: { Address: trader.owner.address } });
    expect(again.body).toEqual({ trade_account_id: trader.accountId, nonce: '0x0' });
    const byOwner = await client.get<Record<string, unknown>>(`/v1/accounts?owner=${trader.owner.address.slice(2)}`);
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.trade_account_id).toBe(trader.accountId);
    const byId = await client.get<{ trade_account: { nonce: string; synced_with_network: boolean } }>(`/v1/accounts?trade_account_id=${trader.accountId}`);
    expect(byId.body.trade_account.nonce).toBe('0');
    expect(byId.body.trade_account.synced_with_network).toBe(true);
    const missingOwner = await client.get(`/v1/accounts?owner=0x${'ab'.repeat(32)}`);
    expect(missingOwner).toEqual({ status: 404, body: { code: 4002, name: 'AccountNotFound', message: 'Account not found' } });
    const missingId = await client.get(`/v1/accounts?trade_account_id=0x${'ab'.repeat(32)}`);
    expect(missingId).toEqual({ status: 200, body: { trade_account_id: null, trade_account: null, session: null } });
    const both = await client.get(`/v1/accounts?owner=${trader.owner.address}&trade_account_id=${trader.accountId}`);
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('owner and trade_account_id');
  });

  it('mints with a 60 s cooldown per target and whitelists once', async () => {
    const trader = await Trader.create(client);
    const again = await client.request('POST', '/api/sandbox/mint-v2', { contract: trader.accountId });
    expect(again.status).toBe(429);
    expect(String(again.body.error)).toContain('cooldown');
    const first = await client.request('POST', '/analytics/v1/whitelist', { tradeAccount: trader.accountId });
    expect(first.body).toEqual({ success: true, tradeAccount: trader.accountId });
    const second = await client.request('POST', '/analytics/v1/whitelist', { tradeAccount: trader.accountId });
    expect(second.body).toEqual({ success: true, tradeAccount: trader.accountId, alreadyWhitelisted: true });
    const balance = await client.get<{ trading_account_balance: string; total_unlocked: string }>(`/v1/balance?contract=${trader.accountId}&asset_id=${ethUsdc.quote.asset}`);
    expect(balance.body.trading_account_balance).toBe((100_000n * USDC).toString());
  });

  it('lists only markets with a Turbo book for turbo=true; market reads of the others refuse', async () => {
    const turbo = await client.get<{ markets: { market_id: string }[] }>('/v1/markets?turbo=true');
    expect(turbo.body.markets.map((row) => row.market_id)).toContain(ethUsdc.market_id);
    expect(turbo.body.markets.map((row) => row.market_id)).not.toContain(fuelUsdc.market_id);
    // Margin 7: MarketNotFound, by name on the wire, with the spec's message; every Turbo read refuses alike.
    const refusal = { status: 404, body: { code: 2001, name: 'MarketNotFound', message: `Market ${fuelUsdc.market_id} has no Turbo order book` } };
    for (const path of ['/v1/depth', '/v1/trades', '/v1/bars', '/v1/orders/book']) {
      const read = await client.get(`${path}?market_id=${fuelUsdc.market_id}&turbo=true&resolution=1m&from=0&to=1&precision=10`);
      expect({ path, ...read }).toEqual({ path, ...refusal });
    }
    // Every other refusal names its error too (docs/sandbox.md, Error codes).
    expect((await client.get(`/v1/depth?market_id=0x${'ab'.repeat(32)}`)).body).toMatchObject({ code: 2001, name: 'MarketNotFound' });
    expect((await client.get('/v1/no-such-endpoint')).body).toMatchObject({ code: 1002, name: 'NotFound' });
    // The stream says it by name as well: `{error, name}`.
    const stream = await StreamClient.open(sandbox.url);
    try {
      stream.send({ action: 'subscribe_trades', market_id: fuelUsdc.market_id, turbo: true });
      const error = await stream.waitFor((message) => typeof message.error === 'string');
      expect(error).toEqual({ error: `Market ${fuelUsdc.market_id} has no Turbo order book`, name: 'MarketNotFound' });
    } finally {
      stream.close();
    }
  });

  it('answers referral code lookups', async () => {
    expect((await client.get('/analytics/v1/referral/code-info?code=SANDBOX')).body).toMatchObject({ valid: true, isActive: true });
    expect((await client.get('/analytics/v1/referral/code-info?code=RETIRED')).body).toMatchObject({ valid: true, isActive: false });
    expect((await client.get('/analytics/v1/referral/code-info?code=NOPE')).body).toEqual({ valid: false, ownerAddress: null, isActive: false });
  });
});

describe('sessions', () => {
  it('creates a session for both owner styles and advances the nonce', async () => {
    for (const style of ['ledger', 'evm'] as const) {
      const trader = await Trader.create(client, { style });
      const result = await trader.openSession([ethUsdc.contract_id], secondsFromNow(30n * 24n * HOUR));
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body.trade_account_id).toBe(trader.accountId);
      expect(await trader.readNonce()).toBe(1n);
    }
  });

  it('refuses an expiry in milliseconds or under an hour, a stale nonce, a missing header and a bad signature', async () => {
    const trader = await Trader.create(client);
    const { newWallet } = await import('../../support/sandbox/client');
    const key = newWallet();
    const ms = trader.sessionRequestBody([ethUsdc.contract_id], BigInt(Date.now()) + 10_000_000n, key);
    expect((await client.request('PUT', '/v1/session', ms, trader.headers)).body).toMatchObject({ code: 4009 });
    const soon = trader.sessionRequestBody([ethUsdc.contract_id], secondsFromNow(600n), key);
    expect((await client.request('PUT', '/v1/session', soon, trader.headers)).body).toMatchObject({ code: 4009 });
    const stale = trader.sessionRequestBody([ethUsdc.contract_id], secondsFromNow(2n * HOUR), key, 5n);
    const staleResult = await client.request('PUT', '/v1/session', stale, trader.headers);
    expect(staleResult.body.message).toContain('Nonce in the request');
    const good = trader.sessionRequestBody([ethUsdc.contract_id], secondsFromNow(2n * HOUR), key);
    expect((await client.request('PUT', '/v1/session', good)).body).toMatchObject({ code: 4001 });
    const tampered = { ...good, expiry: (secondsFromNow(3n * HOUR)).toString() };
    expect((await client.request('PUT', '/v1/session', tampered, trader.headers)).body).toMatchObject({ code: 4000 });
    // Flip the recovery bit: recovers to another key, code 4000.
    const signature = (good.signature as { Secp256k1: string }).Secp256k1;
    const byte = parseInt(signature.slice(66, 68), 16) ^ 0x80;
    const flipped = { ...good, signature: { Secp256k1: `${signature.slice(0, 66)}${byte.toString(16).padStart(2, '0')}${signature.slice(68)}` } };
    expect((await client.request('PUT', '/v1/session', flipped, trader.headers)).body).toMatchObject({ code: 4000 });
    // The same signature in its high-s form (s' = n - s, recovery bit flipped): refused.
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const sValue = BigInt(`0x${signature.slice(66)}`) & ((1n << 255n) - 1n);
    const recovery = parseInt(signature.slice(66, 68), 16) >> 7;
    const highS = (n - sValue) | (BigInt(recovery ^ 1) << 255n);
    const malleable = { ...good, signature: { Secp256k1: `${signature.slice(0, 66)}${highS.toString(16).padStart(64, '0')}` } };
    expect((await client.request('PUT', '/v1/session', malleable, trader.headers)).body).toMatchObject({ code: 4000 });
    // A client that hashes the digest again signs something else: it recovers to another key.
    const grant = { nonce: 0n, chain_id: trader.chainId, session_address: key.address, expiry: BigInt(good.expiry as string), contract_ids: [ethUsdc.contract_id] };
    const doubled = signDigest(sha256(sessionDigest(grant, trader.owner.style)), trader.owner.privateKey);
    const doubleHashed = { ...good, signature: { Secp256k1: `0x${Buffer.from(doubled).toString('hex')}` } };
    expect((await client.request('PUT', '/v1/session', doubleHashed, trader.headers)).body).toMatchObject({ code: 4000 });
    expect(await trader.readNonce()).toBe(0n);
    const ok = await client.request('PUT', '/v1/session', good, { 'Svc-Owner-Id': trader.owner.address.slice(2) });
    expect(ok.status).toBe(200);
  });
});

describe('session actions', () => {
  it('trades between two accounts, collects orders and settles', async () => {
    const maker = await Trader.create(client);
    const taker = await Trader.create(client);
    for (const trader of [maker, taker]) expect((await trader.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR))).status).toBe(200);
    const placed = await maker.act(ethUsdc, [order('Sell', 3000n * USDC, ETH)]);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orders = placed.body.orders as Record<string, unknown>[];
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ side: 'Sell', order_type: 'Spot', quantity: String(ETH), close: false, owner: { ContractId: maker.accountId } });
    const taken = await taker.act(ethUsdc, [taker.settle(), order('Buy', 3000n * USDC, ETH / 2n)]);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const buy = (taken.body.orders as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(buy).toMatchObject({ quantity_fill: String(ETH / 2n), close: true, price_fill: String(3000n * USDC) });
    const settled = await maker.act(ethUsdc, [maker.settle()]);
    expect(settled.status).toBe(200);
    const balance = await client.get<{ trading_account_balance: string }>(`/v1/balance?contract=${maker.accountId}&asset_id=${ethUsdc.quote.asset}`);
    expect(BigInt(balance.body.trading_account_balance)).toBe(100_000n * USDC + 1500n * USDC - 150_000n);
  });

  it('refuses a stale nonce without consuming it and reverts on chain consuming it', async () => {
    const trader = await Trader.create(client);
    await trader.openSession([ethUsdc.contract_id, fuelUsdc.contract_id], secondsFromNow(2n * HOUR));
    const stale = await trader.act(ethUsdc, [order('Sell', 3000n * USDC, ETH)], { nonce: { kind: 'sequential', value: 0n } });
    expect(stale.status).toBe(400);
    expect(stale.body.message).toContain('Nonce in the request');
    expect(await trader.readNonce()).toBe(1n);
    const notWhitelisted = await trader.act(fuelUsdc, [order('Sell', 20_000n, 100n * ETH)]);
    expect(notWhitelisted.body.reason).toBe('TraderNotWhiteListed');
    expect(notWhitelisted.body.receipts).toBeInstanceOf(Array);
    expect(await trader.readNonce()).toBe(2n);
  });

  it('refuses more than 5 actions (7004), out-of-scope markets, and keys of a replaced session', async () => {
    const trader = await Trader.create(client);
    await trader.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR));
    // The shared builder refuses a sixth action, so add it to the body by hand.
    const body = trader.actionsBody(ethUsdc, Array.from({ length: 5 }, () => trader.settle())) as { actions: { actions: unknown[] }[] };
    body.actions[0]?.actions.push({ SettleBalance: { to: { ContractId: trader.accountId } } });
    const tooMany = await client.request('POST', '/v1/session/actions', body, trader.headers);
    expect(tooMany.body).toMatchObject({ code: 7004 });
    const outOfScope = await trader.act(fuelUsdc, [trader.settle()]);
    expect(outOfScope.body).toMatchObject({ code: 4005 });
    const oldKey = trader.session;
    await trader.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR));
    const old = await trader.act(ethUsdc, [trader.settle()], { signer: oldKey });
    expect(old.body).toMatchObject({ code: 4003 });
    // Without session_id in the body the old key's signature no longer recovers to the session.
    const anonymous = trader.actionsBody(ethUsdc, [trader.settle()], { signer: oldKey });
    delete anonymous.session_id;
    expect((await client.request('POST', '/v1/session/actions', anonymous, trader.headers)).body).toMatchObject({ code: 4000 });
    const referer = await trader.act(ethUsdc, [{ kind: 'RegisterReferer', to: { Address: `0x${'12'.repeat(32)}` as B256 } }], { registryId: registry });
    expect(referer.body).toMatchObject({ code: 4005 });
  });
});
