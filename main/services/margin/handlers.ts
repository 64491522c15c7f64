// Request handlers of the margin area of the contract: each delegates to the active network's
// MarginService (main/services/margin/margin-service.ts); inputs were parsed by the dispatcher.
import type { marginRequests } from '../../../shared/ipc/areas/margin';
import type { B256 } from '../../../shared/encoding/b256';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import { confirmationDigest } from '../confirm/trusted-confirmer';
import { trusted } from '../confirm/trusted-text';
import { withRuntime, type HandlerContext } from '../handler-context';

export function marginHandlers(context: HandlerContext): AreaHandlers<typeof marginRequests> {
  const id = (value: string) => value as B256;
  return {
    getMarginOverview: () => withRuntime(context, (runtime) => runtime.margin.overview()),
    registerMarginAccount: () => withRuntime(context, (runtime) => runtime.margin.register()),
    openMarginSession: (input) => withRuntime(context, (runtime) => runtime.margin.open({ marginAccountId: id(input.marginAccountId), tierId: input.tierId, period: input.period, amount: input.amount })),
    marginDraw: (input) => withRuntime(context, (runtime) => runtime.margin.draw(id(input.marginAccountId), input.amount)),
    marginReturnQuote: (input) => withRuntime(context, (runtime) => runtime.margin.returnQuote(id(input.marginAccountId), input.amount)),
    marginBorrow: (input) => withRuntime(context, (runtime) => runtime.margin.borrow(id(input.marginAccountId), id(input.assetId), input.amount, input.returnQuoteFirst)),
    marginRepay: (input) => withRuntime(context, (runtime) => runtime.margin.repay(id(input.marginAccountId), id(input.assetId), input.amount)),
    marginRepayFromCollateral: (input) => withRuntime(context, (runtime) => runtime.margin.repayFromCollateral(id(input.marginAccountId), input.amount)),
    marginRepayBaseFromCollateral: (input) => withRuntime(context, (runtime) => runtime.margin.repayBaseFromCollateral(id(input.marginAccountId), id(input.assetId), input.amount)),
    marginAddCollateral: (input) => withRuntime(context, (runtime) => runtime.margin.addCollateral(id(input.marginAccountId), input.amount)),
    marginWithdraw: (input) => withRuntime(context, (runtime) => runtime.margin.withdraw(id(input.marginAccountId), id(input.assetId), input.amount)),
    marginProlong: (input) => withRuntime(context, (runtime) => runtime.margin.prolong(id(input.marginAccountId), input.period, input.times)),
    marginSetAutoProlong: (input) => withRuntime(context, (runtime) => runtime.margin.setAutoProlong(id(input.marginAccountId), input.period)),
    closeMarginSession: (input) => withRuntime(context, (runtime) => runtime.margin.close(id(input.marginAccountId), input.prepare ?? true)),
    withdrawFromMarginAccount: (input) =>
      withRuntime(context, (runtime) => runtime.margin.withdrawFromAccount(id(input.marginAccountId), input.assetId === undefined ? undefined : id(input.assetId), input.amount)),
    selectMarginAccount: (input) => withRuntime(context, (runtime) => runtime.margin.select(input.marginAccountId === null ? null : id(input.marginAccountId))),
    subscribeMarginRisk: (input, caller) => withRuntime(context, (runtime) => runtime.margin.subscribeRisk(caller.windowId, id(input.marginAccountId))),
    unsubscribeMarginRisk: (input, caller) => withRuntime(context, (runtime) => runtime.margin.unsubscribeRisk(input.subscriptionId, caller.windowId)),
    getTurboMarkets: () =>
      withRuntime(context, async (runtime) => {
        await runtime.margin.refreshTurboRows();
        return ok(runtime.margin.turboMarketsView());
      }),
    checkTurboOrder: (input) => withRuntime(context, (runtime) => runtime.margin.checkTurboOrder(input)),
    updateMarginSettings: ({ confirmationCode, ...input }, caller) =>
      withRuntime(context, async (runtime) => {
        const patch = {
          ...(input.convertMarketOrders === undefined ? {} : { convertMarketOrders: input.convertMarketOrders }),
          ...(input.marketSlippageBps === undefined ? {} : { marketSlippageBps: input.marketSlippageBps }),
          ...(input.fundOrders === undefined ? {} : { fundOrders: input.fundOrders }),
        };
        // A wider bound lets a Turbo Account's market order fill further from the ticket's price:
        // loosening it is confirmed outside the page, like the core safety settings.
        const current = runtime.margin.settingsView().marketSlippageBps;
        if (patch.marketSlippageBps !== undefined && patch.marketSlippageBps > current) {
          const confirmed = await context.confirmer.confirm(
            {
              action: 'weakenSettings',
              title: trusted`Loosen trading safety settings`,
              lines: [trusted`Bound of Turbo market orders: ${current} bps → ${patch.marketSlippageBps} bps from the ticket price`],
              digest: confirmationDigest('weakenSettings', { margin: patch }),
            },
            { windowId: caller.windowId, code: confirmationCode },
          );
          if (!confirmed.ok) return confirmed;
        }
        return ok(runtime.margin.updateSettings(patch));
      }),
  };
}
