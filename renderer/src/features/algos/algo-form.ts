// An algorithm's ticket as a pure function: the texts typed (the ticket's side and quantity, and one
// text per parameter of shared/algos/algo-kinds.ts) in, either the exact AlgoSpec for previewAlgo /
// startAlgo or the first field that is wrong, named with the value typed. Amounts parse exactly as
// the order ticket's do (shared/encoding's parseUnits with the market's decimals: never rounded,
// refused with the reason); the ranges are the bridge schema's (shared/ipc/areas/algos.ts), so what
// the ticket lets through main accepts, and what main refuses for the market (the tick, the
// minimum) it says in the preview.
import { ALGO_KIND_TABLE, parameterShown, type AlgoParameter, type AlgoParameterName } from '../../../../shared/algos/algo-kinds';
import { parseUnits } from '../../../../shared/encoding/units';
import type { AlgoKind, AlgoParams, AlgoSpec, ScaleShape, TwapSlice } from '../../../../shared/ipc/views/algos';
import type { Market } from '../../../../shared/market/market';
import type { Side } from '../../../../shared/market/order-type';
import { isOnTick, priceTick } from '../../../../shared/market/tick';
import { formatPrice } from '../../format/market-format';

export type AlgoField = AlgoParameterName | 'quantity';

export interface AlgoFormInput {
  readonly kind: AlgoKind;
  readonly side: Side;
  readonly quantityText: string;
  readonly texts: Readonly<Partial<Record<AlgoParameterName, string>>>;
}

export interface AlgoFormError {
  readonly ok: false;
  readonly field: AlgoField;
  readonly code: string;
  readonly message: string;
}

export type AlgoFormResult = { readonly ok: true; readonly spec: AlgoSpec } | AlgoFormError;

const DAY_MS = 86_400_000n;
const HOUR_MS = 3_600_000n;

function refuse(field: AlgoField, code: string, message: string): AlgoFormError {
  return { ok: false, field, code, message };
}

const quoted = (text: string) => JSON.stringify(text.trim());

function parameterOf(kind: AlgoKind, name: AlgoParameterName): AlgoParameter {
  const found = ALGO_KIND_TABLE[kind].parameters.find((parameter) => parameter.name === name);
  if (found === undefined) throw new Error(`algo-form: ${kind} has no parameter ${name}`);
  return found;
}

class FieldError {
  constructor(readonly error: AlgoFormError) {}
}

/** Reads one form: each reader throws a FieldError that `algoSpec` turns into the result. */
function reader(market: Market, input: AlgoFormInput) {
  const text = (name: AlgoParameterName) => (input.texts[name] ?? parameterOf(input.kind, name).initial).trim();
  const label = (name: AlgoParameterName) => parameterOf(input.kind, name).label;
  const stop = (name: AlgoField, code: string, message: string): never => {
    throw new FieldError(refuse(name, code, message));
  };
  const decimal = (name: AlgoParameterName, decimals: number, unit: string): bigint => {
    const typed = text(name);
    if (typed === '') return stop(name, 'MISSING', `${label(name)} is empty: enter ${unit}.`);
    const parsed = parseUnits(typed, decimals, label(name));
    return parsed.ok ? parsed.value : stop(name, parsed.code, parsed.message);
  };
  const within = (name: AlgoParameterName, value: bigint, min: bigint, max: bigint, shown: string, range: string): bigint =>
    value < min || value > max ? stop(name, 'OUT_OF_RANGE', `${label(name)}: ${shown} is outside ${range}.`) : value;
  const whole = (name: AlgoParameterName, min: bigint, max: bigint, range: string): bigint => {
    const typed = text(name);
    if (typed === '') return stop(name, 'MISSING', `${label(name)} is empty: enter a whole number (${range}).`);
    if (!/^[0-9]{1,9}$/.test(typed)) return stop(name, 'INVALID_NUMBER', `${label(name)}: ${quoted(typed)} is not a whole number (${range}).`);
    return within(name, BigInt(typed), min, max, typed, range);
  };
  const price = (name: AlgoParameterName): bigint => {
    const value = decimal(name, market.quote.decimals, `a price in ${market.quote.symbol}`);
    if (value === 0n) return stop(name, 'ZERO_PRICE', `${label(name)}: ${quoted(text(name))} must be above zero.`);
    const tick = priceTick(market);
    if (!isOnTick(value, tick)) return stop(name, 'PRICE_NOT_ON_TICK', `${label(name)}: ${quoted(text(name))} is not on the price step ${formatPrice(market, tick)} ${market.quote.symbol}.`);
    return value;
  };
  const optionalPrice = (name: AlgoParameterName): bigint | null => (text(name) === '' ? null : price(name));
  const choice = (name: AlgoParameterName): string => {
    const typed = text(name);
    const choices = parameterOf(input.kind, name).choices ?? [];
    return choices.some((option) => option.value === typed) ? typed : stop(name, 'INVALID_CHOICE', `${label(name)}: ${quoted(typed)} is not one of ${choices.map((option) => option.label).join(', ')}.`);
  };
  return { text, label, stop, decimal, within, whole, price, optionalPrice, choice };
}

function initialOf(kind: AlgoKind): Partial<Record<AlgoParameterName, string>> {
  return Object.fromEntries(ALGO_KIND_TABLE[kind].parameters.map((parameter) => [parameter.name, parameter.initial]));
}

