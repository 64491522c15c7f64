// Input schemas of the contract's requests. Every inbound value is `unknown` until one of these
// has parsed it in main; limits here (string lengths, list sizes) bound what a page can ask for.
import { parseHotkeyText } from '../hotkeys/keymap';
import { quotedText } from '../text/visible-text';
import { z } from 'zod';
import { inKindOrder, type OrderKind, type OrderTypeIntentOf } from '../market/order-kinds';
import { FLOW_WINDOWS, RESOLUTIONS } from './views/market-data';
import { HOTKEY_ACTIONS } from './views/settings';
import { MAX_PRICE_BAND_BPS } from '../market/price-band';
import { MARK_SOURCES, PNL_UNITS } from '../positions/pnl-display';
import { MOVING_AVERAGE_KINDS, MOVING_AVERAGE_LENGTH } from '../chart/chart-studies';

/** A hotkey binding: "" (no key) or a key combination shared/hotkeys/keymap.ts parses. */
const hotkeyText = z.string().max(40).superRefine((text, context) => {
  if (text === '') return;
  const parsed = parseHotkeyText(text);
  if (!parsed.ok) context.addIssue({ code: 'custom', message: `${quotedText(text, 40)} is not a key combination: ${parsed.reason}` });
});

export const noInput = z.strictObject({});

export const b256Input = z
  .string()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected a 32-byte hex id')
  .transform((value) => `0x${value.replace(/^0x/, '').toLowerCase()}`);

