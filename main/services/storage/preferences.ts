// What the terminal remembers between runs, in the data directory: the chosen network and the
// URLs of the configurable ones, trading settings, and the owners and accounts the user set up.
// No key is ever written here (keys live in the OS keychain).
import { join } from 'node:path';
import { z } from 'zod';
import { completeKeymap, DEFAULT_HOTKEYS } from '../../../shared/hotkeys/keymap';
import type { Settings } from '../../../shared/ipc/views';
import { DEFAULT_CHART_STUDIES, MOVING_AVERAGE_KINDS, MOVING_AVERAGE_LENGTH } from '../../../shared/chart/chart-studies';
import { MAX_PRICE_BAND_BPS } from '../../../shared/market/price-band';
import { MARK_SOURCES, PNL_UNITS } from '../../../shared/positions/pnl-display';
import { JsonStore } from './json-store';
import { SANDBOX_NETWORK, type NetworkConfig, type NetworkKind } from '../network/networks';
import { PINNED_MAINNET } from '../network/pinned-mainnet';

export { DEFAULT_HOTKEYS };

export const DEFAULT_SETTINGS: Settings = {
  confirmOrders: true,
  maxOrderQuantity: {},
  maxOrderNotional: {},
  maxPosition: {},
  dailyLossLimit: {},
  maxOrdersPerMinute: 0,
  flattenOnDailyLoss: false,
  priceBandBps: {},
  hotkeys: DEFAULT_HOTKEYS,
  sound: true,
  desktopNotifications: true,
  parallelLanes: 0,
  sessionDays: 30,
  quantityPresets: {},
  pnlDisplay: {},
  chartStudies: DEFAULT_CHART_STUDIES,
  favouriteMarkets: [],
  largeTradeSize: {},
};

const movingAverage = z.object({ kind: z.enum(MOVING_AVERAGE_KINDS), length: z.number().int().min(MOVING_AVERAGE_LENGTH.min).max(MOVING_AVERAGE_LENGTH.max) });

const url = z.string().url().max(300).nullable();

/** `chainId`: the decimal chain id the network must answer (configured, or learned at the first connection). */
const networkOverride = z.object({ restUrl: url, wsUrl: url, faucetUrl: url, chainId: z.string().regex(/^\d{1,20}$/).nullable().optional() });

const settingsSchema = z.object({
  confirmOrders: z.boolean(),
  maxOrderQuantity: z.record(z.string(), z.bigint()),
  // A file written before these caps existed reads back with none set.
  maxOrderNotional: z.record(z.string(), z.bigint()).default({}),
  maxPosition: z.record(z.string(), z.bigint()).default({}),
  dailyLossLimit: z.record(z.string(), z.bigint()).default({}),
  maxOrdersPerMinute: z.number().int().min(0).max(10_000).default(0),
  flattenOnDailyLoss: z.boolean().default(false),
  // A file written before the bands existed reads back with every market on the default band.
  priceBandBps: z.record(z.string(), z.number().int().min(0).max(MAX_PRICE_BAND_BPS)).default({}),
  // Read back complete: an action added since the file was written gets its default key (unless taken).
  hotkeys: z.record(z.string(), z.string()).transform(completeKeymap),
  sound: z.boolean(),
  desktopNotifications: z.boolean(),
  parallelLanes: z.number().int().min(0).max(5),
  sessionDays: z.number().int().min(1).max(365),
  quantityPresets: z.record(z.string(), z.array(z.bigint())),
  // A file written before the choice existed reads back with every market on the exit side, in percent.
  pnlDisplay: z.record(z.string(), z.object({ mark: z.enum(MARK_SOURCES), unit: z.enum(PNL_UNITS) })).default({}),
  // A file written before the studies existed reads back with the default averages.
  chartStudies: z.object({ averages: z.tuple([movingAverage, movingAverage]) }).default(() => structuredClone(DEFAULT_CHART_STUDIES) as { averages: [z.output<typeof movingAverage>, z.output<typeof movingAverage>] }),
  // Files written before the overview and the order-flow highlight read back with none.
  favouriteMarkets: z.array(z.string().regex(/^0x[0-9a-f]{64}$/)).max(500).default([]),
  largeTradeSize: z.record(z.string(), z.bigint()).default({}),
});

