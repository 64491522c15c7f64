// Executing a signed batch: every action of every market group in order, inside one ledger
// transaction. The first revert rolls back the whole batch (spec: a batch is atomic). A batch
// of a margin child is judged after its last action against its risk before the first one
// (outstanding <= L, frozen accounts may only reduce risk: margin 2.6, 3).
import type { SessionAction } from '../../shared/protocol/actions';
import type { MarginEngine } from '../margin/engine';
import { createSharedOrder, createTurboOrder, executeTurboOrders } from '../turbo/matching';
import { applyCreateOrderWithTriggers, applyCreateTriggerOrder, applyCreateTriggerOrders } from '../triggers/create';
import type { TurboLink } from '../turbo/link';
import type { ContractAccount } from './accounts';
import type { Ledger } from './ledger';
import type { ActionContext } from './action-context';
import type { MarketState } from './market';
import type { OrderRecord } from './orders';
import type { TriggerRecord } from '../triggers/records';
import { isRevert, revert, type Revert } from './revert';

export interface ExecutableGroup {
  /** The book the group's book actions target: the Turbo book for a Turbo group. */
  readonly market: MarketState;
  /** The market's Turbo pairing, if it has one. */
  readonly link?: TurboLink;
  readonly turbo: boolean;
  readonly actions: readonly SessionAction[];
}

export interface Executed {
  /** Orders created by the batch, in action order (collect_orders). */
  readonly orders: readonly OrderRecord[];
  /** Trigger legs the batch created or cancelled (collect_orders' `triggers`, ours). */
  readonly triggers: readonly TriggerRecord[];
}

export function executeBatch(ledger: Ledger, account: ContractAccount, groups: readonly ExecutableGroup[], txId: string, timestamp: bigint, margin?: MarginEngine): Executed | Revert {
  return ledger.transact(() => {
    const orders: OrderRecord[] = [];
    const context: ActionContext = { account, txId, timestamp };
    const guard = account.kind === 'margin' ? margin?.beforeBatch(account) : undefined;
    let withdrew = false;
    for (const group of groups) {
      for (const action of group.actions) {
        if (action.kind === 'WithdrawFromMargin') withdrew = true;
        const outcome = applyAction(ledger, group, context, action, margin);
        if (isRevert(outcome)) return outcome;
        if (outcome !== undefined) orders.push(outcome);
      }
    }
    if (guard !== undefined && margin !== undefined) {
      const judged = margin.afterBatch(account, guard, withdrew);
      if (judged) return judged;
    }
    return { orders, triggers: [...ledger.changes.triggers].filter((record) => record.account === account.id) };
  });
}

function applyAction(ledger: Ledger, group: ExecutableGroup, context: ActionContext, action: SessionAction, margin: MarginEngine | undefined): OrderRecord | Revert | undefined {
  const { market } = group;
  const account = context.account;
  switch (action.kind) {
    case 'CreateOrder':
    case 'CreateOrderWithTriggers': {
      if (account.kind === 'margin') {
        const allowed = margin?.orderAllowed(account, market);
        if (allowed) return allowed;
      }
      const place = (args: Parameters<MarketState['createOrder']>[1]): OrderRecord | Revert =>
        group.turbo && group.link !== undefined ? createTurboOrder(group.link, ledger.journal, ledger.changes, context, args) : market.createOrder(context, args);
      if (action.kind === 'CreateOrderWithTriggers') return applyCreateOrderWithTriggers(group, context, action, place);
      return place({ side: action.side, price: action.price, quantity: action.quantity, orderType: action.order_type });
    }
    case 'CreateTriggerOrder':
    case 'CreateTriggerOrders': {
      if (account.kind === 'margin') {
        const allowed = margin?.orderAllowed(account, market);
        if (allowed) return allowed;
      }
      return action.kind === 'CreateTriggerOrder' ? applyCreateTriggerOrder(group, context, action) : applyCreateTriggerOrders(group, context, action);
    }
    case 'CancelOrder':
    case 'CancelTriggerOrder': {
      const cancelled = market.cancelOrder(context, action.order_id);
      return isRevert(cancelled) ? cancelled : undefined;
    }
    case 'SettleBalance':
      return market.settle(context, action.to);
    case 'RegisterReferer': {
      if (account.referer !== null) return revert('RefererAlreadyRegistered', `trade account ${account.id} already has a referer`);
      account.referer = action.to;
      ledger.journal.record(() => {
        account.referer = null;
      });
      return undefined;
    }
    case 'CreateSharedOrder':
      return createSharedOrder(group.link, market, ledger.journal, ledger.changes, context, { side: action.side, price: action.price, quantity: action.quantity, orderType: action.order_type });
    case 'ExecuteTurboOrders': {
      if (group.link === undefined) return revert('MarketNotFound', `Market ${market.config.market_id} has no Turbo order book`);
      return executeTurboOrders(group.link, ledger.journal, ledger.changes, context, { sourceOrderId: action.source_order_id, maxBaseQuantity: action.max_base_quantity, maxFills: action.max_fills });
    }
    case 'StartMarginSession':
      return need(margin).startSession(account, action, context);
    case 'CloseMarginSession':
      return need(margin).closeSession(account, action, context);
    case 'WithdrawFromMarginAccount':
      return need(margin).withdrawFromChild(account, action, context);
    case 'RegisterMarginAccount':
      return need(margin).register(account, action.margin_account_id, action.index, Number(context.timestamp / 1_000_000_000n));
    case 'Draw':
    case 'ReturnQuote':
    case 'Borrow':
    case 'Repay':
    case 'RepayFromCollateral':
    case 'RepayBaseFromCollateral':
    case 'AddCollateral':
    case 'WithdrawFromMargin':
    case 'ProlongSession':
    case 'SetAutoProlong':
      return need(margin).poolAction(account, action, context);
    default:
      // Every kind is handled; a new one reaching here unhandled is a bug.
      throw new Error(`executeBatch: unsupported action ${(action as { kind: string }).kind}`);
  }
}

function need(margin: MarginEngine | undefined): MarginEngine {
  if (margin === undefined) throw new Error('executeBatch: a margin action without the margin engine');
  return margin;
}
