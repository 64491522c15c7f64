// The margin area of the contract: Turbo Accounts (margin children of the trading account), their
// sessions of both cohorts, credit actions, the live risk of one account, and trading on Turbo
// books as the selected Turbo Account (margin-api). One named request per operation; main signs
// every write through the submitter and refuses any margin action while the account's margin
// state is stale. Merged in ../contract.ts.
import { z } from 'zod';
import { ORDER_KINDS } from '../../market/order-kinds';
import { b256Input, confirmationCode, noInput } from '../inputs';
import { request, stream } from '../spec';
import type {
  CloseMarginReport,
  MarginActionReceipt,
  MarginOverview,
  MarginRegistration,
  MarginRiskFrame,
  MarginSettingsView,
  TurboMarketsView,
  TurboOrderCheck,
} from '../views/margin';

const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** Raw units of an asset, a u64 on the ledger. */
const amount = z.bigint().min(1n, 'must be at least 1 raw unit').max(U64_MAX, 'must fit in u64');

const marginAccountId = b256Input;

/** StartMarginSession and ProlongSession periods (margin-api 4.3). */
const period = z.enum(['SixHours', 'Day', 'Week', 'Month']);

/** Tier ids are decimal strings on the wire and a u64 in call data. */
const tierId = z.string().regex(/^\d{1,20}$/, 'expected a decimal tier id');

const side = z.enum(['Buy', 'Sell']);

export const marginInputs = {
  openMarginSession: z.strictObject({
    marginAccountId,
    tierId,
    period,
    /**
     * The amount the trader was shown and confirms. Prepaid: must equal the exact opening amount
     * main computes right before signing (refused otherwise, never clamped). Legacy: at least the
     * opening amount; anything above it is posted as collateral. Absent: the exact amount.
     */
    amount: amount.optional(),
  }),
  marginDraw: z.strictObject({ marginAccountId, amount }),
  marginReturnQuote: z.strictObject({ marginAccountId, amount }),
  marginBorrow: z.strictObject({
    marginAccountId,
    assetId: b256Input,
    amount,
    /** Return this much drawn quote first, in the same batch (margin 2.6 note: returnable quote). */
    returnQuoteFirst: amount.optional(),
  }),
  marginRepay: z.strictObject({ marginAccountId, assetId: b256Input, amount }),
  marginRepayFromCollateral: z.strictObject({ marginAccountId, amount }),
  marginRepayBaseFromCollateral: z.strictObject({ marginAccountId, assetId: b256Input, amount }),
  marginAddCollateral: z.strictObject({ marginAccountId, amount }),
  /** WithdrawFromMargin: eligible funds of a live session to the parent. */
  marginWithdraw: z.strictObject({ marginAccountId, assetId: b256Input, amount }),
  marginProlong: z.strictObject({ marginAccountId, period, times: z.bigint().min(1n, 'must be at least 1').max(1_000n, 'at most 1000 periods at once') }),
  marginSetAutoProlong: z.strictObject({ marginAccountId, period: period.nullable() }),
  closeMarginSession: z.strictObject({
    marginAccountId,
    /**
     * true (default): first cancel the account's open orders, settle its books, return drawn quote
     * and repay in-kind debts it can cover, then fetch the cleanups and close. false: close only if
     * nothing remains to do, and otherwise say exactly what remains.
     */
    prepare: z.boolean().optional(),
  }),
  /** WithdrawFromMarginAccount: a closed account's balance to the parent; every asset when none is named. */
  withdrawFromMarginAccount: z.strictObject({ marginAccountId, assetId: b256Input.optional(), amount: amount.optional() }),
  selectMarginAccount: z.strictObject({ marginAccountId: marginAccountId.nullable() }),
  subscribeMarginRisk: z.strictObject({ marginAccountId }),
  unsubscribeMarginRisk: z.strictObject({ subscriptionId: z.string().min(1).max(64) }),
  checkTurboOrder: z.strictObject({
    marketId: b256Input,
    side,
    orderKind: z.enum(ORDER_KINDS),
    /** Raw quote units per whole base unit; for Market the ticket's best price (the bound's reference). */
    price: amount,
    quantity: amount,
    maxPrice: z.bigint().min(0n).max(U64_MAX).optional(),
    minPrice: z.bigint().min(0n).max(U64_MAX).optional(),
  }),
  updateMarginSettings: z.strictObject({
    convertMarketOrders: z.boolean().optional(),
    /** 1 bp to 20 %. */
    marketSlippageBps: z.number().int().min(1).max(2_000).optional(),
    fundOrders: z.boolean().optional(),
    /** A wider bound loosens a safety setting: confirmed outside the page (docs/architecture.md). */
    confirmationCode,
  }),
} as const;

export const marginRequests = {
  getMarginOverview: request<MarginOverview>()(noInput),
  registerMarginAccount: request<MarginRegistration>()(noInput),
  openMarginSession: request<MarginActionReceipt>()(marginInputs.openMarginSession),
  marginDraw: request<MarginActionReceipt>()(marginInputs.marginDraw),
  marginReturnQuote: request<MarginActionReceipt>()(marginInputs.marginReturnQuote),
  marginBorrow: request<MarginActionReceipt>()(marginInputs.marginBorrow),
  marginRepay: request<MarginActionReceipt>()(marginInputs.marginRepay),
  marginRepayFromCollateral: request<MarginActionReceipt>()(marginInputs.marginRepayFromCollateral),
  marginRepayBaseFromCollateral: request<MarginActionReceipt>()(marginInputs.marginRepayBaseFromCollateral),
  marginAddCollateral: request<MarginActionReceipt>()(marginInputs.marginAddCollateral),
  marginWithdraw: request<MarginActionReceipt>()(marginInputs.marginWithdraw),
  marginProlong: request<MarginActionReceipt>()(marginInputs.marginProlong),
  marginSetAutoProlong: request<MarginActionReceipt>()(marginInputs.marginSetAutoProlong),
  closeMarginSession: request<CloseMarginReport>()(marginInputs.closeMarginSession),
  withdrawFromMarginAccount: request<MarginActionReceipt>()(marginInputs.withdrawFromMarginAccount),
  selectMarginAccount: request<MarginOverview>()(marginInputs.selectMarginAccount),
  subscribeMarginRisk: request<{ readonly subscriptionId: string }>()(marginInputs.subscribeMarginRisk),
  unsubscribeMarginRisk: request<null>()(marginInputs.unsubscribeMarginRisk),
  getTurboMarkets: request<TurboMarketsView>()(noInput),
  checkTurboOrder: request<TurboOrderCheck>()(marginInputs.checkTurboOrder),
  updateMarginSettings: request<MarginSettingsView>()(marginInputs.updateMarginSettings),
} as const;

export const marginStreams = {
  /** One account's risk, at most once per frame per subscription, and on every live/stale change. */
  marginRisk: stream<MarginRiskFrame>(),
  /** The overview after every change of accounts, sessions, selection or scope. */
  marginOverview: stream<MarginOverview>(),
  /** The Turbo rows after a change of connection or pause, and of the trading account. */
  turboMarkets: stream<TurboMarketsView>(),
} as const;
