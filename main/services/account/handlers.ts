// Request handlers of onboarding: owner keys (created, imported, watched), the trading account, the
// faucet, the whitelist and the session. Each delegates to the active network's AccountService
// (account-service.ts); inputs were parsed by the dispatcher.
import type { B256 } from '../../../shared/encoding/b256';
import { fail, ok } from '../../../shared/result';
import { NOT_CONNECTED, withRuntime, type CoreHandlers, type HandlerContext } from '../handler-context';
import { confirmationDigest } from '../confirm/trusted-confirmer';
import { KeyImportExchange } from '../keys/key-import';
import { DAY, HOUR, longSessionLines } from './session-length';
import { trusted } from '../confirm/trusted-text';
import { forgetOwnerConfirmation } from './forget-owner';

type AccountRequest =
  | 'getAccountState'
  | 'createOwnerKey'
  | 'beginKeyImport'
  | 'importOwnerKey'
  | 'registerWatchOnlyOwner'
  | 'selectOwner'
  | 'forgetOwner'
  | 'createTradeAccount'
  | 'mintFromFaucet'
  | 'whitelistAccount'
  | 'createSession';

export function accountHandlers(context: HandlerContext): CoreHandlers<AccountRequest> {
  const keyImports = new KeyImportExchange(() => context.clock.now());
  return {
    getAccountState: () => {
      const runtime = context.runtime();
      if (!runtime) return fail(NOT_CONNECTED, 'The network is not connected yet');
      return ok(runtime.accountState());
    },
    createOwnerKey: ({ style }) => withRuntime(context, (current) => current.accounts.createOwnerKey(style)),
    beginKeyImport: async () => ok(await keyImports.begin()),
    importOwnerKey: (input) =>
      withRuntime(context, async (current) => {
        const opened = await keyImports.open(input);
        if (!opened.ok) return opened;
        return current.accounts.importOwnerKey(opened.value, input.style);
      }),
    registerWatchOnlyOwner: ({ address, style }) => withRuntime(context, (current) => current.accounts.registerWatchOnly(address as B256, style)),
    selectOwner: ({ address }) =>
      withRuntime(context, (current) => {
        const selected = current.accounts.selectOwner(address as B256);
        if (!selected.ok) return selected;
        void current.accounts.refresh();
        return ok(current.accountState());
      }),
    // Switching owners moves nothing and signs nothing: it applies at once.
    forgetOwner: ({ address, confirmationCode }, caller) =>
      withRuntime(context, async (current) => {
        const owner = current.accounts.forgettable(address as B256);
        if (!owner.ok) return owner;
        const network = context.network();
        if (network === null) return fail(NOT_CONNECTED, 'No network is selected yet');
        const confirmed = await context.confirmer.confirm(
          forgetOwnerConfirmation({ networkId: network.id, networkName: network.name, address, ...owner.value }),
          { windowId: caller.windowId, code: confirmationCode },
        );
        if (!confirmed.ok) return confirmed;
        const forgotten = current.accounts.forgetOwner(address as B256);
        if (!forgotten.ok) return forgotten;
        context.notice('info', `Forgot the watch-only owner ${address}; its trading account stays on the exchange.`);
        return ok(current.accountState());
      }),
    createTradeAccount: () => withRuntime(context, (current) => current.accounts.createTradeAccount()),
    mintFromFaucet: () =>
      withRuntime(context, async (current) => {
        const minted = await current.accounts.mintFromFaucet();
        if (minted.ok) void current.trading.refresh();
        return minted;
      }),
    whitelistAccount: () => withRuntime(context, (current) => current.accounts.whitelist()),
    createSession: ({ marketIds, days, hours, confirmationCode }, caller) =>
      withRuntime(context, async (current) => {
        const sessionDays = context.preferences.preferences.get().settings.sessionDays;
        // Days and hours add up, as account setup shows them side by side; neither: the configured length.
        const seconds = days === undefined && hours === undefined ? BigInt(sessionDays) * DAY : BigInt(days ?? 0) * DAY + BigInt(hours ?? 0) * HOUR;
        // A session key that may trade for longer than the configured length is confirmed outside
        // the page, as raising the configured length is (settings-weakening.ts).
        const longer = longSessionLines(seconds, sessionDays, marketIds.length);
        if (longer !== null) {
          const confirmed = await context.confirmer.confirm(
            { action: 'longSession', title: trusted`Create a trading session longer than the configured length`, lines: longer, digest: confirmationDigest('longSession', { marketIds, seconds }) },
            { windowId: caller.windowId, code: confirmationCode },
          );
          if (!confirmed.ok) return confirmed;
        }
        return current.accounts.createSession(marketIds, seconds);
      }),
  };
}
