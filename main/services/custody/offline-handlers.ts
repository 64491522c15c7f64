// The offline signer's requests, bound to an OfflineSigner. Used by the offline terminal only; the
// online terminal answers these with OFFLINE_ONLY (handlers.ts).
import type { CUSTODY_OFFLINE_REQUESTS, custodyRequests } from '../../../shared/ipc/areas/custody';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { OfflineSigner } from './offline-signer';

export type OfflineSignerHandlers = Pick<AreaHandlers<typeof custodyRequests>, (typeof CUSTODY_OFFLINE_REQUESTS)[number]>;

export function offlineSignerHandlers(signer: OfflineSigner): OfflineSignerHandlers {
  return {
    offlineBeginSecret: async () => ok(await signer.beginSecret()),
    offlineLoadRequest: ({ text }) => signer.loadRequest(text),
    offlineListKeystores: () => signer.listKeystores(),
    offlineCreateKeystore: (input) => signer.createKeystore(input),
    offlineSign: (input) => signer.sign(input),
  };
}
