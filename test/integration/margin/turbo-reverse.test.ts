// A Turbo Account's reverse against a real sandbox (in process, with the control surface): the
// account signs one order per request, so its reverse is ONE order of the close and the opening
// size together (with the ETH borrow the short needs, planned by the margin service), and the
// exchange then holds the short the plan states; frozen by the oracle, the same reverse is refused
// whole and nothing reaches the book. A house account posts the shared quotes the Turbo orders
// fill against.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkConfig } from '../../../main/services/network/networks';
import { systemClock } from '../../../main/services/system-clock';
import { createTerminal, type Terminal } from '../../../main/services/terminal';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import type { B256 } from '../../../shared/encoding/b256';
import type { PositionView } from '../../../shared/ipc/views';
import type { Market } from '../../../shared/market/market';
import { ok, type Result } from '../../../shared/result';
import { MemorySecretStore } from '../../support/memory-secret-store';
import { HOUR, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';

const caller = { windowId: 'w1', frameUrl: 'app://terminal/' };
const ETH = 1_000_000_000n;
const USDC = 1_000_000n;
const PRICE = (whole: bigint) => whole * USDC;

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

async function until<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let sandbox: RunningSandbox;
let client: SandboxClient;
let terminal: Terminal;
let house: Trader;
let ethUsdc: Market;
let child: B256;

async function sharedQuote(side: 'Buy' | 'Sell', price: bigint, quantity: bigint): Promise<void> {
  const reply = await house.act(ethUsdc, [{ kind: 'CreateSharedOrder', side, price, quantity, order_type: { kind: 'PostOnly' } }]);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** The Turbo Account's orders on the Turbo book, as the exchange lists them (GET /v1/orders). */
const turboOrders = async (): Promise<{ order_id: string; side: string; quantity: string }[]> => {
  const body = (await (await fetch(`${sandbox.url}/v1/orders?market_id=${ethUsdc.market_id}&turbo=true&contract=${child}`)).json()) as { orders: { order_id: string; side: string; quantity: string }[] };
  return body.orders;
};

const childRow = (predicate: (row: PositionView) => boolean) =>
  until(async () => value(await terminal.handlers.getPositions({}, caller)).positions.find((row) => row.account === child && row.turbo && predicate(row)), 'the Turbo Account position');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', control: true, maker: false, rateLimits: false });
  client = new SandboxClient(sandbox.url);
  const { markets } = await client.markets();
  ethUsdc = markets.find((market) => market.base.symbol === 'ETH' && market.quote.symbol === 'USDC') as Market;
  house = await Trader.create(client);
  expect((await house.openSession([ethUsdc.contract_id], secondsFromNow(2n * HOUR))).status).toBe(200);
  expect((await client.request('POST', '/control/turbo/house-role', { market_id: ethUsdc.market_id, account: house.accountId })).status).toBe(200);
  expect((await client.request('POST', '/control/margin/oracle', { asset_id: ethUsdc.base.asset, price: (3000n * 10n ** 18n).toString(), tick: true })).status).toBe(200);
  const network: NetworkConfig = { id: 'devnet', name: 'Sandbox (in process)', kind: 'devnet', restUrl: sandbox.url, wsUrl: null, faucetUrl: sandbox.url, faucetNetwork: 'sandbox', production: false };
  terminal = createTerminal({
    clock: systemClock,
    host: 'browser',
    version: 'test',
    dataDir: mkdtempSync(join(tmpdir(), 'lt-turbo-reverse-')),
    openKeychain: () => Promise.resolve(ok(new MemorySecretStore())),
    spawnSandbox: () => {
      throw new Error('this test runs its own sandbox');
    },
    networkOverride: network,
    random: (length) => new Uint8Array(randomBytes(length)),
  });
  terminal.windows.attach('w1', { send: () => undefined });
  value(await terminal.start());
  const h = terminal.handlers;
  value(await h.createOwnerKey({ style: 'ledger' }, caller));
  value(await h.createTradeAccount({}, caller));
  value(await h.mintFromFaucet({}, caller));
  value(await h.whitelistAccount({}, caller));
  value(await h.createSession({ marketIds: [ethUsdc.market_id], hours: 48 }, caller));
  child = value(await h.registerMarginAccount({}, caller)).marginAccountId as B256;
  // A legacy session: it may borrow ETH, which the short the reverse opens needs.
  value(await h.openMarginSession({ marginAccountId: child, tierId: '1', period: 'Week' }, caller));
  value(await h.selectMarginAccount({ marginAccountId: child }, caller));
  value(await h.subscribeMarginRisk({ marginAccountId: child }, caller));
}, 120_000);

afterAll(async () => {
  await terminal?.stop();
  await sandbox?.close();
});

describe("a Turbo Account's reverse", () => {
  it('is one order of both sizes in one signed request, after which the exchange holds the stated short', async () => {
    const h = terminal.handlers;
    await sharedQuote('Sell', PRICE(3000n), ETH);
    value(await h.placeOrder({ marketId: ethUsdc.market_id, turbo: true, side: 'Buy', orderType: { kind: 'Market' }, price: PRICE(3000n), quantity: ETH / 10n }, caller));
    await sharedQuote('Buy', PRICE(2990n), ETH);
    const long = await childRow((row) => row.size > 0n && row.mark === PRICE(2990n));
    const plan = long.reverse;
    expect(plan).toMatchObject({ side: 'Sell', refusal: null, open: plan.close.quantity });
    const before = new Set((await turboOrders()).map((order) => order.order_id));
    const report = value(await h.reversePosition({ position: { marketId: ethUsdc.market_id, turbo: true, account: child, quantity: plan.close.quantity } }, caller));
    expect(report.failed).toEqual([]);
    expect(report.placed[0]!.orderIds).toHaveLength(1);
    const sent = (await turboOrders()).filter((order) => !before.has(order.order_id));
    expect(sent.map((order) => [order.side, BigInt(order.quantity)])).toEqual([['Sell', plan.close.quantity + plan.open]]);
    const journal = value(await h.getJournal({ limit: 5 }, caller));
    expect(journal.some((entry) => entry.kind === 'signed' && /Sell .* on the Turbo book as margin account .*borrowing/.test(entry.description ?? ''))).toBe(true);
    const short = await childRow((row) => row.size < 0n);
    expect(short.size).toBe(plan.after);
  }, 120_000);
});