export const preferencesSchema = z.object({
  version: z.literal(1),
  networkId: z.string(),
  networks: z.partialRecord(z.enum(['devnet', 'testnet', 'mainnet']), networkOverride),
  settings: settingsSchema,
  /** The day's P&L baseline of the daily loss limit (main/services/guards/daily-loss.ts), per network and account ("<network> <account>"). */
  riskDay: z
    .record(
      z.string(),
      z.object({
        day: z.string(),
        account: z.string(),
        totals: z.record(z.string(), z.string()),
        // Per quote asset: the limit (raw units, decimal text) whose breach main already acted on that day.
        breached: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
});

export type Preferences = z.output<typeof preferencesSchema>;

const owner = z.object({ address: z.string(), style: z.enum(['ledger', 'evm']), custody: z.enum(['keychain', 'watch-only']) });

const sessionRecord = z.object({
  sessionAddress: z.string(),
  expiry: z.bigint(),
  contractIds: z.array(z.string()),
  txId: z.string().nullable(),
  /** The length the trader chose, in seconds: renewals keep it (absent in files written before it was kept). */
  lengthSeconds: z.bigint().optional(),
});

const accountRecord = z.object({
  tradeAccountId: z.string(),
  whitelisted: z.boolean().nullable(),
  session: sessionRecord.nullable(),
  /** Parallel nonce cursors per lane (next position index), persisted before a request leaves. */
  laneCursors: z.record(z.string(), z.bigint()),
});

export const accountsSchema = z.object({
  version: z.literal(1),
  owners: z.array(owner),
  /** Per network: which owner is active, and that owner's trade account there. */
  networks: z.record(
    z.string(),
    z.object({
      activeOwner: z.string().nullable(),
      accounts: z.record(z.string(), accountRecord),
      /** Markets the user traded or subscribed to, for session scope suggestions. */
      sessionMarkets: z.array(z.string()),
      /**
       * Per trading account: the Turbo Account its Turbo books are traded as (the trader's choice),
       * restored when the terminal comes back to this network, so the signer of Turbo orders never
       * changes without the trader choosing it.
       */
      turboTradingAs: z.record(z.string(), z.string()).optional(),
    }),
  ),
});

export type AccountsFile = z.output<typeof accountsSchema>;
export type AccountRecord = z.output<typeof accountRecord>;
export type SessionRecord = z.output<typeof sessionRecord>;
export type OwnerRecord = z.output<typeof owner>;

const BUILT_IN: Record<'devnet' | 'testnet' | 'mainnet', { name: string; kind: NetworkKind; production: boolean; faucetNetwork: string | null }> = {
  devnet: { name: 'Devnet', kind: 'devnet', production: false, faucetNetwork: 'devnet' },
  testnet: { name: 'Testnet', kind: 'testnet', production: false, faucetNetwork: 'testnet' },
  mainnet: { name: 'Mainnet', kind: 'mainnet', production: true, faucetNetwork: null },
};

export class PreferencesStore {
  readonly preferences: JsonStore<typeof preferencesSchema>;
  readonly accounts: JsonStore<typeof accountsSchema>;

  constructor(dataDir: string, log: (line: string) => void) {
    this.preferences = new JsonStore(
      join(dataDir, 'settings.json'),
      preferencesSchema,
      () => ({ version: 1 as const, networkId: SANDBOX_NETWORK.id, networks: {}, settings: structuredClone(DEFAULT_SETTINGS) as Preferences['settings'] }),
      log,
    );
    this.accounts = new JsonStore(join(dataDir, 'accounts.json'), accountsSchema, () => ({ version: 1 as const, owners: [], networks: {} }), log);
  }

  /** Every network the app knows, with the user's URLs for the configurable ones. */
  networks(): NetworkConfig[] {
    const overrides = this.preferences.get().networks;
    const configured = (['devnet', 'testnet', 'mainnet'] as const).map((id): NetworkConfig => {
      const builtIn = BUILT_IN[id];
      if (id === 'mainnet') {
        // Pinned in main at build time (pinned-mainnet.ts): whatever a settings file says is ignored.
        // A test build's fake mainnet says so in its name, so it is never taken for the real one.
        return { id, name: PINNED_MAINNET?.test === true ? `${builtIn.name} (test build)` : builtIn.name, kind: builtIn.kind, restUrl: PINNED_MAINNET?.restUrl ?? null, wsUrl: PINNED_MAINNET?.wsUrl ?? null, faucetUrl: null, faucetNetwork: null, production: true, chainId: PINNED_MAINNET?.chainId ?? null };
      }
      const override = overrides[id];
      return {
        id,
        name: builtIn.name,
        kind: builtIn.kind,
        restUrl: override?.restUrl ?? null,
        wsUrl: override?.wsUrl ?? null,
        faucetUrl: builtIn.faucetNetwork === null ? null : (override?.faucetUrl ?? null),
        faucetNetwork: builtIn.faucetNetwork,
        production: builtIn.production,
        chainId: override?.chainId ? BigInt(override.chainId) : null,
      };
    });
    return [SANDBOX_NETWORK, ...configured];
  }

  network(id: string): NetworkConfig | null {
    return this.networks().find((network) => network.id === id) ?? null;
  }
}
