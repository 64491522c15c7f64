// What an alert's firing says: prices in the market's display decimals, and text from the exchange
// or the trader escaped and quoted, never read as the terminal's own words.
import { describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../../../main/services/alerts/alert-rules';
import { describeCondition, firingText, listedName, refusalDetail } from '../../../../../main/services/alerts/alert-text';
import { ethUsdc } from '../../../../support/shared/market/fixtures';

const condition = { kind: 'price' as const, marketId: ethUsdc.market_id, turbo: false, source: 'bid' as const, direction: 'above' as const, price: 3_000n * 10n ** BigInt(ethUsdc.quote.decimals), hysteresis: 0n };
const alert: AlertRecord = { id: 'alert-1', condition, repeat: false, cooldownSeconds: 0, sound: false, note: 'breakout\u202E', enabled: true, createdAt: 0, lastFiredAt: null };

describe('alert text', () => {
  it('names the market and shows prices in its display decimals', () => {
    expect(describeCondition(condition, ethUsdc)).toBe('ETH/USDC bid crosses above 3,000.00');
    expect(firingText(alert, ethUsdc, { value: condition.price + 10n ** BigInt(ethUsdc.quote.decimals - 1), detail: null })).toBe(
      'Alert: ETH/USDC bid crossed above 3,000.00 (now 3,000.10). Note: "breakout\\u{202E}"',
    );
  });

  it('quotes and escapes a refusal’s text from the exchange, and a code that is not a plain code', () => {
    expect(refusalDetail('reverted', 'PriceOutsideWindow', 'price <b>"far"</b>\u200B')).toBe('A signed request was reverted ("PriceOutsideWindow"): "price <b>\\"far\\"</b>\\u{200B}"');
    expect(refusalDetail('refused', 'NONCE_USED', null)).toBe('A signed request was refused (NONCE_USED)');
  });
});

describe('market names', () => {
  it('adds the place in the listing where two markets share the symbols, as the windows do', () => {
    const twin = { ...ethUsdc, market_id: `0x${'a2'.repeat(32)}` as typeof ethUsdc.market_id };
    expect(listedName(ethUsdc.market_id, [ethUsdc])).toBe('ETH/USDC');
    expect(listedName(twin.market_id, [ethUsdc, twin])).toBe('ETH/USDC #2');
    expect(listedName(`0x${'ff'.repeat(32)}`, [ethUsdc])).toBeNull();
    expect(describeCondition(condition, ethUsdc, 'ETH/USDC #1')).toBe('ETH/USDC #1 bid crosses above 3,000.00');
  });
});
