// Which changes of the settings weaken a safety setting, and so need the trusted confirmation:
// turning order confirmations off, raising or removing a maximum order size, notional or
// position, a daily loss limit or the orders per minute, widening or turning
// off a market's price band, making sessions last longer (a session key that can trade for more
// days), a hotkey that makes an accident likelier (hotkey-weakening.ts). Tightening, and the
// settings that touch no safety (sound, notifications, presets, nonce lanes), apply at once.
import type { Keymap } from '../../../shared/hotkeys/keymap';
import type { Settings } from '../../../shared/ipc/views';
import { bandLoosens, bandText, priceBandOf } from '../../../shared/market/price-band';
import { hotkeyWeakenings } from './hotkey-weakening';
import { trusted, type TrustedText } from './trusted-text';

/** The safety settings a change may name (the rest of updateSettings's input is not looked at). */
export interface SettingsPatch {
  readonly confirmOrders?: boolean | undefined;
  readonly maxOrderQuantity?: Readonly<Record<string, bigint>> | undefined;
  readonly maxOrderNotional?: Readonly<Record<string, bigint>> | undefined;
  readonly maxPosition?: Readonly<Record<string, bigint>> | undefined;
  /** Per quote asset id. */
  readonly dailyLossLimit?: Readonly<Record<string, bigint>> | undefined;
  readonly maxOrdersPerMinute?: number | undefined;
  readonly flattenOnDailyLoss?: boolean | undefined;
  readonly priceBandBps?: Readonly<Record<string, number>> | undefined;
  readonly sessionDays?: number | undefined;
  /** The whole keymap as it would be saved (applyKeymapChange's result). */
  readonly hotkeys?: Keymap | undefined;
}

/** One line per weakened setting, "what: before → after", in the words the trader sees. */
export interface QuantityWords {
  /** The market's name ("ETH/USDC 0x1234…"); its symbols and id escaped (`trusted`). */
  market(marketId: string): TrustedText;
  /** A quantity in the market's base asset ("1.5 ETH (1500000000 raw units)"). */
  quantity(marketId: string, quantity: bigint): TrustedText;
  /** An amount in the market's quote asset ("1500 USDC (1500000000000 raw units)"); raw units when not given. */
  quote?(marketId: string, amount: bigint): TrustedText;
  /** An asset's symbol ("USDC"); its id when not given. */
  asset?(assetId: string): TrustedText;
  /** An amount of an asset ("500.00 USDC (500000000000 raw units)"); raw units when not given. */
  assetAmount?(assetId: string, amount: bigint): TrustedText;
}

/** A per-market cap raised or removed: one line per market it loosens (a market added is a tightening). */
function capLoosenings(what: TrustedText, current: Readonly<Record<string, bigint>>, patch: Readonly<Record<string, bigint>>, words: QuantityWords, amount: (marketId: string, value: bigint) => TrustedText): TrustedText[] {
  const lines: TrustedText[] = [];
  for (const [marketId, cap] of Object.entries(current)) {
    const next = patch[marketId];
    if (next === undefined) lines.push(trusted`${what} on ${words.market(marketId)}: ${amount(marketId, cap)} → no limit`);
    else if (next > cap) lines.push(trusted`${what} on ${words.market(marketId)}: ${amount(marketId, cap)} → ${amount(marketId, next)}`);
  }
  return lines;
}

export function settingsWeakenings(current: Settings, patch: SettingsPatch, words: QuantityWords): TrustedText[] {
  const lines: TrustedText[] = [];
  if (current.confirmOrders && patch.confirmOrders === false) lines.push(trusted`Confirm every order: on → off (orders are sent without a confirmation)`);
  if (patch.maxOrderQuantity !== undefined) {
    for (const [marketId, cap] of Object.entries(current.maxOrderQuantity)) {
      const next = patch.maxOrderQuantity[marketId];
      if (next === undefined) lines.push(trusted`Maximum order size on ${words.market(marketId)}: ${words.quantity(marketId, cap)} → no limit`);
      else if (next > cap) lines.push(trusted`Maximum order size on ${words.market(marketId)}: ${words.quantity(marketId, cap)} → ${words.quantity(marketId, next)}`);
    }
  }
  if (patch.maxOrderNotional !== undefined) lines.push(...capLoosenings(trusted`Maximum order notional`, current.maxOrderNotional, patch.maxOrderNotional, words, (marketId, value) => words.quote?.(marketId, value) ?? trusted`${value} raw units`));
  if (patch.maxPosition !== undefined) lines.push(...capLoosenings(trusted`Maximum position`, current.maxPosition, patch.maxPosition, words, (marketId, value) => words.quantity(marketId, value)));
  if (patch.dailyLossLimit !== undefined) {
    const amount = (assetId: string, value: bigint) => words.assetAmount?.(assetId, value) ?? trusted`${value} raw units`;
    for (const [quoteAsset, limit] of Object.entries(current.dailyLossLimit)) {
      const next = patch.dailyLossLimit[quoteAsset];
      const asset = words.asset?.(quoteAsset) ?? trusted`${quoteAsset}`;
      if (next === undefined) lines.push(trusted`Daily loss limit in ${asset}: ${amount(quoteAsset, limit)} → no limit`);
      else if (next > limit) lines.push(trusted`Daily loss limit in ${asset}: ${amount(quoteAsset, limit)} → ${amount(quoteAsset, next)}`);
    }
  }
  if (patch.maxOrdersPerMinute !== undefined && current.maxOrdersPerMinute !== 0 && (patch.maxOrdersPerMinute === 0 || patch.maxOrdersPerMinute > current.maxOrdersPerMinute)) {
    lines.push(trusted`Maximum orders per minute: ${current.maxOrdersPerMinute} → ${patch.maxOrdersPerMinute === 0 ? 'no limit' : patch.maxOrdersPerMinute}`);
  }
  if (current.flattenOnDailyLoss && patch.flattenOnDailyLoss === false) {
    lines.push(trusted`On the daily loss limit’s breach, cancel open orders and flatten: on → off (positions stay open past the limit)`);
  }
  if (patch.priceBandBps !== undefined) {
    // The patch replaces every band: a market it leaves out goes back to the default.
    const markets = new Set([...Object.keys(current.priceBandBps), ...Object.keys(patch.priceBandBps)]);
    for (const marketId of markets) {
      const before = priceBandOf(current.priceBandBps, marketId);
      const after = priceBandOf(patch.priceBandBps, marketId);
      if (bandLoosens(before, after)) lines.push(trusted`Price band on ${words.market(marketId)}: ${bandText(before)} → ${bandText(after)}${after === 0 ? ' (orders at any price are signed)' : ''}`);
    }
  }
  if (patch.sessionDays !== undefined && patch.sessionDays > current.sessionDays) lines.push(trusted`Session length: ${current.sessionDays} → ${patch.sessionDays} days (a session key may trade for longer)`);
  if (patch.hotkeys !== undefined) lines.push(...hotkeyWeakenings(current.hotkeys, patch.hotkeys));
  return lines;
}
