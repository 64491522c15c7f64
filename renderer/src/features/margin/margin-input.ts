// What the margin forms check before a confirmation: an amount the trader typed, parsed exactly in
// the asset's raw units, and held to the balance or limit the form knows, each refusal a sentence
// naming the field, the value and the reason (not a number, negative, more decimals than the
// asset has, above what is available, with that figure). The form shows it under the field and
// keeps the confirm button off. Main parses and checks again before signing.
import type { MarginAssetRef } from '../../../../shared/ipc/views/margin';
import { parseUnits } from '../../../../shared/encoding/units';
import { formatUnits } from '../../format/units';

/** The most the field may take, and where that figure comes from ("on the trading account"). */
export interface AmountLimit {
  readonly amount: bigint;
  readonly where: string;
}

export type AmountCheck = { readonly ok: true; readonly value: bigint } | { readonly ok: false; readonly message: string };

export interface AmountRules {
  /** An empty field means zero (an optional amount such as extra collateral). */
  readonly optional?: boolean;
  /** The balance or limit available for this action, when the form knows it. */
  readonly limit?: AmountLimit | null;
}

const shownValue = (text: string) => `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;

/** Check what the trader typed in `field` (a label: "Amount", "Extra collateral") as an amount of `asset`. */
export function checkAmount(text: string, field: string, asset: Pick<MarginAssetRef, 'symbol' | 'decimals'>, rules: AmountRules = {}): AmountCheck {
  const typed = text.trim();
  // Thousands separators as the screen writes them are accepted; nothing else is rewritten.
  const plain = /^[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?$/.test(typed) ? typed.replaceAll(',', '') : typed;
  if (plain === '') return rules.optional ? { ok: true, value: 0n } : { ok: false, message: `${field}: enter an amount of ${asset.symbol}.` };
  if (/^-/.test(plain)) return { ok: false, message: `${field}: ${shownValue(typed)} is negative; enter an amount of ${asset.symbol} above zero.` };
  const parsed = parseUnits(plain, asset.decimals, field);
  if (!parsed.ok) {
    if (parsed.code === 'TOO_MANY_DECIMALS') {
      return { ok: false, message: `${field}: ${shownValue(typed)} has more decimals than ${asset.symbol} has (${asset.decimals}).` };
    }
    if (parsed.code === 'AMOUNT_OUT_OF_RANGE') return { ok: false, message: `${field}: ${shownValue(typed)} is larger than the exchange can represent.` };
    return { ok: false, message: `${field}: ${shownValue(typed)} is not a number; enter digits with at most one "." (for example 12.5).` };
  }
  if (parsed.value === 0n) return rules.optional ? parsed : { ok: false, message: `${field}: ${shownValue(typed)} is zero; enter an amount of ${asset.symbol} above zero.` };
  const limit = rules.limit;
  if (limit && parsed.value > limit.amount) {
    const available = `${formatUnits(limit.amount, asset.decimals)} ${asset.symbol}`;
    return { ok: false, message: `${field}: ${formatUnits(parsed.value, asset.decimals)} ${asset.symbol} is above the ${available} available ${limit.where}.` };
  }
  return parsed;
}

/** Check a whole count typed in `field` (1 to `max`). */
export function checkCount(text: string, field: string, max: number): AmountCheck {
  const typed = text.trim();
  if (typed === '') return { ok: false, message: `${field}: enter a whole number from 1 to ${max}.` };
  if (!/^[0-9]+$/.test(typed)) return { ok: false, message: `${field}: ${shownValue(typed)} is not a whole number from 1 to ${max}.` };
  const value = BigInt(typed);
  if (value < 1n || value > BigInt(max)) return { ok: false, message: `${field}: ${typed} is not between 1 and ${max}.` };
  return { ok: true, value };
}
