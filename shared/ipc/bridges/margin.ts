// The margin area's bridge methods: one named method per operation, nothing generic.
import type { marginRequests, marginStreams } from '../areas/margin';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function marginBridge(transport: BridgeTransport) {
  return {
    getMarginOverview: (input) => call(transport, 'getMarginOverview', input),
    registerMarginAccount: (input) => call(transport, 'registerMarginAccount', input),
    openMarginSession: (input) => call(transport, 'openMarginSession', input),
    marginDraw: (input) => call(transport, 'marginDraw', input),
    marginReturnQuote: (input) => call(transport, 'marginReturnQuote', input),
    marginBorrow: (input) => call(transport, 'marginBorrow', input),
    marginRepay: (input) => call(transport, 'marginRepay', input),
    marginRepayFromCollateral: (input) => call(transport, 'marginRepayFromCollateral', input),
    marginRepayBaseFromCollateral: (input) => call(transport, 'marginRepayBaseFromCollateral', input),
    marginAddCollateral: (input) => call(transport, 'marginAddCollateral', input),
    marginWithdraw: (input) => call(transport, 'marginWithdraw', input),
    marginProlong: (input) => call(transport, 'marginProlong', input),
    marginSetAutoProlong: (input) => call(transport, 'marginSetAutoProlong', input),
    closeMarginSession: (input) => call(transport, 'closeMarginSession', input),
    withdrawFromMarginAccount: (input) => call(transport, 'withdrawFromMarginAccount', input),
    selectMarginAccount: (input) => call(transport, 'selectMarginAccount', input),
    subscribeMarginRisk: (input) => call(transport, 'subscribeMarginRisk', input),
    unsubscribeMarginRisk: (input) => call(transport, 'unsubscribeMarginRisk', input),
    getTurboMarkets: (input) => call(transport, 'getTurboMarkets', input),
    checkTurboOrder: (input) => call(transport, 'checkTurboOrder', input),
    updateMarginSettings: (input) => call(transport, 'updateMarginSettings', input),
    onMarginRisk: (listener) => on(transport, 'marginRisk', listener),
    onMarginOverview: (listener) => on(transport, 'marginOverview', listener),
    onTurboMarkets: (listener) => on(transport, 'turboMarkets', listener),
  } satisfies AreaApi<typeof marginRequests, typeof marginStreams>;
}
