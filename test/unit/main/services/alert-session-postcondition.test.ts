// The trader-session contract of a price alert (test/support/trader-session/steps/alerts.ts):
// a one-shot alert the market was moved through fired exactly once, is listed as fired, fired
// only with the price past its level, and traded nothing.
import { describe, expect, it } from 'vitest';
import { checkAlertFiredOnce, firedAt, type AlertSet } from '../../../support/trader-session/steps/alerts';
import { b256 } from '../../../../shared/encoding/b256';
import type { AlertFiringView, AlertView } from '../../../../shared/ipc/views/alerts';
import type { Market } from '../../../../shared/market/market';
import type { TruthOrder } from '../../../support/trader-session/truth';

const market: Market = {
  contract_id: b256(`0x${'c1'.repeat(32)}`),
  market_id: b256(`0x${'a1'.repeat(32)}`),
  base: { symbol: 'ETH', asset: b256(`0x${'ba'.repeat(32)}`), decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: b256(`0x${'9c'.repeat(32)}`), decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000n,
  dust: 1_000_000n,
  price_window: 20,
};

const set: AlertSet = { alertId: 'alert-1', market, source: 'ask', direction: 'above', level: 3_010_000_000n, firedBeforeMove: 0, pastBeforeMove: false };
const firing = (text: string, at = 50): AlertFiringView => ({ id: `firing-${at}`, alertId: 'alert-1', at, text, sound: true, delivered: true });
const listed = { id: 'alert-1', enabled: false, lastFiredAt: 50 } as AlertView;
const good = firing('Alert: ETH/USDC ask crossed above 3,010.00 (now 3,010.50)');

describe('the price alert’s contract in a trader session', () => {
  it('reads the price main saw from the firing’s words', () => {
    expect(firedAt(good.text, market)).toBe(3_010_500_000n);
    expect(firedAt('Alert: a fill', market)).toBeNull();
  });

  it('holds for one firing past the level, listed as fired, and no new order', () => {
    expect(checkAlertFiredOnce(set, listed, [good], [])).toEqual([]);
  });

  it('reports a second firing, none, an alert still on, a firing short of the level, an early firing, and an order', () => {
    expect(checkAlertFiredOnce(set, listed, [good, firing(good.text, 60)], [])).toEqual([expect.stringMatching(/fired 2 times, expected exactly once/)]);
    expect(checkAlertFiredOnce(set, listed, [], [])).toEqual([expect.stringMatching(/fired 0 times/)]);
    expect(checkAlertFiredOnce(set, { ...listed, enabled: true }, [good], [])).toEqual([expect.stringMatching(/not listed as fired: enabled true/)]);
    expect(checkAlertFiredOnce(set, listed, [firing('Alert: ETH/USDC ask crossed above 3,010.00 (now 3,009.99)')], [])).toEqual([expect.stringMatching(/fired with the ask at 3009990000, not above its level/)]);
    expect(checkAlertFiredOnce({ ...set, firedBeforeMove: 1 }, listed, [good], [])).toEqual([expect.stringMatching(/fired before the market was moved/)]);
    expect(checkAlertFiredOnce({ ...set, firedBeforeMove: 1, pastBeforeMove: true }, listed, [good], [])).toEqual([]);
    const placed = { orderId: `0x${'0f'.repeat(32)}`, side: 'Buy', quantity: 1n, price: 2n } as TruthOrder;
    expect(checkAlertFiredOnce(set, listed, [good], [placed])).toEqual([expect.stringMatching(/an order appeared/)]);
  });
});
