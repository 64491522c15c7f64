// Parallel nonces (window, slide, refusals) and the owner-signed endpoints: withdraw, upgrade,
// owner actions, each signed with shared/protocol's owner messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { B256 } from '../../../shared/encoding/b256';
import { contractIdentity } from '../../../shared/encoding/identity';
import { signDigest } from '../../../shared/crypto/index';
import type { Market } from '../../../shared/market/market';
import { packParallelNonce } from '../../../shared/nonce/parallel-packing';
import type { NonceChoice } from '../../../shared/protocol/nonce-choice';
import { ownerActionCalls, ownerActionsBody, ownerCallsMessage, ownerDigest, upgradeBody, upgradeMessage, withdrawBody, withdrawMessage } from '../../../shared/protocol/owner-messages';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

let sandbox: RunningSandbox;
let client: SandboxClient;
let ethUsdc: Market;
let chainId: bigint;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, rateLimits: false, control: true });
  client = new SandboxClient(sandbox.url);
  const markets = await client.markets();
  chainId = markets.chainId;
  ethUsdc = markets.markets.find((m) => m.base.symbol === 'ETH' && m.quote.symbol === 'USDC') as Market;
});

afterAll(async () => {
  await sandbox.close();
});

function parallel(lane: number, word: bigint, bit: number, expiry = secondsFromNow(120n)): NonceChoice {
  const packed = packParallelNonce({ lane, expiry, word_position: word, bit_position: bit });
  if (!packed.ok) throw new Error(packed.message);
  return { kind: 'parallel', value: packed.value };
}

describe('parallel nonces', () => {
  it('consumes positions, slides the window by 4 and refuses reuse, expiry and out-of-window words', async () => {
    const trader = await Trader.create(client);
    await trader.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR));
    const window0 = await client.get<{ base: string; slots: unknown[] }>(`/v1/accounts/window?trade_account_id=${trader.accountId}&nonce_session_id=1`);
    expect(window0.body.base).toBe('0');
    expect(window0.body.slots).toHaveLength(8);
    const first = await trader.act(ethUsdc, [trader.settle()], { nonce: parallel(1, 0n, 3) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const reused = await trader.act(ethUsdc, [trader.settle()], { nonce: parallel(1, 0n, 3) });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toContain('nonce already used');
    const expired = await trader.act(ethUsdc, [trader.settle()], { nonce: parallel(1, 0n, 4, secondsFromNow(-5n)) });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toContain('Parallel nonce is not usable');
    const far = await trader.act(ethUsdc, [trader.settle()], { nonce: parallel(1, 20n, 0) });
    expect(far.status).toBe(400);
    expect(far.body.message).toContain('word position out of sliding window');
    const upper = await trader.act(ethUsdc, [trader.settle()], { nonce: parallel(1, 5n, 0) });
    expect(upper.status).toBe(200);
    const window = await client.get<{ base: string; slots: { word_position: string; bitmap: string }[] }>(`/v1/accounts/window?trade_account_id=${trader.accountId}&nonce_session_id=1`);
    expect(window.body.base).toBe('4');
    expect(window.body.slots.find((slot) => slot.word_position === '5')?.bitmap).toBe('1');
    const below = await trader.act(ethUsdc, [trader.settle()], { nonce: parallel(1, 0n, 9) });
    expect(below.body.message).toContain('word position out of sliding window');
    // A plain signature with a parallel nonce is refused (typed variant required).
    const body = trader.actionsBody(ethUsdc, [trader.settle()], { nonce: parallel(1, 6n, 0) });
    const typed = body.signature as { TypedSecp256k1: string };
    const plain = { ...body, signature: { Secp256k1: typed.TypedSecp256k1 } };
    expect((await client.request('POST', '/v1/session/actions', plain, trader.headers)).body).toMatchObject({ code: 4000 });
    expect(await trader.readNonce()).toBe(1n);
  });

  it('expires sessions and parallel nonces when the control clock advances', async () => {
    // Its own sandbox: moving the clock must not leak into the other tests.
    const own = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, rateLimits: false, control: true });
    const client = new SandboxClient(own.url);
    const trader = await Trader.create(client);
    await trader.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR));
    const nonce = parallel(0, 0n, 0, secondsFromNow(60n));
    const advanced = await client.request('POST', '/control/clock/advance', { ms: 120_000 });
    expect(advanced.status).toBe(200);
    const late = await trader.act(ethUsdc, [trader.settle()], { nonce });
    expect(late.body.message).toContain('Parallel nonce is not usable');
    await client.request('POST', '/control/clock/advance', { ms: 2 * 3600_000 });
    const expired = await trader.act(ethUsdc, [trader.settle()]);
    expect(expired.body).toMatchObject({ code: 4004 });
    await own.close();
  });
});

