// The custody area's bridge methods: one named method per operation, nothing generic.
import type { custodyRequests, custodyStreams } from '../areas/custody';
import type { AreaApi } from '../contract';
import { call, on, type BridgeTransport } from './transport';

export function custodyBridge(transport: BridgeTransport) {
  return {
    withdraw: (input) => call(transport, 'withdraw', input),
    getWithdrawAddresses: (input) => call(transport, 'getWithdrawAddresses', input),
    allowWithdrawAddress: (input) => call(transport, 'allowWithdrawAddress', input),
    removeWithdrawAddress: (input) => call(transport, 'removeWithdrawAddress', input),
    prepareOwnerRequest: (input) => call(transport, 'prepareOwnerRequest', input),
    getOwnerRequests: (input) => call(transport, 'getOwnerRequests', input),
    cancelOwnerRequest: (input) => call(transport, 'cancelOwnerRequest', input),
    importOwnerSignature: (input) => call(transport, 'importOwnerSignature', input),
    getOwnerMethods: (input) => call(transport, 'getOwnerMethods', input),
    callOwnerMethod: (input) => call(transport, 'callOwnerMethod', input),
    getDepositInstructions: (input) => call(transport, 'getDepositInstructions', input),
    lookupReferralCode: (input) => call(transport, 'lookupReferralCode', input),
    registerReferral: (input) => call(transport, 'registerReferral', input),
    offlineBeginSecret: (input) => call(transport, 'offlineBeginSecret', input),
    offlineLoadRequest: (input) => call(transport, 'offlineLoadRequest', input),
    offlineListKeystores: (input) => call(transport, 'offlineListKeystores', input),
    offlineCreateKeystore: (input) => call(transport, 'offlineCreateKeystore', input),
    offlineSign: (input) => call(transport, 'offlineSign', input),
    onOwnerRequests: (listener) => on(transport, 'ownerRequests', listener),
  } satisfies AreaApi<typeof custodyRequests, typeof custodyStreams>;
}
