// Request handlers of the custody area, for the online terminal. The offline signer's requests
// answer OFFLINE_ONLY here: they exist only in the app's offline mode (offline-terminal.ts), so
// an online machine never asks for a keystore passphrase.
import { randomBytes } from 'node:crypto';
import type { B256 } from '../../../shared/encoding/b256';
import type { Identity } from '../../../shared/encoding/identity';
import { OFFLINE_ONLY, type custodyRequests } from '../../../shared/ipc/areas/custody';
import type { RequestName } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import { withRuntime, type HandlerContext } from '../handler-context';
import { runtimePort } from './custody-runtime';
import { depositInstructions } from './deposit';
import { OwnerRequests } from './owner-requests';
import { PendingStore } from './pending-store';
import { lookupReferral, registerReferral } from './referral';

function offlineOnly(name: RequestName) {
  return () =>
    fail(OFFLINE_ONLY, `${name}: this belongs to the offline signer, which runs only in the app's offline mode (--offline) on the machine that holds the owner key`);
}

export function custodyHandlers(context: HandlerContext): AreaHandlers<typeof custodyRequests> {
  const pending = new PendingStore(context.dataDir, context.log);
  const random = (length: number) => new Uint8Array(randomBytes(length));
  let ids = 0;
  const port = () => {
    const runtime = context.runtime();
    const network = context.network();
    return runtime && network ? runtimePort(runtime, network, context.preferences) : null;
  };
  const requests = new OwnerRequests({
    clock: context.clock,
    random,
    journal: context.journal,
    pending,
    runtime: port,
    keys: () => context.vault(),
    keychainReason: () => 'No secure key store (OS keychain) is available, so the terminal cannot sign or keep a session key; see the onboarding for why',
    publish: (view) => context.windows.broadcast('ownerRequests', view),
    notice: (level, text) => context.notice(level, text),
    log: (line) => context.log(line),
    newId: () => `${context.network()?.id ?? 'none'}-owner-${context.clock.now().toString(36)}-${(++ids).toString(36)}-${randomBytes(3).toString('hex')}`,
  });
  const nowSeconds = () => BigInt(Math.floor(context.clock.now() / 1000));

  return {
    withdraw: ({ assetId, amount, to, nonce }) => requests.withdraw({ assetId: assetId as B256, amount, to: to as Identity, nonce }),
    prepareOwnerRequest: (input) =>
      requests.prepare(
        input.kind === 'withdraw'
          ? { kind: 'withdraw', assetId: input.assetId as B256, amount: input.amount, to: input.to as Identity, nonce: input.nonce, lifetimeHours: input.lifetimeHours }
          : { kind: 'session', marketIds: input.marketIds, hours: input.hours, lifetimeHours: input.lifetimeHours },
      ),
    getOwnerRequests: () => requests.requests(),
    cancelOwnerRequest: ({ kind }) => requests.cancel(kind),
    importOwnerSignature: ({ text }) => requests.importSignature(text),
    getDepositInstructions: () =>
      withRuntime(context, async () => {
        const custody = port();
        if (!custody) return fail('NOT_CONNECTED', 'The network is not connected yet');
        const markets = await custody.markets();
        if (!markets.ok) return fail('NOT_CONNECTED', `The markets could not be loaded: ${markets.message}`);
        return ok(depositInstructions(custody.network, markets.value, custody.accountRecord()?.tradeAccountId ?? null));
      }),
    lookupReferralCode: ({ code }) =>
      withRuntime(context, () => {
        const custody = port();
        return custody ? lookupReferral(custody, code) : fail('NOT_CONNECTED', 'The network is not connected yet');
      }),
    registerReferral: ({ code }) =>
      withRuntime(context, () => {
        const custody = port();
        return custody ? registerReferral(custody, context.vault(), code, nowSeconds()) : fail('NOT_CONNECTED', 'The network is not connected yet');
      }),
    offlineBeginSecret: offlineOnly('offlineBeginSecret'),
    offlineLoadRequest: offlineOnly('offlineLoadRequest'),
    offlineListKeystores: offlineOnly('offlineListKeystores'),
    offlineCreateKeystore: offlineOnly('offlineCreateKeystore'),
    offlineSign: offlineOnly('offlineSign'),
  };
}