function readParams(market: Market, input: AlgoFormInput, read: ReturnType<typeof reader>): { params: AlgoParams; limitPrice: bigint | null } {
  switch (input.kind) {
    case 'twap': {
      // Minutes to the millisecond: thousandths of a minute are 60 ms each.
      const duration = read.decimal('duration', 3, 'minutes') * 60n;
      read.within('duration', duration, 10_000n, DAY_MS, `${read.text('duration')} min`, '10 s to 24 h (1440 min)');
      const interval = read.decimal('interval', 3, 'seconds');
      read.within('interval', interval, 1_000n, HOUR_MS, `${read.text('interval')} s`, '1 s to 1 h (3600 s)');
      if (interval > duration) read.stop('interval', 'INTERVAL_ABOVE_DURATION', `Interval: ${read.text('interval')} s is longer than the duration (${read.text('duration')} min): there would be one slice only.`);
      const sizeJitter = read.within('sizeJitter', read.decimal('sizeJitter', 2, 'a percentage (0 for none)'), 0n, 5_000n, `${read.text('sizeJitter')} %`, '0 % to 50 %');
      const timeJitter = read.within('timeJitter', read.decimal('timeJitter', 2, 'a percentage (0 for none)'), 0n, 5_000n, `${read.text('timeJitter')} %`, '0 % to 50 %');
      const slice: TwapSlice = read.choice('slice') === 'market' ? { kind: 'market', slippageBps: read.whole('slippage', 1n, 1_000n, '1 to 1,000 bps') } : { kind: 'touch' };
      return {
        params: { kind: 'twap', durationMs: Number(duration), intervalMs: Number(interval), sizeJitterBps: sizeJitter, timeJitterBps: timeJitter, slice },
        limitPrice: read.optionalPrice('limitPrice'),
      };
    }
    case 'scale': {
      const from = read.price('from');
      const to = read.price('to');
      if (from === to) read.stop('to', 'SAME_PRICE', `To price: ${read.text('to')} is the from price too; a scale spreads orders across a range.`);
      const count = Number(read.whole('count', 2n, 100n, '2 to 100'));
      const distribution = read.choice('distribution');
      let shape: ScaleShape = { distribution: 'flat' };
      if (distribution === 'increasing' || distribution === 'decreasing') {
        const curve = read.choice('curve') === 'geometric' ? 'geometric' : 'linear';
        // A linear curve has no ratio; the schema still wants one in range, and main ignores it.
        const ratioBps = curve === 'geometric' ? read.within('ratio', read.decimal('ratio', 4, 'a multiplier such as 1.2'), 10_001n, 30_000n, `×${read.text('ratio')}`, 'above ×1 and at most ×3') : 10_001n;
        shape = { distribution, curve, ratioBps };
      }
      return { params: { kind: 'scale', from, to, count, shape, postOnly: read.text('postOnly') !== 'false' }, limitPrice: null };
    }
    case 'iceberg': {
      const price = read.price('price');
      const visible = read.decimal('visible', market.base.decimals, `a size in ${market.base.symbol}`);
      if (visible === 0n) read.stop('visible', 'ZERO_SIZE', `Visible size: ${quoted(read.text('visible'))} must be above zero.`);
      return { params: { kind: 'iceberg', price, visible }, limitPrice: null };
    }
    case 'chase': {
      const offsetTicks = read.whole('offset', 0n, 10_000n, '0 to 10,000 ticks');
      const maxAmendsPerMinute = Number(read.whole('maxAmends', 1n, 120n, '1 to 120 a minute'));
      return { params: { kind: 'chase', offsetTicks, maxAmendsPerMinute }, limitPrice: read.optionalPrice('limitPrice') };
    }
  }
}

/** The AlgoSpec the form asks for, or its first wrong field (the quantity first, then in the ticket's order). */
export function algoSpec(market: Market, turbo: boolean, input: AlgoFormInput): AlgoFormResult {
  const quantityText = input.quantityText.trim();
  if (quantityText === '') return refuse('quantity', 'MISSING', 'Enter the total to work: the Quantity field is empty.');
  const quantity = parseUnits(quantityText, market.base.decimals, 'Quantity');
  if (!quantity.ok) return refuse('quantity', quantity.code, quantity.message);
  if (quantity.value === 0n) return refuse('quantity', 'ZERO_SIZE', `Quantity: ${quoted(quantityText)} must be above zero.`);
  try {
    const read = reader(market, input);
    const { params, limitPrice } = readParams(market, input, read);
    if (params.kind === 'iceberg' && params.visible > quantity.value) {
      return refuse('visible', 'VISIBLE_ABOVE_TOTAL', `Visible size: ${read.text('visible')} ${market.base.symbol} is more than the total ${quantityText} ${market.base.symbol}.`);
    }
    return { ok: true, spec: { marketId: market.market_id, turbo, side: input.side, quantity: quantity.value, limitPrice, params } };
  } catch (error) {
    if (error instanceof FieldError) return error.error;
    throw error;
  }
}

/** Whether the parameter is asked for now (a market slice's slippage, a geometric curve's ratio). */
export function fieldShown(kind: AlgoKind, parameter: AlgoParameter, texts: Readonly<Partial<Record<AlgoParameterName, string>>>): boolean {
  return parameterShown(kind, parameter, { ...initialOf(kind), ...texts });
}

/** A spec as a stable key: the preview shown belongs to exactly this spec. */
export function specKey(spec: AlgoSpec): string {
  return JSON.stringify(spec, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}
