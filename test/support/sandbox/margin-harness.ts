// The sandbox's margin engine in-process, with the client's view of the same account: the
// state the sandbox publishes (GET /v1/margin/state, serialised to JSON), parsed by the client's
// schema, converted by main/services/margin (stateSnapshot), with the resting orders the client
// computes from its own open orders (docs/protocol.md (Margin) 5) and the pool inventory of GET
// /v1/margin/pool. Both sides then run computeRisk: this is the risk panel's report.
import { contractIdentity } from '../../../shared/encoding/identity';
import { marginPoolSchema, marginStateSchema } from '../../../shared/api/margin-schemas';
import { computeRisk, type RestingOrders, type RiskReport } from '../../../shared/margin/index';
import { powerOfTen } from '../../../shared/market/market';
import { fullSnapshot, stateSnapshot } from '../../../main/services/margin/risk-frame';
import { buildMarginConfig } from '../../../sandbox/margin/config';
import { MarginEngine } from '../../../sandbox/margin/engine';
import { poolView, stateView } from '../../../sandbox/margin/views';
import { tierMarkets } from '../../../sandbox/margin/snapshot';
import type { ContractAccount } from '../../../sandbox/ledger/accounts';
import { executeBatch } from '../../../sandbox/ledger/execute';
import { isRevert } from '../../../sandbox/ledger/revert';
import type { SessionAction } from '../../../shared/protocol/actions';
import type { TurboLink } from '../../../sandbox/turbo/link';
import { fixture } from './ledger-fixture';

export function marginSetup() {
  const base = fixture();
  const network = base.ledger.network;
  const config = buildMarginConfig(7, network);
  const margin = new MarginEngine(base.ledger, config, 1_000_000n);
  const link = base.ledger.turbo.get(base.config.market_id) as TurboLink;
  link.houseRoles.add(base.bob.id);
  let tx = 0;
  const context = (account: ContractAccount) => ({ account, txId: `tx${++tx}`, timestamp: 1n });
  const must = <T>(result: T): T => {
    if (isRevert(result)) throw new Error(`unexpected revert ${result.reason}: ${result.message}`);
    return result;
  };
  /** Register alice's child `index` and open a session on `tierId` for exactly `amount`. */
  const open = (tierId: bigint, amount: bigint, period: 'SixHours' | 'Day' | 'Week' | 'Month', index = 0n): ContractAccount => {
    const childId = margin.childId(base.alice.id, index);
    must(base.ledger.transact(() => margin.register(base.alice, childId, index, 0)));
    must(base.ledger.transact(() => margin.startSession(base.alice, { kind: 'StartMarginSession', margin_account_id: childId, tier_id: tierId, amount, period }, context(base.alice))));
    return base.ledger.accounts.get(childId) as ContractAccount;
  };
  /** One batch of the child on the Turbo book (margin actions ride in a Turbo group). */
  const batch = (child: ContractAccount, actions: readonly SessionAction[]) =>
    executeBatch(base.ledger, child, [{ market: link.turbo, link, turbo: true, actions }], `tx${++tx}`, 1n, margin);
  const settleTo = (child: ContractAccount): SessionAction => ({ kind: 'SettleBalance', to: contractIdentity(child.id) });
  return { ...base, margin, config, link, context, open, batch, settleTo, must };
}

export type MarginHarness = ReturnType<typeof marginSetup>;

/** The resting orders as the client sums them from its open orders (docs/protocol.md (Margin) 5). */
export function clientRestingOrders(h: MarginHarness, child: ContractAccount): Record<string, RestingOrders> {
  const session = h.margin.sessions.get(child.id);
  if (session === undefined) return {};
  const resting: Record<string, RestingOrders> = {};
  for (const market of tierMarkets(h.ledger, session.tier)) {
    const scale = powerOfTen(market.config.base.decimals);
    const sum = resting[market.config.base.asset] ?? { sellQuantity: 0n, sellQuote: 0n, buyQuantity: 0n, buyQuote: 0n };
    let { sellQuantity, sellQuote, buyQuantity, buyQuote } = sum;
    for (const order of market.ordersByAccount.get(child.id) ?? []) {
      if (order.close) continue;
      const quote = (order.price * order.remaining) / scale;
      if (order.side === 'Sell') {
        sellQuantity += order.remaining;
        sellQuote += quote;
      } else {
        buyQuantity += order.remaining;
        buyQuote += quote;
      }
    }
    resting[market.config.base.asset] = { sellQuantity, sellQuote, buyQuantity, buyQuote };
  }
  return resting;
}

/** The risk panel's report: the published state through the client's parser and conversion. */
export function clientReport(h: MarginHarness, child: ContractAccount): RiskReport {
  const wire = JSON.parse(JSON.stringify(stateView(h.margin, child))) as unknown;
  const state = marginStateSchema.parse(wire);
  const pool = marginPoolSchema.parse(JSON.parse(JSON.stringify(poolView(h.margin))));
  const part = stateSnapshot(state);
  if (!part.ok) throw new Error(part.message);
  const report = computeRisk(fullSnapshot(part.value, clientRestingOrders(h, child), pool.inventory));
  if (!report.ok) throw new Error(report.message);
  return report.value;
}

/** The sandbox's own report of the same account (what it judges batches and settles by). */
export function sandboxReport(h: MarginHarness, child: ContractAccount): RiskReport {
  const report = h.margin.risk(child);
  if (report === undefined) throw new Error('no session');
  if (!report.ok) throw new Error(report.message);
  return report.value;
}
