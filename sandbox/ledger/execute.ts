// Executing a signed batch: every action of every market group in order, inside one ledger
// transaction. The first revert rolls back the whole batch (spec: a batch is atomic).
import type { SessionAction } from '../../shared/protocol/actions';
import type { ContractAccount } from './accounts';
import type { Ledger } from './ledger';
import type { MarketState } from './market';
import type { OrderRecord } from './orders';
import { isRevert, revert, type Revert } from './revert';

export interface ExecutableGroup {
  readonly market: MarketState;
  readonly actions: readonly SessionAction[];
}

export interface Executed {
  /** Orders created by the batch, in action order (collect_orders). */
  readonly orders: readonly OrderRecord[];
}

export function executeBatch(ledger: Ledger, account: ContractAccount, groups: readonly ExecutableGroup[], txId: string, timestamp: bigint): Executed | Revert {
  return ledger.transact(() => {
    const orders: OrderRecord[] = [];
    const context = { account, txId, timestamp };
    for (const group of groups) {
      for (const action of group.actions) {
        const outcome = applyAction(ledger, group.market, context, action);
        if (isRevert(outcome)) return outcome;
        if (outcome !== undefined) orders.push(outcome);
      }
    }
    return { orders };
  });
}

function applyAction(ledger: Ledger, market: MarketState, context: { account: ContractAccount; txId: string; timestamp: bigint }, action: SessionAction): OrderRecord | Revert | undefined {
  switch (action.kind) {
    case 'CreateOrder':
      return market.createOrder(context, { side: action.side, price: action.price, quantity: action.quantity, orderType: action.order_type });
    case 'CancelOrder': {
      const cancelled = market.cancelOrder(context, action.order_id);
      return isRevert(cancelled) ? cancelled : undefined;
    }
    case 'SettleBalance':
      return market.settle(context, action.to);
    case 'RegisterReferer': {
      const account = context.account;
      if (account.referer !== null) return revert('RefererAlreadyRegistered', `trade account ${account.id} already has a referer`);
      account.referer = action.to;
      ledger.journal.record(() => {
        account.referer = null;
      });
      return undefined;
    }
    default:
      // Refused before submission (routes/session.ts); reaching here is a bug.
      throw new Error(`executeBatch: unsupported action ${action.kind}`);
  }
}
