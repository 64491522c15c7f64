// Request handlers of the user's settings (preferences.ts keeps them in the data directory); inputs
// were parsed by the dispatcher.
import { applyKeymapChange, type Keymap } from '../../../shared/hotkeys/keymap';
import { fail, ok } from '../../../shared/result';
import { settingsWeakenings } from '../confirm/settings-weakening';
import { confirmationDigest } from '../confirm/trusted-confirmer';
import { trusted } from '../confirm/trusted-text';
import { assetAmountWords, priceWords, quantityWords } from '../guards/words';
import type { CoreHandlers, HandlerContext } from '../handler-context';

export function settingsHandlers(context: HandlerContext): CoreHandlers<'getSettings' | 'updateSettings'> {
  const { preferences, confirmer, windows } = context;
  const settings = () => preferences.preferences.get().settings;
  const networkMarkets = () => {
    const markets = context.runtime()?.markets;
    return markets ? [...markets.markets(), ...markets.turboMarkets()] : [];
  };
  return {
    getSettings: () => ok(settings()),
    updateSettings: async ({ confirmationCode, hotkeys: hotkeyChange, ...rest }, caller) => {
      // Hotkeys: every binding parses (the input schema) and no two actions share a key, checked on
      // the keymap as it would be saved; a refusal applies nothing of the patch.
      let hotkeys: Keymap | undefined;
      if (hotkeyChange !== undefined) {
        const keymap = applyKeymapChange(settings().hotkeys, hotkeyChange);
        if (!keymap.ok) return fail('HOTKEY_CONFLICT', keymap.message, { field: `hotkeys.${keymap.action}`, value: keymap.value });
        hotkeys = keymap.keymap;
      }
      const patch = { ...rest, ...(hotkeys === undefined ? {} : { hotkeys }) };
      // Turning a safety off or loosening it is confirmed outside the page (settings-weakening.ts).
      const weakened = settingsWeakenings(settings(), patch, {
        market: (marketId) => {
          const market = context.runtime()?.markets?.market(marketId);
          return market?.ok ? trusted`${market.value.base.symbol}/${market.value.quote.symbol} (${marketId})` : trusted`${marketId}`;
        },
        quantity: (marketId, quantity) => {
          const market = context.runtime()?.markets?.market(marketId);
          return market?.ok ? trusted`${quantityWords(market.value, quantity)} (${quantity} raw units)` : trusted`${quantity} raw units`;
        },
        quote: (marketId, amount) => {
          const market = context.runtime()?.markets?.market(marketId);
          return market?.ok ? trusted`${priceWords(market.value, amount)} (${amount} raw units)` : trusted`${amount} raw units`;
        },
        asset: (assetId) => {
          const side = networkMarkets().flatMap((market) => [market.base, market.quote]).find((candidate) => candidate.asset === assetId);
          return side === undefined ? trusted`${assetId}` : trusted`${side.symbol}`;
        },
        assetAmount: (assetId, amount) => (networkMarkets().length === 0 ? trusted`${amount} raw units` : trusted`${assetAmountWords(networkMarkets(), assetId, amount)} (${amount} raw units)`),
      });
      if (weakened.length > 0) {
        const confirmed = await confirmer.confirm(
          { action: 'weakenSettings', title: trusted`Loosen trading safety settings`, lines: weakened, digest: confirmationDigest('weakenSettings', patch) },
          { windowId: caller.windowId, code: confirmationCode },
        );
        if (!confirmed.ok) return confirmed;
      }
      const saved = preferences.preferences.update((current) => {
        const next = { ...current.settings };
        if (patch.confirmOrders !== undefined) next.confirmOrders = patch.confirmOrders;
        if (patch.maxOrderQuantity !== undefined) next.maxOrderQuantity = patch.maxOrderQuantity;
        if (patch.maxOrderNotional !== undefined) next.maxOrderNotional = patch.maxOrderNotional;
        if (patch.maxPosition !== undefined) next.maxPosition = patch.maxPosition;
        if (patch.dailyLossLimit !== undefined) next.dailyLossLimit = patch.dailyLossLimit;
        if (patch.maxOrdersPerMinute !== undefined) next.maxOrdersPerMinute = patch.maxOrdersPerMinute;
        if (patch.flattenOnDailyLoss !== undefined) next.flattenOnDailyLoss = patch.flattenOnDailyLoss;
        if (patch.priceBandBps !== undefined) next.priceBandBps = patch.priceBandBps;
        if (patch.hotkeys !== undefined) next.hotkeys = { ...next.hotkeys, ...patch.hotkeys };
        if (patch.sound !== undefined) next.sound = patch.sound;
        if (patch.desktopNotifications !== undefined) next.desktopNotifications = patch.desktopNotifications;
        if (patch.parallelLanes !== undefined) next.parallelLanes = patch.parallelLanes;
        if (patch.sessionDays !== undefined) next.sessionDays = patch.sessionDays;
        if (patch.quantityPresets !== undefined) next.quantityPresets = patch.quantityPresets;
        if (patch.pnlDisplay !== undefined) next.pnlDisplay = patch.pnlDisplay;
        if (patch.chartStudies !== undefined) next.chartStudies = patch.chartStudies;
        if (patch.favouriteMarkets !== undefined) next.favouriteMarkets = [...new Set(patch.favouriteMarkets)];
        if (patch.largeTradeSize !== undefined) next.largeTradeSize = patch.largeTradeSize;
        if (patch.turboDepthOverlay !== undefined) next.turboDepthOverlay = patch.turboDepthOverlay;
        return { ...current, settings: next };
      });
      if (!saved.ok) return saved;
      if (patch.parallelLanes !== undefined) context.runtime()?.setParallelLanes(patch.parallelLanes);
      windows.broadcast('settings', saved.value.settings);
      return ok(saved.value.settings);
    },
  };
}
