// Every response and stream message of the sandbox parses with shared/api's schemas, the same
// ones the terminal's client uses: the sandbox and the client agree on the wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  accountLookupSchema,
  actionsResultSchema,
  activeOrdersResponseSchema,
  apiErrorSchema,
  balanceResponseSchema,
  barsResponseSchema,
  createAccountResponseSchema,
  depthResponseSchema,
  faucetResponseSchema,
  feesResponseSchema,
  healthResponseSchema,
  marketsResponseSchema,
  orderResponseSchema,
  ordersResponseSchema,
  referralCodeInfoSchema,
  serverMessageSchema,
  sessionResponseSchema,
  summaryResponseSchema,
  tickerResponseSchema,
  tradesResponseSchema,
  whitelistResponseSchema,
  windowResponseSchema,
} from '../../../shared/api/index';
import type { Market } from '../../../shared/market/market';
import { parseWith } from '../../../shared/schema';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { HOUR, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';
import { StreamClient } from '../../support/sandbox/stream-client';

let sandbox: RunningSandbox;
let client: SandboxClient;
let market: Market;

function conforms(schema: z.ZodType, value: unknown, what: string): void {
  const parsed = parseWith(schema, value, what);
  expect(parsed.ok, parsed.ok ? '' : `${parsed.message}\n${JSON.stringify(value).slice(0, 400)}`).toBe(true);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: true, makerRate: 20, rateLimits: false });
  client = new SandboxClient(sandbox.url);
  market = (await client.markets()).markets[0] as Market;
  // Let the house print a few trades.
  for (let i = 0; i < 50; i++) {
    if ((await client.get<{ trades: unknown[] }>(`/v1/trades?market_id=${market.market_id}`)).body.trades.length > 2) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  await sandbox.close();
});

describe('REST responses conform to shared/api', () => {
  it('public market data', async () => {
    const id = market.market_id;
    conforms(healthResponseSchema, (await client.get('/health')).body, 'health');
    conforms(marketsResponseSchema, (await client.get('/v1/markets')).body, 'markets');
    conforms(depthResponseSchema, (await client.get(`/v1/depth?market_id=${id}&precision=1000`)).body, 'depth');
    conforms(depthResponseSchema, (await client.get(`/v1/depth?market_id=${id}&level=3&depth=5`)).body, 'depth level 3');
    conforms(barsResponseSchema, (await client.get(`/v1/bars?market_id=${id}&resolution=1m&count_back=10`)).body, 'bars');
    conforms(tradesResponseSchema, (await client.get(`/v1/trades?market_id=${id}&count=5`)).body, 'trades');
    conforms(tickerResponseSchema, (await client.get('/v1/markets/ticker')).body, 'ticker');
    conforms(summaryResponseSchema, (await client.get('/v1/markets/summary')).body, 'summary');
    conforms(feesResponseSchema, (await client.get('/v1/markets/fees')).body, 'fees');
    conforms(referralCodeInfoSchema, (await client.get('/analytics/v1/referral/code-info?code=SANDBOX')).body, 'referral');
    conforms(apiErrorSchema, (await client.get('/v1/depth')).body, 'error');
  });

  it('accounts, sessions, actions and orders', async () => {
    const trader = await Trader.create(client, { fund: false });
    conforms(accountLookupSchema, (await client.get(`/v1/accounts?owner=${trader.owner.address}`)).body, 'account by owner');
    conforms(accountLookupSchema, (await client.get(`/v1/accounts?owner=0x${'cd'.repeat(32)}`)).body, 'no account by owner');
    conforms(accountLookupSchema, (await client.get(`/v1/accounts?trade_account_id=0x${'cd'.repeat(32)}`)).body, 'no account by id');
    conforms(createAccountResponseSchema, (await client.request('POST', '/v1/accounts', { identity: { Address: trader.owner.address } })).body, 'create account');
    conforms(faucetResponseSchema, (await client.request('POST', '/api/sandbox/mint-v2', { contract: trader.accountId })).body, 'faucet');
    conforms(faucetResponseSchema, (await client.request('POST', '/api/sandbox/mint-v2', { contract: trader.accountId })).body, 'faucet cooldown');
    conforms(whitelistResponseSchema, (await client.request('POST', '/analytics/v1/whitelist', { tradeAccount: trader.accountId })).body, 'whitelist');
    conforms(sessionResponseSchema, (await trader.openSession([market.contract_id], secondsFromNow(2n * HOUR))).body, 'session');
    const best = BigInt(((await client.get<{ view: { buys: { price: string }[] } }>(`/v1/depth?market_id=${market.market_id}`)).body.view.buys[0]?.price ?? '3000000000'));
    const placed = await trader.act(market, [order('Buy', best - 1_000_000n, 1_000_000_000n)]);
    conforms(actionsResultSchema, placed.body, 'actions success');
    const orderId = ((placed.body.orders as { order_id: string }[])[0] as { order_id: string }).order_id;
    conforms(actionsResultSchema, (await trader.act(market, [order('Buy', best - 1_000_001n, 1_000_000_000n)])).body, 'actions revert');
    conforms(actionsResultSchema, (await trader.act(market, [trader.settle()], { nonce: { kind: 'sequential', value: 0n } })).body, 'actions refusal');
    conforms(ordersResponseSchema, (await client.get(`/v1/orders?market_id=${market.market_id}&contract=${trader.accountId}`)).body, 'orders');
    conforms(orderResponseSchema, (await client.get(`/v1/order?market_id=${market.market_id}&order_id=${orderId}`)).body, 'order');
    conforms(activeOrdersResponseSchema, (await client.get(`/v1/orders/active?market_id=${market.market_id}&contract=${trader.accountId}`)).body, 'active');
    conforms(balanceResponseSchema, (await client.get(`/v1/balance?contract=${trader.accountId}&asset_id=${market.quote.asset}`)).body, 'balance');
    conforms(windowResponseSchema, (await client.get(`/v1/accounts/window?trade_account_id=${trader.accountId}`)).body, 'window');
  });
});

describe('stream messages conform to shared/api', () => {
  it('parses every message of every subscription', async () => {
    const trader = await Trader.create(client);
    const stream = await StreamClient.open(sandbox.url);
    const identities = [{ ContractId: trader.accountId }];
    stream.send({ action: 'subscribe_depth', market_id: market.market_id, precision: '1000' });
    stream.send({ action: 'subscribe_depth_view', market_id: market.market_id, precision: '1000', frequency: '100ms' });
    stream.send({ action: 'subscribe_trades', market_id: market.market_id });
    stream.send({ action: 'subscribe_orders', identities });
    stream.send({ action: 'subscribe_balances', identities });
    stream.send({ action: 'subscribe_nonce_v2', identities });
    stream.send({ action: 'subscribe_nonce', identities });
    for (const action of ['subscribe_depth', 'subscribe_depth_update', 'subscribe_depth_view', 'subscribe_trades', 'subscribe_orders', 'subscribe_balances', 'subscribe_nonce_v2']) {
      conforms(serverMessageSchema, await stream.waitFor((m) => m.action === action), action);
    }
    conforms(serverMessageSchema, await stream.waitFor((m) => 'error' in m), 'error');
    stream.close();
  });
});
