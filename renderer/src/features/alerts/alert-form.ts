// The Alerts panel's form, read into a createAlert input: amounts parsed to raw units with the
// market's decimals, every problem named by its field before anything reaches main (which parses
// the input again).
import { formatUnits, parseUnits } from '../../../../shared/encoding/units';
import type { RequestInput } from '../../../../shared/ipc/contract';
import type { AlertCondition, AlertKind, AlertPriceSource, MarginAlertLine } from '../../../../shared/ipc/views/alerts';
import type { Market } from '../../../../shared/market/market';
import { priceTick } from '../../../../shared/market/tick';
import { fail, ok, type Result } from '../../../../shared/result';

export interface AlertForm {
  readonly kind: AlertKind;
  readonly market: Market | null;
  readonly turbo: boolean;
  readonly source: AlertPriceSource;
  readonly direction: 'above' | 'below';
  readonly priceText: string;
  readonly ticksText: string;
  readonly secondsText: string;
  /** Fill alerts: only the selected market's fills (or any market's). */
  readonly onlyThisMarket: boolean;
  readonly repeat: boolean;
  readonly cooldownText: string;
  readonly sound: boolean;
  readonly note: string;
  /** Margin alerts: the Turbo Account, the line, and the distance in % below which it fires. */
  readonly marginAccountId: string;
  readonly line: MarginAlertLine;
  readonly percentText: string;
}

function wholeNumber(text: string, field: string, min: number, max: number): Result<number> {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return fail('INVALID_INPUT', `${field}: a whole number is needed${trimmed === '' || trimmed.startsWith('-') ? '' : ` (not "${trimmed}")`}`);
  const value = Number(trimmed);
  if (value < min || value > max) return fail('INVALID_INPUT', `${field}: between ${min} and ${max}`);
  return ok(value);
}

export function alertFormInput(form: AlertForm): Result<RequestInput<'createAlert'>> {
  const cooldown = wholeNumber(form.cooldownText, 'Cool-down', 0, 86_400);
  if (!cooldown.ok) return cooldown;
  const settings = { repeat: form.repeat, cooldownSeconds: cooldown.value, sound: form.sound, note: form.note.trim() };
  switch (form.kind) {
    case 'price': {
      if (form.market === null) return fail('INVALID_INPUT', 'Market: choose a market');
      const price = parseUnits(form.priceText.trim(), form.market.quote.decimals, 'Price');
      if (!price.ok) return price;
      if (price.value <= 0n) return fail('INVALID_INPUT', 'Price: must be positive');
      return ok({ condition: { kind: 'price', marketId: form.market.market_id, turbo: form.turbo, source: form.source, direction: form.direction, price: price.value, hysteresis: priceTick(form.market) }, ...settings });
    }
    case 'spread': {
      if (form.market === null) return fail('INVALID_INPUT', 'Market: choose a market');
      const ticks = wholeNumber(form.ticksText, 'Ticks', 1, 1_000_000);
      if (!ticks.ok) return ticks;
      return ok({ condition: { kind: 'spread', marketId: form.market.market_id, turbo: form.turbo, ticks: ticks.value }, ...settings });
    }
    case 'fill':
      return ok({ condition: { kind: 'fill', marketId: form.onlyThisMarket && form.market !== null ? form.market.market_id : null }, ...settings });
    case 'rejected':
      return ok({ condition: { kind: 'rejected' }, ...settings });
    case 'stale': {
      const seconds = wholeNumber(form.secondsText, 'Seconds', 1, 3_600);
      if (!seconds.ok) return seconds;
      return ok({ condition: { kind: 'stale', seconds: seconds.value }, ...settings });
    }
    case 'margin': {
      if (form.marginAccountId === '') return fail('INVALID_INPUT', 'Turbo Account: choose one (register one in the Margin panel first)');
      const bps = parseUnits(form.percentText.trim(), 2, 'Distance');
      if (!bps.ok) return bps;
      if (bps.value < 1n || bps.value > 10_000n) return fail('INVALID_INPUT', 'Distance: between 0.01 and 100 %');
      return ok({ condition: { kind: 'margin', marginAccountId: form.marginAccountId, line: form.line, belowBps: Number(bps.value) }, ...settings });
    }
  }
}

/** An alert's level as the list shows it for editing, in the units the form takes ('' when its kind has none). */
export function levelText(condition: AlertCondition, market: Market | null): string {
  switch (condition.kind) {
    case 'price':
      return market === null ? condition.price.toString() : formatUnits(condition.price, market.quote.decimals, { minimumFractionDigits: market.quote.max_precision });
    case 'spread':
      return String(condition.ticks);
    case 'stale':
      return String(condition.seconds);
    case 'margin':
      return formatUnits(BigInt(condition.belowBps), 2);
    case 'fill':
    case 'rejected':
      return '';
  }
}

/** The same alert with the level typed in the list, read as the form reads it; the rest is kept. */
export function withLevel(condition: AlertCondition, text: string, market: Market | null): Result<AlertCondition> {
  switch (condition.kind) {
    case 'price': {
      if (market === null) return fail('INVALID_INPUT', 'Price: the market of this alert is not listed now');
      const price = parseUnits(text.trim(), market.quote.decimals, 'Price');
      if (!price.ok) return price;
      if (price.value <= 0n) return fail('INVALID_INPUT', `Price: must be positive (not "${text.trim()}")`);
      const tick = priceTick(market);
      if (price.value % tick !== 0n) return fail('INVALID_INPUT', `Price: ${text.trim()} is not on the ${formatUnits(tick, market.quote.decimals)} price step`);
      return ok({ ...condition, price: price.value });
    }
    case 'spread': {
      const ticks = wholeNumber(text, 'Ticks', 1, 1_000_000);
      return ticks.ok ? ok({ ...condition, ticks: ticks.value }) : ticks;
    }
    case 'stale': {
      const seconds = wholeNumber(text, 'Seconds', 1, 3_600);
      return seconds.ok ? ok({ ...condition, seconds: seconds.value }) : seconds;
    }
    case 'margin': {
      const bps = parseUnits(text.trim(), 2, 'Distance');
      if (!bps.ok) return bps;
      if (bps.value < 1n || bps.value > 10_000n) return fail('INVALID_INPUT', `Distance: between 0.01 and 100 % (not "${text.trim()}")`);
      return ok({ ...condition, belowBps: Number(bps.value) });
    }
    case 'fill':
    case 'rejected':
      return fail('INVALID_INPUT', `Level: a ${condition.kind === 'fill' ? 'fill' : 'refusal'} alert has no level`);
  }
}
