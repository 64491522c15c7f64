// The trigger object of GET /v1/orders/active and of the order stream's `triggers` (ours; the
// wire notes name `order_id, market_id, side, trigger_price`): the leg as signed in its wire JSON
// plus where it stands. docs/protocol.md "Trigger orders" describes every member.
import { triggerLegToJson } from '../../shared/protocol/trigger';
import type { MarketState } from '../ledger/market';
import { isArmed } from '../triggers/engine';
import type { TriggerRecord } from '../triggers/records';

export function triggerView(market: MarketState, record: TriggerRecord): Record<string, unknown> {
  const leg = triggerLegToJson(record.leg);
  return {
    order_id: record.id,
    market_id: record.marketId,
    owner: { ContractId: record.account },
    side: leg.side,
    trigger_price: leg.trigger_price,
    order_type: leg.order_type,
    quantity: leg.quantity,
    state: record.state,
    armed: record.state === 'pending' ? isArmed(market, record) : record.state === 'fired',
    direction: record.direction,
    parent_order_id: record.parentId ?? null,
    expected_quantity: record.expectedQuantity?.toString() ?? null,
    oco_order_id: record.ocoId ?? null,
    locked: record.locked.toString(),
    fired_order_id: record.firedOrderId ?? null,
    reason: record.reason ?? null,
    timestamp: record.timestamp.toString(),
    history: record.history.map((entry) => ({ ...entry })),
    ...(record.turbo === true ? { turbo: true } : {}),
  };
}