describe('owner endpoints', () => {
  it('withdraws to a wallet with a sequential nonce and with a parallel nonce', async () => {
    const trader = await Trader.create(client);
    const to = { Address: `0x${'77'.repeat(32)}` as B256 };
    const args = { to, amount: 1_000_000n, asset_id: ethUsdc.quote.asset };
    for (const nonce of [{ kind: 'sequential', value: 0n } as NonceChoice, parallel(2, 0n, 0)]) {
      const envelope = { nonce, chain_id: chainId };
      const signature = signDigest(ownerDigest(withdrawMessage(envelope, args), trader.owner.style), trader.owner.privateKey);
      const result = await client.request('POST', '/v1/accounts/withdraw', withdrawBody(trader.accountId, envelope, args, signature), trader.headers);
      expect(result.status, JSON.stringify(result.body)).toBe(200);
    }
    const wallet = await client.get<{ trading_account_balance: string }>(`/v1/balance?address=${to.Address}&asset_id=${ethUsdc.quote.asset}`);
    expect(wallet.body.trading_account_balance).toBe('2000000');
    expect(await trader.readNonce()).toBe(1n);
    // Too much: an on-chain revert that consumes the nonce.
    const envelope = { nonce: { kind: 'sequential', value: 1n } as NonceChoice, chain_id: chainId };
    const big = { ...args, amount: 10n ** 18n };
    const signature = signDigest(ownerDigest(withdrawMessage(envelope, big), trader.owner.style), trader.owner.privateKey);
    const reverted = await client.request('POST', '/v1/accounts/withdraw', withdrawBody(trader.accountId, envelope, big, signature), trader.headers);
    expect(reverted.body.reason).toBe('InsufficientBalance');
    expect(await trader.readNonce()).toBe(2n);
  });

  it('upgrades to the oracle implementation and runs owner actions', async () => {
    const trader = await Trader.create(client, { style: 'evm' });
    const markets = await client.markets();
    const implementation = `0x${'00'.repeat(32)}` as B256;
    const envelope = { nonce: { kind: 'sequential', value: 0n } as NonceChoice, chain_id: chainId };
    const signature = signDigest(ownerDigest(upgradeMessage(envelope), 'evm'), trader.owner.privateKey);
    const wrong = await client.request('POST', '/v1/accounts/upgrade', upgradeBody(trader.accountId, envelope, implementation, signature), trader.headers);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('implementation');
    const oracle = /publishes (0x[0-9a-f]{64})/.exec(String(wrong.body.message))?.[1] as B256;
    const upgraded = await client.request('POST', '/v1/accounts/upgrade', upgradeBody(trader.accountId, envelope, oracle, signature), trader.headers);
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);
    const fuel = markets.markets.find((m) => m.base.symbol === 'FUEL') as Market;
    const groups = [{ market_id: fuel.market_id, market: fuel, actions: [{ kind: 'Whitelist' as const, account: contractIdentity(trader.accountId) }, { kind: 'SettleBalance' as const, to: contractIdentity(trader.accountId) }] }];
    const next = { nonce: { kind: 'sequential', value: 1n } as NonceChoice, chain_id: chainId };
    const actionSignature = signDigest(ownerDigest(ownerCallsMessage(next, ownerActionCalls(groups)), 'evm'), trader.owner.privateKey);
    const actions = await client.request('POST', '/v1/accounts/actions', ownerActionsBody(trader.accountId, next, groups, actionSignature), trader.headers);
    expect(actions.status, JSON.stringify(actions.body)).toBe(200);
    const whitelisted = await client.request('POST', '/analytics/v1/whitelist', { tradeAccount: trader.accountId });
    expect(whitelisted.body.alreadyWhitelisted).toBe(true);
  });
});
