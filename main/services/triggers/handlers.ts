// Request handlers of the triggers area of the contract: each delegates to the active network's
// TriggerService (main/services/triggers/trigger-service.ts); inputs were parsed by the dispatcher.
import type { triggerRequests } from '../../../shared/ipc/areas/triggers';
import type { B256 } from '../../../shared/encoding/b256';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import { withRuntime, type HandlerContext } from '../handler-context';
import type { LegIntent, LegExecution } from './trigger-intents';
import type { LegSize } from './trigger-service';

type ExecutionInput = { kind: 'market' } | { kind: 'limit'; price: bigint } | { kind: 'slippage'; bps: number };

function execution(input: ExecutionInput): LegExecution {
  return input.kind === 'limit' ? { kind: 'limit', price: input.price } : input.kind === 'slippage' ? { kind: 'slippage', bps: input.bps } : { kind: 'market' };
}

function leg(input: { triggerPrice: bigint; execution: ExecutionInput } | undefined): LegIntent | undefined {
  return input === undefined ? undefined : { triggerPrice: input.triggerPrice, execution: execution(input.execution) };
}

function size(input: { kind: 'quantity'; quantity: bigint } | { kind: 'parent'; orderId: string }): LegSize {
  return input.kind === 'quantity' ? { kind: 'quantity', quantity: input.quantity } : { kind: 'parent', orderId: input.orderId as B256 };
}

export function triggerHandlers(context: HandlerContext): AreaHandlers<typeof triggerRequests> {
  return {
    placeBracketOrder: (input) =>
      withRuntime(context, (runtime) =>
        runtime.triggers.placeBracket({
          marketId: input.marketId,
          turbo: input.turbo ?? false,
          side: input.side,
          orderType: input.orderType,
          price: input.price,
          quantity: input.quantity,
          takeProfit: leg(input.takeProfit),
          stopLoss: leg(input.stopLoss),
        }),
      ),
    placeStopOrder: (input) =>
      withRuntime(context, (runtime) =>
        runtime.triggers.placeStop({ marketId: input.marketId, turbo: input.turbo ?? false, side: input.side, leg: leg(input.leg) as LegIntent, size: size(input.size) }),
      ),
    placeOcoOrder: (input) =>
      withRuntime(context, (runtime) =>
        runtime.triggers.placeOco({
          marketId: input.marketId,
          turbo: input.turbo ?? false,
          side: input.side,
          first: leg(input.first) as LegIntent,
          second: leg(input.second) as LegIntent,
          size: size(input.size),
        }),
      ),
    cancelTrigger: (input) => withRuntime(context, (runtime) => runtime.triggers.cancel(input.marketId, input.turbo ?? false, input.triggerId as B256)),
    moveTrigger: (input) =>
      withRuntime(context, (runtime) =>
        runtime.positionBrackets?.ownLegRefusal(input.triggerId) ??
        runtime.triggers.move({ marketId: input.marketId, turbo: input.turbo ?? false, triggerId: input.triggerId as B256, triggerPrice: input.triggerPrice, limitPrice: input.limitPrice }),
      ),
    getTriggers: () => withRuntime(context, (runtime) => ok(runtime.triggers.snapshot())),
  };
}
