// The trigger service's folding of the order stream with fakes (no network): pending legs become
// a snapshot, a fired leg marks the fills of the order it became and is announced, a sibling
// cancelled by the fire is not announced twice, the account change forgets everything.
import { describe, expect, it } from 'vitest';
import { TriggerService, type TriggerServiceDeps } from '../../../../../main/services/triggers/trigger-service';
import { MarketsIndex } from '../../../../../main/services/market-data/markets-index';
import type { ActiveTrigger } from '../../../../../shared/api/market-schemas';
import type { B256 } from '../../../../../shared/encoding/b256';
import type { FillNotice, TriggersSnapshot } from '../../../../../shared/ipc/views';
import type { Market } from '../../../../../shared/market/market';

const USDC = 1_000_000n;
const market: Market = {
  contract_id: `0x${'c1'.repeat(32)}` as B256,
  market_id: `0x${'a1'.repeat(32)}` as B256,
  base: { symbol: 'ETH', asset: `0x${'ba'.repeat(32)}` as B256, decimals: 9, max_precision: 4 },
  quote: { symbol: 'USDC', asset: `0x${'9c'.repeat(32)}` as B256, decimals: 6, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: USDC,
  dust: 1_000_000n,
  price_window: 20,
};
const id = (byte: string) => `0x${byte.repeat(32)}` as B256;

function service(cancelledHere: readonly string[] = []) {
  const published: TriggersSnapshot[] = [];
  const notices: string[] = [];
  const index = new MarketsIndex({ books_registry_id: id('01'), accounts_registry_id: id('02'), trade_account_oracle_id: id('03'), chain_id: 0n, base_asset_id: id('04'), markets: [market] });
  const deps = {
    markets: () => index,
    publish: (snapshot: TriggersSnapshot) => published.push(snapshot),
    notice: (_level: string, text: string) => notices.push(text),
    log: () => undefined,
    trading: { cancelledByTerminal: (orderId: string) => cancelledHere.includes(orderId) },
  } as unknown as TriggerServiceDeps;
  return { triggers: new TriggerService(deps), published, notices };
}

const leg = (byte: string, extra: Partial<ActiveTrigger>): ActiveTrigger => ({
  order_id: id(byte),
  market_id: market.market_id,
  side: 'Sell',
  trigger_price: 3_100n * USDC,
  order_type: { kind: 'MarketBounded', max_price: 3_131n * USDC, min_price: 3_069n * USDC },
  quantity: { kind: 'ParentOrder', parent_order_id: id('0d') },
  state: 'pending',
  armed: true,
  direction: 'rise',
  parent_order_id: id('0d'),
  oco_order_id: id('e2'),
  locked: 0n,
  fired_order_id: null,
  reason: null,
  timestamp: 1_700_000_000_000_000_000n,
  ...extra,
});

describe('TriggerService (stream folding)', () => {
  it('keeps pending legs, marks the fills of a fired leg and announces it once', () => {
    const { triggers, published, notices } = service();
    triggers.applyStream([leg('e1', {}), leg('e2', { trigger_price: 2_900n * USDC, direction: 'fall', oco_order_id: id('e1') })], false);
    expect(published.at(-1)?.pending.map((view) => [view.role, view.triggerId])).toEqual([
      ['take-profit', id('e1')],
      ['stop-loss', id('e2')],
    ]);
    triggers.applyStream([leg('e1', { state: 'fired', fired_order_id: id('f1') }), leg('e2', { trigger_price: 2_900n * USDC, direction: 'fall', state: 'cancelled', reason: 'OcoSiblingFired' })], false);
    const last = published.at(-1)!;
    expect(last.pending).toEqual([]);
    expect(last.recent.map((view) => [view.triggerId, view.state])).toEqual([
      [id('e2'), 'cancelled'],
      [id('e1'), 'fired'],
    ]);
    expect(notices).toEqual(['Take-profit Sell at 3100 USDC on ETH/USDC fired']);
    const fill: FillNotice = { symbol: 'ETH/USDC', fill: { orderId: id('f1'), marketId: market.market_id, side: 'Sell', price: 3_090n * USDC, quantity: 1n, fee: 0n, turbo: false, account: '', time: 0 } };
    expect(triggers.markFill(fill).trigger).toEqual({ triggerId: id('e1'), role: 'take-profit', triggerPrice: 3_100n * USDC });
    expect(triggers.markFill({ ...fill, fill: { ...fill.fill, orderId: id('f9') } }).trigger).toBeUndefined();
  });

  it('announces a leg the exchange cancelled for a reason of its own, and forgets everything on reset', () => {
    const { triggers, published, notices } = service();
    triggers.applyStream([leg('e1', { oco_order_id: null })], false);
    triggers.applyStream([leg('e1', { oco_order_id: null, state: 'cancelled', reason: 'PriceOutsideWindow' })], false);
    expect(notices).toEqual([
      "Take-profit Sell at 3100 USDC on ETH/USDC was cancelled by the exchange: The price is more than 20% away from ETH/USDC's last trade: the exchange only takes limit prices within 20% of it. Use a price nearer the market, or a market order.",
    ]);
    triggers.reset();
    expect(published.at(-1)).toEqual({ pending: [], recent: [] });
  });

  it('never calls a leg that went with its cancelled or amended order a refusal: quiet when this terminal cancelled the order (its notice named the legs), an info otherwise', () => {
    const amended = service([id('0d')]);
    amended.triggers.applyStream([leg('e1', { oco_order_id: null })], false);
    amended.triggers.applyStream([leg('e1', { oco_order_id: null, state: 'cancelled', reason: 'ParentCancelled' })], false);
    expect(amended.notices).toEqual([]);
    const elsewhere = service();
    elsewhere.triggers.applyStream([leg('e1', { oco_order_id: null })], false);
    elsewhere.triggers.applyStream([leg('e1', { oco_order_id: null, state: 'cancelled', reason: 'ParentCancelled' })], false);
    expect(elsewhere.notices).toEqual([`Take-profit Sell at 3100 USDC on ETH/USDC was cancelled with its order 0x0d0d0d…0d0d, which was cancelled`]);
    expect(elsewhere.notices.join(' ')).not.toMatch(/refused|nothing was changed/);
  });
});
