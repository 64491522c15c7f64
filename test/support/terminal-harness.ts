// Main's real services (createTerminal) in this process, against a real sandbox child started by
// the app's own supervisor with the control surface on, and an in-memory keychain. Helpers
// onboard an account and read the sandbox's ledger so tests can compare the app's view with the
// exchange's.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { nodeSandboxSpawner } from '../../main/services/network/sandbox-process-node';
import { systemClock } from '../../main/services/system-clock';
import { createTerminal, type Terminal } from '../../main/services/terminal';
import type { TrustedConfirmer } from '../../main/services/confirm/trusted-confirmer';
import type { NetworkConfig } from '../../main/services/network/networks';
import type { HttpFetch } from '../../main/exchange/http';
import type { Market } from '../../shared/market/market';
import type { Clock } from '../../shared/clock';
import type { MarginTierView } from '../../shared/ipc/views/margin';
import { ok, type Result } from '../../shared/result';
import { MemorySecretStore } from './memory-secret-store';

export const caller = { windowId: 'w1', frameUrl: 'app://terminal/' };

export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

export async function until<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Push {
  readonly stream: string;
  readonly payload: unknown;
}

export interface Harness {
  readonly terminal: Terminal;
  readonly secrets: MemorySecretStore;
  readonly pushes: Push[];
  readonly dataDir: string;
  base(): string;
  control(path: string, body?: unknown): Promise<unknown>;
  onboard(): Promise<{ tradeAccountId: string; markets: Market[] }>;
  ledgerOrders(marketId: string): Promise<LedgerOrder[]>;
  ledgerAccount(tradeAccountId: string): Promise<LedgerAccount | undefined>;
  insidePrices(market: Market): Promise<{ bid: bigint; ask: bigint }>;
  /** A quantity on the market's step that passes min_order (twice over) and dust at a price. */
  sizeFor(market: Market, price: bigint): bigint;
  /** A buy that rests: 3 % under the best bid, `ticksBelow` ticks lower still (inside the price window). */
  restingBuy(market: Market, ticksBelow?: bigint): Promise<{ marketId: string; side: 'Buy'; orderType: { kind: 'Spot' }; price: bigint; quantity: bigint }>;
  priceTick(market: Market): bigint;
  stop(): Promise<void>;
}

export interface LedgerOrder {
  readonly order_id: string;
  readonly owner?: { ContractId?: string };
  readonly side: string;
  readonly price: string;
  readonly quantity: string;
  readonly quantity_fill?: string;
  readonly close?: boolean;
  readonly cancel?: boolean;
  readonly fills?: unknown[];
}

export interface LedgerAccount {
  readonly trade_account_id: string;
  readonly nonce: string;
  readonly [key: string]: unknown;
}

export interface HarnessOptions {
  readonly lanes?: number;
  readonly requestTimeoutMs?: number;
  readonly sandboxArgs?: readonly string[];
  readonly dataDir?: string;
  readonly secrets?: MemorySecretStore;
  /** How main confirms funds leaving and loosened settings; by default a code printed on stderr. */
  readonly confirmer?: TrustedConfirmer;
  /** A network to use instead of the embedded sandbox (an exchange behind a proxy). */
  readonly networkOverride?: NetworkConfig;
  /** Where the tests read the exchange directly (`base()`); the terminal's REST URL by default. */
  readonly exchangeUrl?: string;
  /** Main's HTTP client (a wrapper around the real one stands in for a proxy that lies). */
  readonly fetch?: HttpFetch;
  /** The clock execution algorithms schedule on (tests drive it in step with the sandbox's clock). */
  readonly algoClock?: Clock;
}

/** A confirmer that accepts every confirmation in main's own dialog (the trader clicking Confirm). */
export const ACCEPTING_DIALOG: TrustedConfirmer = { surface: 'dialog', confirm: () => Promise.resolve(ok(undefined)) };

/** A market with a Turbo book, and a Turbo Account registered for the onboarded trading account. */
export async function turboSetup(harness: Harness, markets: readonly Market[]): Promise<{ market: Market; child: string }> {
  const turbo = value(await harness.terminal.handlers.getTurboMarkets({}, caller));
  const market = markets.find((candidate) => turbo.markets.some((row) => row.marketId === candidate.market_id && row.hasTurboBook));
  if (market === undefined) throw new Error('no market of the sandbox has a Turbo book');
  const child = value(await harness.terminal.handlers.registerMarginAccount({}, caller)).marginAccountId;
  return { market, child };
}

/** Opens a session for the Turbo Account on the first tier the exchange sells for a fixed amount (what a Turbo Account needs before it trades); answers that tier. */
export async function openTurboSession(harness: Harness, marginAccountId: string): Promise<MarginTierView> {
  const h = harness.terminal.handlers;
  const overview = value(await h.getMarginOverview({}, caller));
  const tier = overview.tiers.find((candidate) => candidate.periods.some((period) => period.amount !== null && period.amount !== undefined));
  const period = tier?.periods.find((candidate) => candidate.amount !== null && candidate.amount !== undefined);
  if (tier === undefined || period?.amount === null || period?.amount === undefined) throw new Error('no tier of the sandbox sells a period for a fixed amount');
  value(await h.openMarginSession({ marginAccountId, tierId: tier.tierId, period: period.period, amount: period.amount }, caller));
  return tier;
}

