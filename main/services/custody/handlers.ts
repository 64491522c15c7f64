// Request handlers of the custody area, for the online terminal. The offline signer's requests
// answer OFFLINE_ONLY here: they exist only in the app's offline mode (offline-terminal.ts), so
// an online machine never asks for a keystore passphrase.
import { randomBytes } from 'node:crypto';
import type { B256 } from '../../../shared/encoding/b256';
import { identityKind, identityValue, type Identity } from '../../../shared/encoding/identity';
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
import { ALLOW_LIST_CODES, WithdrawAllowList, type AllowedAddress } from './withdraw-allow-list';
import { allowAddressConfirmation, approveWithdrawWith } from './withdraw-approval';
import { ownerMethodViews } from './owner-methods';
import type { AllowedAddressesView } from '../../../shared/ipc/views/custody';

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
  const allowList = new WithdrawAllowList(context.dataDir, context.log);
  const requests = new OwnerRequests({
    approveWithdraw: approveWithdrawWith({ allowList, confirmer: context.confirmer, now: () => context.clock.now() }),
    confirm: (request, confirmation) => context.confirmer.confirm(request, confirmation),
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

  const addressesView = (networkId: string, delayMs: number, addresses: readonly AllowedAddress[]): AllowedAddressesView => ({
    networkId,
    addresses: addresses.map((address) => ({ ...address })),
    delayMs,
    confirmation: context.confirmer.surface,
  });
  const onNetwork = <T>(action: (network: NonNullable<ReturnType<HandlerContext['network']>>) => T | Promise<T>) => {
    const network = context.network();
    return network ? action(network) : fail('NOT_CONNECTED', 'No network is selected yet');
  };

  return {
    withdraw: ({ assetId, amount, to, nonce, confirmationCode }, caller) =>
      requests.withdraw({ assetId: assetId as B256, amount, to: to as Identity, nonce, windowId: caller.windowId, confirmationCode }),
    getWithdrawAddresses: () => onNetwork((network) => ok(addressesView(network.id, context.allowDelayMs(network), allowList.list(network.id)))),
    allowWithdrawAddress: ({ to, label, confirmationCode }, caller) =>
      onNetwork(async (network) => {
        const delayMs = context.allowDelayMs(network);
        const prepared = allowList.prepare(network.id, to as Identity, label ?? '', context.clock.now(), delayMs);
        if (!prepared.ok) return prepared;
        const confirmed = await context.confirmer.confirm(allowAddressConfirmation(network.id, network.name, prepared.value, delayMs), { windowId: caller.windowId, code: confirmationCode });
        if (!confirmed.ok) return confirmed;
        // The delay runs from the confirmation, not from the first ask.
        const now = context.clock.now();
        const added = allowList.add(network.id, { ...prepared.value, addedAt: now, usableFrom: now + delayMs });
        if (!added.ok) return added;
        context.notice('warning', `Withdrawals to ${prepared.value.kind} ${prepared.value.value} are allowed from ${new Date(now + delayMs).toISOString()}`);
        return ok(addressesView(network.id, delayMs, added.value));
      }),
    removeWithdrawAddress: ({ to }) =>
      onNetwork((network) => {
        if (!allowList.find(network.id, to as Identity)) return fail(ALLOW_LIST_CODES.NOT_ALLOWED, `to: ${JSON.stringify(to)} is not on the allow-list`, { field: 'to' });
        // Tightening: the hot key may then sign to fewer places, so it applies at once (the
        // threat model confirms what moves funds out or loosens a safety setting, never this).
        const removed = allowList.remove(network.id, to as Identity);
        if (!removed.ok) return removed;
        context.notice('info', `Withdrawals to ${identityKind(to as Identity)} ${identityValue(to as Identity)} are no longer allowed; adding it back is confirmed again and waits the delay again.`);
        return ok(addressesView(network.id, context.allowDelayMs(network), removed.value));
      }),
    prepareOwnerRequest: (input) =>
      requests.prepare(
        input.kind === 'withdraw'
          ? { kind: 'withdraw', assetId: input.assetId as B256, amount: input.amount, to: input.to as Identity, nonce: input.nonce, lifetimeHours: input.lifetimeHours }
          : input.kind === 'session'
            ? { kind: 'session', marketIds: input.marketIds, hours: input.hours, lifetimeHours: input.lifetimeHours }
            : { kind: 'owner-call', method: input.method, parameters: input.parameters, nonce: input.nonce, lifetimeHours: input.lifetimeHours },
      ),
    getOwnerRequests: () => requests.requests(),
    getOwnerMethods: () => ok(ownerMethodViews()),
    callOwnerMethod: ({ method, parameters, confirmationCode }, caller) => requests.callOwnerMethod({ method, parameters, windowId: caller.windowId, confirmationCode }),
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
