// Request handlers of onboarding: owner keys (created, imported, watched), the trading account, the
// faucet, the whitelist and the session. Each delegates to the active network's AccountService
// (account-service.ts); inputs were parsed by the dispatcher.
import type { B256 } from '../../../shared/encoding/b256';
import { fail, ok } from '../../../shared/result';
import { NOT_CONNECTED, withRuntime, type CoreHandlers, type HandlerContext } from '../handler-context';
import { KeyImportExchange } from '../keys/key-import';

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
    forgetOwner: ({ address }) =>
      withRuntime(context, (current) => {
        const forgotten = current.accounts.forgetOwner(address as B256);
        return forgotten.ok ? ok(current.accountState()) : forgotten;
      }),
    createTradeAccount: () => withRuntime(context, (current) => current.accounts.createTradeAccount()),
    mintFromFaucet: () =>
      withRuntime(context, async (current) => {
        const minted = await current.accounts.mintFromFaucet();
        if (minted.ok) void current.trading.refresh();
        return minted;
      }),
    whitelistAccount: () => withRuntime(context, (current) => current.accounts.whitelist()),
    createSession: ({ marketIds, days, hours }) =>
      withRuntime(context, (current) => {
        const seconds = hours !== undefined ? BigInt(hours) * 3600n : BigInt(days ?? context.preferences.preferences.get().settings.sessionDays) * 86_400n;
        return current.accounts.createSession(marketIds, seconds);
      }),
  };
}