/** A harness onboarded (owner, trading account, funds, whitelist, session) and the first market: the set-up most suites share. */
export interface OnboardedHarness {
  readonly harness: Harness;
  readonly tradeAccountId: string;
  readonly markets: Market[];
  readonly market: Market;
}

export async function startOnboarded(options: HarnessOptions = {}): Promise<OnboardedHarness> {
  const harness = await startHarness(options);
  try {
    const { tradeAccountId, markets } = await harness.onboard();
    const market = markets[0];
    if (market === undefined) throw new Error('the sandbox lists no market');
    return { harness, tradeAccountId, markets, market };
  } catch (error) {
    await harness.stop();
    throw error;
  }
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const pushes: Push[] = [];
  const secrets = options.secrets ?? new MemorySecretStore();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'lt-harness-'));
  const terminal = createTerminal({
    clock: systemClock,
    host: 'browser',
    version: 'test',
    dataDir,
    openKeychain: () => Promise.resolve(ok(secrets)),
    spawnSandbox: nodeSandboxSpawner({ modulePath: join(process.cwd(), 'sandbox/cli.ts'), execArgv: ['--import', 'tsx'] }),
    random: (length) => new Uint8Array(randomBytes(length)),
    // The thin book the tests were written against; a test of depth passes its own --maker-profile (the later flag wins).
    sandboxArgs: ['--control', '--maker-profile', 'thin-legacy', ...(options.sandboxArgs ?? [])],
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.confirmer === undefined ? {} : { confirmer: options.confirmer }),
    ...(options.networkOverride === undefined ? {} : { networkOverride: options.networkOverride }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.algoClock === undefined ? {} : { algoClock: options.algoClock }),
  });
  terminal.windows.attach(caller.windowId, { send: (stream, payload) => pushes.push({ stream, payload }) });
  value(await terminal.start());
  const base = () => options.exchangeUrl ?? terminal.restUrl() ?? '';
  const h = terminal.handlers;
  const harness: Harness = {
    terminal,
    secrets,
    pushes,
    dataDir,
    base,
    async control(path, body) {
      const response = await fetch(`${base()}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return response.json();
    },
    async onboard() {
      const markets = value(await h.listMarkets({}, caller)).markets;
      if (options.lanes !== undefined) value(await h.updateSettings({ parallelLanes: options.lanes }, caller));
      if (value(await h.getAccountState({}, caller)).activeOwner === null) value(await h.createOwnerKey({ style: 'ledger' }, caller));
      const account = value(await h.createTradeAccount({}, caller));
      value(await h.mintFromFaucet({}, caller));
      value(await h.whitelistAccount({}, caller));
      value(await h.createSession({ marketIds: markets.map((market) => market.market_id), days: 30 }, caller));
      return { tradeAccountId: account.tradeAccountId, markets: [...markets] };
    },
    async ledgerOrders(marketId) {
      const body = (await (await fetch(`${base()}/control/ledger/orders?market_id=${marketId}`)).json()) as { orders: LedgerOrder[] };
      return body.orders;
    },
    async ledgerAccount(tradeAccountId) {
      const body = (await (await fetch(`${base()}/control/ledger`)).json()) as { accounts: LedgerAccount[] };
      return body.accounts.find((account) => account.trade_account_id === tradeAccountId);
    },
    async insidePrices(market) {
      const body = (await (await fetch(`${base()}/v1/depth?market_id=${market.market_id}&precision=10`)).json()) as Record<string, { buys: { price: string }[]; sells: { price: string }[] } | undefined>;
      const sides = body.view ?? body.orders;
      if (!sides?.buys[0] || !sides.sells[0]) throw new Error('the book has no inside market');
      return { bid: BigInt(sides.buys[0].price), ask: BigInt(sides.sells[0].price) };
    },
    async restingBuy(market, ticksBelow = 0n) {
      const inside = await harness.insidePrices(market);
      const tick = harness.priceTick(market);
      const price = ((inside.bid * 97n) / 100n / tick) * tick - ticksBelow * tick;
      return { marketId: market.market_id, side: 'Buy' as const, orderType: { kind: 'Spot' as const }, price, quantity: harness.sizeFor(market, price) };
    },
    sizeFor(market, price) {
      const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
      const byValue = ((2n * market.min_order * 10n ** BigInt(market.base.decimals)) / price / step + 2n) * step;
      const byDust = ((market.dust + step - 1n) / step) * step;
      return byValue > byDust ? byValue : byDust;
    },
    priceTick(market) {
      return 10n ** BigInt(Math.max(0, market.quote.decimals - market.quote.max_precision));
    },
    async stop() {
      await terminal.stop();
    },
  };
  return harness;
}
