// The margin panel's figures: amounts in each asset's display decimals (learnt from the markets),
// tier periods in words, and the mark PRICE of a position (not its value).
import { describe, expect, it } from 'vitest';
import type { MarketsView } from '../../shared/ipc/views';
import type { Market } from '../../shared/market/market';
import { displayDecimalsOf, durationText, holding, learnDisplayDecimals, markPrice, money, oraclePrice, periodOfferText, periodText } from '../../renderer/src/features/margin/margin-format';
import { ethUsdc } from '../support/renderer/fixtures';
import { assetDisplayDecimals } from '../../renderer/src/format/columns';

const fuelUsdc: Market = { ...ethUsdc, market_id: `0x${'f1'.repeat(32)}` as Market['market_id'], base: { symbol: 'FUEL', asset: `0x${'fe'.repeat(32)}` as Market['base']['asset'], decimals: 9, max_precision: 0 }, quote: { ...ethUsdc.quote, max_precision: 6 } };
const btcUsdc: Market = { ...ethUsdc, market_id: `0x${'b1'.repeat(32)}` as Market['market_id'], base: { symbol: 'BTC', asset: `0x${'bb'.repeat(32)}` as Market['base']['asset'], decimals: 8, max_precision: 5 }, quote: { ...ethUsdc.quote, max_precision: 1 } };
const markets: MarketsView = { networkId: 'sandbox', chainId: 1n, markets: [ethUsdc, fuelUsdc, btcUsdc], turboMarkets: [{ ...btcUsdc, turbo: true }] };
const usdc = { assetId: ethUsdc.quote.asset, symbol: 'USDC', decimals: 6 };
const eth = { assetId: ethUsdc.base.asset, symbol: 'ETH', decimals: 9 };

describe('margin figures', () => {
  it('an asset is shown in the one precision every panel uses: the largest any market gives it (USDC: 1, 2, 6 -> 6)', () => {
    const shown = displayDecimalsOf(markets);
    expect(shown.get(ethUsdc.quote.asset)).toBe(6);
    expect(shown.get(ethUsdc.quote.asset)).toBe(assetDisplayDecimals(ethUsdc.quote.asset, 6, markets.markets));
    expect(shown.get(ethUsdc.base.asset)).toBe(4);
    expect(shown.get(fuelUsdc.base.asset)).toBe(0);
  });
  it('amounts show exactly the display decimals, cut toward zero, with separators', () => {
    learnDisplayDecimals(markets);
    expect(money(65_000_000n, usdc)).toBe('65.000000 USDC');
    expect(money(2_000_123_456n, usdc)).toBe('2,000.123456 USDC');
    expect(money(-1_239_999n, usdc)).toBe('-1.239999 USDC');
    expect(money(300_000_000n, eth)).toBe('0.3000 ETH');
    expect(money(300_000_019n, eth)).toBe('0.3000 ETH');
    // a price of ETH in USDC reads as the ETH/USDC market shows it
    expect(oraclePrice(2_950_123_000_000_000_000_000n, usdc, eth.assetId)).toBe('2,950.12 USDC');
  });
  it('a holding or a debt is never cut: a remainder below the size step shows as it is, as Positions shows it', () => {
    learnDisplayDecimals(markets);
    expect(holding(83_890n, eth)).toBe('0.00008389 ETH');
    expect(holding(300_000_000n, eth)).toBe('0.3000 ETH');
    expect(holding(1_594_321n, usdc)).toBe('1.594321 USDC');
  });
  it('says tier periods and terms in words', () => {
    expect(periodText('SixHours')).toBe('6 hours');
    expect(periodText('Week')).toBe('1 week');
    expect(periodOfferText('Week', 604_800n)).toBe('1 week');
    expect(periodOfferText('Week', 2_419_200n)).toBe('1 week (term 28 days)');
    expect(periodOfferText('Day', null)).toBe('1 day');
    expect(durationText(21_600n)).toBe('6 hours');
    expect(durationText(129_600n)).toBe('1 day 12 hours');
    expect(durationText(2_700n)).toBe('45 minutes');
  });
  it('marks a holding at the bid and a short at the ask', () => {
    expect(markPrice(5n, 10n, 12n)).toEqual({ price: 10n, side: 'bid' });
    expect(markPrice(-5n, 10n, 12n)).toEqual({ price: 12n, side: 'ask' });
  });
});
