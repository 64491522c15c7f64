// Request handlers of the protective stops area of the contract: each delegates to the active
// network's ProtectiveStops (main/services/protect/protective-stops.ts); inputs were parsed by the dispatcher.
import type { protectRequests } from '../../../shared/ipc/areas/protect';
import { fail, ok, type Result } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import { withRuntime, type HandlerContext } from '../handler-context';
import type { NetworkRuntime } from '../network/network-runtime';
import { confirmationDigest } from '../confirm/trusted-confirmer';
import { trusted } from '../confirm/trusted-text';
import type { PositionBrackets } from './position-brackets';
import type { ProtectiveStops } from './protective-stops';

function withStops<T>(context: HandlerContext, work: (stops: ProtectiveStops) => Promise<Result<T>> | Result<T>): Promise<Result<T>> | Result<T> {
  return withRuntime(context, (runtime: NetworkRuntime) => (runtime.protective === null ? fail('NOT_AVAILABLE', 'Protective stops are not kept on this terminal (no data directory)') : work(runtime.protective)));
}

function withBrackets<T>(context: HandlerContext, work: (brackets: PositionBrackets) => Promise<Result<T>> | Result<T>): Promise<Result<T>> | Result<T> {
  return withRuntime(context, (runtime: NetworkRuntime) => (runtime.positionBrackets === null ? fail('NOT_AVAILABLE', 'Position TP/SL is not kept on this terminal (no data directory)') : work(runtime.positionBrackets)));
}

export function protectHandlers(context: HandlerContext): AreaHandlers<typeof protectRequests> {
  return {
    armProtectiveStop: (input) =>
      withStops(context, (stops) =>
        context.runtime()?.positionBrackets?.ownLegRefusal(input.triggerId) ??
        stops.arm({
          marketId: input.marketId,
          turbo: input.turbo ?? false,
          triggerId: input.triggerId,
          reference: input.reference,
          distance: input.distance,
          breakEvenAfterTicks: input.breakEvenAfterTicks,
        }),
      ),
    disarmProtectiveStop: (input) => withStops(context, (stops) => stops.disarm(input.id)),
    moveStopToBreakEven: (input) => withStops(context, (stops) => stops.breakEvenNow(input.id)),
    getProtectiveStops: () => withStops(context, (stops) => ok(stops.list())),
    armPositionBracket: (input) => withBrackets(context, (brackets) => brackets.arm({ marketId: input.marketId, turbo: input.turbo ?? false, takeProfit: input.takeProfit, stopLoss: input.stopLoss })),
    disarmPositionBracket: (input) => withBrackets(context, (brackets) => brackets.disarm(input.id, input.cancel)),
    getPositionBrackets: () => withBrackets(context, (brackets) => ok(brackets.list())),
    setAutoBracket: ({ confirmationCode, ...input }, caller) =>
      withBrackets(context, async (brackets) => {
        const market = context.runtime()?.markets?.market(input.marketId);
        if (market === undefined || !market.ok) return market ?? fail('NOT_CONNECTED', 'The markets of the network are not loaded yet');
        // Main signs on the trader's behalf from every fill on: armed once, in the trusted confirmation.
        const offset = (value: bigint | null) => (value === null ? 'none' : input.unit === 'ticks' ? `${value} ticks` : `${value} basis points`);
        const confirmed = await context.confirmer.confirm(
          {
            action: 'armAutoBracket',
            title: trusted`Arm the automatic bracket on fill on ${market.value.base.symbol}/${market.value.quote.symbol}`,
            lines: [
              trusted`Market: ${market.value.base.symbol}/${market.value.quote.symbol} (${input.marketId}), canonical book`,
              trusted`Take-profit: ${offset(input.takeProfit)} from the average entry`,
              trusted`Stop-loss: ${offset(input.stopLoss)} from the average entry`,
              trusted`From each fill that adds to the position while no TP/SL protects it, main places a take-profit / stop-loss pair sized to the position and resizes it; it never opens exposure.`,
            ],
            digest: confirmationDigest('armAutoBracket', { ...input }),
          },
          { windowId: caller.windowId, code: confirmationCode },
        );
        if (!confirmed.ok) return confirmed;
        return brackets.setAuto(input);
      }),
    clearAutoBracket: (input) => withBrackets(context, (brackets) => brackets.clearAuto(input.marketId)),
    getAutoBrackets: () => withBrackets(context, (brackets) => ok(brackets.autoList())),
  };
}