const movingAverageInput = z.strictObject({ kind: z.enum(MOVING_AVERAGE_KINDS), length: z.number().int().min(MOVING_AVERAGE_LENGTH.min).max(MOVING_AVERAGE_LENGTH.max) });
const chartStudiesInput = z.strictObject({ averages: z.tuple([movingAverageInput, movingAverageInput]) });
const amount = z.bigint().min(1n, 'must be positive').max(0xffff_ffff_ffff_ffffn, 'must fit in u64');
const ownerStyle = z.enum(['ledger', 'evm']);
const side = z.enum(['Buy', 'Sell']);
const hexText = (what: string, maxBytes: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{2,${maxBytes * 2}}$`), `expected ${what} as lowercase hex`);

/** Each kind's fields as the bridge carries them (shared/market/order-kinds.ts). */
const orderTypeInputs = {
  /** `timestamp` is seconds; main stamps the current time when absent. */
  Limit: z.strictObject({ kind: z.literal('Limit'), timestamp: z.bigint().min(0n).optional() }),
  Spot: z.strictObject({ kind: z.literal('Spot') }),
  PostOnly: z.strictObject({ kind: z.literal('PostOnly') }),
  FillOrKill: z.strictObject({ kind: z.literal('FillOrKill') }),
  Market: z.strictObject({ kind: z.literal('Market') }),
  BoundedMarket: z.strictObject({ kind: z.literal('BoundedMarket'), maxPrice: amount, minPrice: z.bigint().min(0n) }),
} satisfies { readonly [K in OrderKind]: z.ZodType<OrderTypeIntentOf<K>> };

export const orderTypeInput = z.discriminatedUnion('kind', inKindOrder(orderTypeInputs));

export const marketRef = { marketId: b256Input, turbo: z.boolean().optional() };

/**
 * The code the browser host printed on its own terminal for this exact request (trusted
 * confirmation, docs/architecture.md): absent on the first call, which makes main print one.
 * Electron confirms in a native dialog and ignores it.
 */
export const confirmationCode = z.string().regex(/^\d{4} ?\d{4}$/, 'expected the 8-digit code the terminal host printed').optional();

export const inputs = {
  selectNetwork: z.strictObject({ networkId: z.string().min(1).max(64) }),
  configureNetwork: z.strictObject({
    networkId: z.enum(['devnet', 'testnet', 'mainnet']),
    restUrl: z.url({ protocol: /^https?$/ }).max(300),
    wsUrl: z.url({ protocol: /^wss?$/ }).max(300).nullable(),
    faucetUrl: z.url({ protocol: /^https?$/ }).max(300).nullable(),
    /** The chain id the network must answer (decimal); null: learned at the first connection, then required. */
    chainId: z.string().regex(/^\d{1,20}$/, 'expected a decimal chain id').nullable().optional(),
    confirmationCode,
  }),

  createOwnerKey: z.strictObject({ style: ownerStyle }),
  importOwnerKey: z.strictObject({
    importId: z.string().regex(/^[0-9a-f]{32}$/),
    style: ownerStyle,
    /** The renderer's one-time ECDH P-256 public key, raw uncompressed. */
    publicKey: hexText('a public key', 65),
    iv: hexText('an IV', 12),
    ciphertext: hexText('the encrypted key', 256),
  }),
  registerWatchOnlyOwner: z.strictObject({ address: b256Input, style: ownerStyle }),
  selectOwner: z.strictObject({ address: b256Input }),
  /** Browser host: the code printed for forgetting this owner. */
  forgetOwner: z.strictObject({ address: b256Input, confirmationCode }),
  createSession: z.strictObject({
    marketIds: z.array(b256Input).min(1).max(50),
    /** Whole days, added to `hours`; neither given: the configured length (`sessionDays`). At least one hour in all (checked when signed). */
    days: z.number().int().min(0).max(365).optional(),
    hours: z.number().int().min(1).max(24 * 365).optional(),
    /** Browser host: the code printed for a session longer than the configured length. */
    confirmationCode,
  }),

  subscribeBook: z.strictObject({
    ...marketRef,
    precision: z.bigint().min(1n).max(1_000_000_000n),
    /** Levels per side the window shows. */
    levels: z.number().int().min(1).max(500),
    /** How far back the order flow counts (session by default). */
    flowWindow: z.enum(FLOW_WINDOWS).optional(),
  }),
  updateBookView: z.strictObject({ subscriptionId: z.string().max(64), levels: z.number().int().min(1).max(500), flowWindow: z.enum(FLOW_WINDOWS).optional() }),
  unsubscribe: z.strictObject({ subscriptionId: z.string().max(64) }),
  subscribeTrades: z.strictObject({ ...marketRef }),
  subscribeBars: z.strictObject({ ...marketRef, resolution: z.enum(RESOLUTIONS), countBack: z.number().int().min(1).max(5000) }),
  setWindowVisible: z.strictObject({ visible: z.boolean() }),

  placeOrder: z.strictObject({
    ...marketRef,
    side,
    orderType: orderTypeInput,
    /** Raw quote units per whole base unit. Ignored (but required positive) for Market orders. */
    price: amount,
    /** Raw base units. */
    quantity: amount,
    /** Only reduce the signing account's position on this book: main refuses it otherwise (GUARD_REDUCE_ONLY), never clips it. */
    reduceOnly: z.boolean().optional(),
  }),
  cancelOrder: z.strictObject({ ...marketRef, orderId: b256Input }),
  cancelAllOrders: z.strictObject({ marketId: b256Input.optional() }),
  moveOrder: z.strictObject({ ...marketRef, orderId: b256Input, price: amount }),
  /** Cancel and replace in one signed batch: a new price and/or a new quantity to rest (raw units); what is not given stays. */
  amendOrder: z
    .strictObject({ ...marketRef, orderId: b256Input, price: amount.optional(), quantity: amount.optional() })
    .refine((input) => input.price !== undefined || input.quantity !== undefined, { message: 'give a new price, a new quantity or both', path: ['price'] }),
  settleBalance: z.strictObject({ ...marketRef }),
  getOrderHistory: z.strictObject({ ...marketRef, cursor: z.string().max(2000).nullable() }),
  getFills: z.strictObject({ ...marketRef, cursor: z.string().max(2000).nullable() }),

  updateSettings: z.strictObject({
    confirmOrders: z.boolean().optional(),
    maxOrderQuantity: z.record(z.string().max(66), z.bigint().min(1n)).optional(),
    /** Per market id: the maximum order notional, raw quote units (a market not named has none). Raising or removing one is confirmed. */
    maxOrderNotional: z.record(z.string().max(66), z.bigint().min(1n)).optional(),
    /** Per market id: the maximum position, raw base units (a market not named has none). Raising or removing one is confirmed. */
    maxPosition: z.record(z.string().max(66), z.bigint().min(1n)).optional(),
    /** Per quote asset id: the daily loss limit, raw quote units (an asset not named has none). Raising or removing one is confirmed. */
    dailyLossLimit: z.record(z.string().max(66), z.bigint().min(1n)).optional(),
    /** 0 is no limit; raising it or turning it off is confirmed. */
    maxOrdersPerMinute: z.number().int().min(0).max(10_000).optional(),
    /** On the daily loss limit's breach, also cancel the open orders and flatten; turning it off is confirmed. */
    flattenOnDailyLoss: z.boolean().optional(),
    /** Per market id: the price band in bps around the book (0 is off; a market not named keeps the default). Loosening is confirmed. */
    priceBandBps: z.record(z.string().max(66), z.number().int().min(0).max(MAX_PRICE_BAND_BPS)).optional(),
    /** Key combinations per action ("" unbinds); each must parse, and main refuses two actions on one key (HOTKEY_CONFLICT). */
    hotkeys: z.partialRecord(z.enum(HOTKEY_ACTIONS), hotkeyText).optional(),
    sound: z.boolean().optional(),
    desktopNotifications: z.boolean().optional(),
    /** 0-4: lane 4 is kept for owner-signed requests (withdrawals, offline requests). */
    parallelLanes: z.number().int().min(0).max(4).optional(),
    sessionDays: z.number().int().min(1).max(365).optional(),
    quantityPresets: z.record(z.string().max(66), z.array(z.bigint().min(1n)).max(8)).optional(),
    /** Per market id: the mark and unit of its unrealized P&L, wherever it is shown (the whole record replaces the saved one). */
    pnlDisplay: z.record(z.string().max(66), z.strictObject({ mark: z.enum(MARK_SOURCES), unit: z.enum(PNL_UNITS) })).optional(),
    /** The chart's two moving averages: each a kind and a whole length in bars within the bounds (both given, the pair replaces the saved one). */
    chartStudies: chartStudiesInput.optional(),
    /** The starred markets of the overview (the whole list replaces the saved one). */
    favouriteMarkets: z.array(b256Input).max(500).optional(),
    /** Per market id: the large-lot size, raw base units (the whole record replaces the saved one). */
    largeTradeSize: z.record(z.string().max(66), z.bigint().min(1n).max(0xffff_ffff_ffff_ffffn)).optional(),
    /** The ladder's Turbo depth overlay (executable and demand depth per row), on or off. */
    turboDepthOverlay: z.boolean().optional(),
    confirmationCode,
  }),
  getJournal: z.strictObject({ limit: z.number().int().min(1).max(500), beforeSeq: z.number().int().min(0).optional() }),
  /** The damage reports the trader was shown (a report that arrived since stays open). */
  acknowledgeJournalDamage: z.strictObject({ reportIds: z.array(z.string().min(1).max(100)).min(1).max(50) }),
} as const;
