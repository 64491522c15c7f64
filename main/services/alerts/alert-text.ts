// The words of an alert and of its firing, written in main (the notice and the desktop
// notification carry them). Text that came from the exchange (a refusal's message) and the
// trader's note are escaped and quoted: shown as data, never as the terminal's own words.
import { formatUnits } from '../../../shared/encoding/units';
import type { AlertCondition, MarginAlertLine } from '../../../shared/ipc/views/alerts';
import type { FillNotice } from '../../../shared/ipc/views/trading';
import type { Market } from '../../../shared/market/market';
import { quotedText } from '../../../shared/text/visible-text';
import { marginDistance, type AlertRecord, type MarginFrame } from './alert-rules';

/**
 * A market's name as the windows show it (renderer/src/features/markets/market-label.ts): its
 * symbols, with its place in the exchange's listing ("ETH/USDC #2") where two markets share them.
 */
export function listedName(marketId: string, listed: readonly Market[]): string | null {
  const market = listed.find((candidate) => candidate.market_id === marketId);
  if (market === undefined) return null;
  const pair = `${market.base.symbol}/${market.quote.symbol}`;
  const twins = listed.filter((other) => `${other.base.symbol}/${other.quote.symbol}` === pair);
  return twins.length < 2 ? pair : `${pair} #${twins.indexOf(market) + 1}`;
}

/** How main names a market: its listed name, else its symbols, else the start of its id. */
export function marketLabel(marketId: string, turbo: boolean, market: Market | null, name: string | null = null): string {
  const shown = name ?? (market === null ? `market ${marketId.slice(0, 10)}…` : `${market.base.symbol}/${market.quote.symbol}`);
  return turbo ? `${shown} (Turbo)` : shown;
}

function price(value: bigint, market: Market | null): string {
  return market === null ? `${value} (raw units)` : formatUnits(value, market.quote.decimals, { groupSeparator: ',', minimumFractionDigits: market.quote.max_precision });
}

/** A Turbo Account as alerts name it: the start and the end of its id. */
export function accountLabel(accountId: string): string {
  return `Turbo Account ${accountId.slice(0, 10)}…${accountId.slice(-4)}`;
}

/** Basis points as a percentage: 250 → "2.5 %". */
export function percent(bps: number): string {
  return `${formatUnits(BigInt(bps), 2)} %`;
}

const LINE_NAMES: Readonly<Record<MarginAlertLine, string>> = { liquidation: 'liquidation', freeze: 'the freeze line' };

/** What a margin alert's firing says: the distance now, and the figures it is measured on, as the risk panel shows them. */
export function marginFiringDetail(condition: Extract<AlertCondition, { kind: 'margin' }>, frame: MarginFrame | null): string | null {
  if (frame === null || frame.risk === null) return null;
  const { bps } = marginDistance(frame.risk, condition.line);
  const amount = (raw: bigint) => `${formatUnits(raw, frame.collateral.decimals, { groupSeparator: ',' })} ${frame.collateral.symbol}`;
  const health = frame.risk.health;
  const figures =
    condition.line === 'liquidation'
      ? `value ${amount(frame.risk.accountValue)}, threshold ${amount(health.threshold)}`
      : `stressed value ${amount(frame.risk.stressedMarkedValue < frame.risk.stressedFilledValue ? frame.risk.stressedMarkedValue : frame.risk.stressedFilledValue)}, freeze line ${amount(health.freezeLine)}`;
  return `${accountLabel(condition.marginAccountId)} is ${percent(bps)} from ${LINE_NAMES[condition.line]} (below ${percent(condition.belowBps)}): ${figures}`;
}

export function describeCondition(condition: AlertCondition, market: Market | null, name: string | null = null): string {
  switch (condition.kind) {
    case 'price':
      return `${marketLabel(condition.marketId, condition.turbo, market, name)} ${condition.source} crosses ${condition.direction} ${price(condition.price, market)}`;
    case 'spread':
      return `${marketLabel(condition.marketId, condition.turbo, market, name)} spread wider than ${condition.ticks} tick${condition.ticks === 1 ? '' : 's'}`;
    case 'fill':
      return condition.marketId === null ? 'A fill of one of your orders' : `A fill on ${marketLabel(condition.marketId, false, market, name)}`;
    case 'rejected':
      return 'A request refused or reverted';
    case 'stale':
      return `Nothing from the exchange for more than ${condition.seconds} s`;
    case 'margin':
      return `${accountLabel(condition.marginAccountId)}: distance to ${LINE_NAMES[condition.line]} below ${percent(condition.belowBps)}`;
  }
}

/** What a firing says: what happened, the figure that made it fire, and the trader's note. */
export function firingText(alert: AlertRecord, market: Market | null, happened: { value: bigint | number | null; detail: string | null }, name: string | null = null): string {
  const condition = alert.condition;
  let text: string;
  switch (condition.kind) {
    case 'price':
      text = `${marketLabel(condition.marketId, condition.turbo, market, name)} ${condition.source} crossed ${condition.direction} ${price(condition.price, market)}${typeof happened.value === 'bigint' ? ` (now ${price(happened.value, market)})` : ''}`;
      break;
    case 'spread':
      text = `${marketLabel(condition.marketId, condition.turbo, market, name)} spread is wider than ${condition.ticks} tick${condition.ticks === 1 ? '' : 's'}${typeof happened.value === 'bigint' ? ` (${price(happened.value, market)})` : ''}`;
      break;
    case 'stale':
      text = `Nothing from the exchange for ${typeof happened.value === 'number' ? Math.floor(happened.value / 1000) : condition.seconds} s, heartbeats included`;
      break;
    case 'fill':
    case 'rejected':
    case 'margin':
      text = happened.detail ?? describeCondition(condition, market, name);
      break;
  }
  return alert.note === '' ? `Alert: ${text}` : `Alert: ${text}. Note: ${quotedText(alert.note, 200)}`;
}

/** A refusal as an alert says it: the exchange's (or the check's) words escaped and quoted. */
export function refusalDetail(status: 'refused' | 'reverted', code: string | null, message: string | null): string {
  return `A signed request was ${status}${code === null ? '' : ` (${visibleCode(code)})`}${message === null ? '' : `: ${quotedText(message, 160)}`}`;
}

/** A fill as an alert says it. */
export function fillDetail(notice: FillNotice, market: Market | null, name: string | null = null): string {
  const { fill } = notice;
  const size = market === null ? `${fill.quantity} (raw units)` : `${formatUnits(fill.quantity, market.base.decimals, { groupSeparator: ',' })} ${market.base.symbol}`;
  return `Order filled on ${marketLabel(fill.marketId, fill.turbo, market, name)}: ${fill.side} ${size} at ${price(fill.price, market)}`;
}

function visibleCode(code: string): string {
  return /^[A-Z0-9_]{1,60}$/.test(code) ? code : quotedText(code, 60);
}
