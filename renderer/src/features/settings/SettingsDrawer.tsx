// Settings: order safety (confirmation, maximum order size, notional and position, price band), quantity presets, hotkeys (recorded
// by pressing them), fill alerts, parallel nonce lanes and session length. Every change goes to
// main (updateSettings); main's answer is what the window shows.
import { createSignal, For, Show, type Component } from 'solid-js';
import { formatUnits, parseUnits } from '../../../../shared/encoding/units';
import type { RequestInput } from '../../../../shared/ipc/contract';
import { HOTKEY_ACTIONS, type HotkeyAction } from '../../../../shared/ipc/views/settings';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { editableQuantity } from '../../format/market-format';
import { describeEvent, HOTKEY_LABELS, hotkeyConflicts } from '../hotkeys/hotkeys';
import { bandFieldText, bandsWithText, DEFAULT_BAND_TEXT } from './price-band-input';

type SettingsChange = RequestInput<'updateSettings'>;

export const SettingsDrawer: Component<{ market: Market | null; onClose: () => void }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const settings = () => terminal.store.state.settings;
  const [recording, setRecording] = createSignal<HotkeyAction | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  // A refused hotkey (a conflict, or keys that are no combination) is said under the hotkeys.
  const [hotkeyProblem, setHotkeyProblem] = createSignal<string | null>(null);

  const save = async (change: SettingsChange) => {
    const result = await bridge.updateSettings(change);
    if (result.ok) {
      terminal.store.setSettings(result.value);
      setProblem(null);
    } else setProblem(`${result.message} (${result.code})`);
  };

  const saveMaxQuantity = (text: string) => {
    const market = props.market;
    const current = settings();
    if (!market || !current) return;
    const next = { ...current.maxOrderQuantity };
    if (text.trim() === '') delete next[market.market_id];
    else {
      const parsed = parseUnits(text.trim(), market.base.decimals, 'Maximum order size');
      if (!parsed.ok || parsed.value === 0n) {
        setProblem(parsed.ok ? 'Maximum order size must be above zero.' : parsed.message);
        return;
      }
      next[market.market_id] = parsed.value;
    }
    void save({ maxOrderQuantity: next });
  };

  // A per-market cap main enforces (GUARD_MAX_NOTIONAL in quote, GUARD_MAX_POSITION in base); empty removes it.
  const saveCap = (field: 'maxOrderNotional' | 'maxPosition', input: HTMLInputElement, label: string) => {
    const market = props.market;
    const current = settings();
    if (!market || !current) return;
    const next = { ...current[field] };
    const text = input.value.trim();
    if (text === '') delete next[market.market_id];
    else {
      const parsed = parseUnits(text, field === 'maxOrderNotional' ? market.quote.decimals : market.base.decimals, label);
      if (!parsed.ok || parsed.value === 0n) {
        setProblem(parsed.ok ? `${label} must be above zero.` : parsed.message);
        return;
      }
      next[market.market_id] = parsed.value;
    }
    // Declined or not confirmed (raising or removing needs main's confirmation): the field shows main's value again.
    void save({ [field]: next }).then(() => (input.value = capText(field, settings()?.[field] ?? {})));
  };

  // The daily loss limit is per quote asset: the current market's quote names which.
  const saveDailyLoss = (input: HTMLInputElement) => {
    const market = props.market;
    const current = settings();
    if (!market || !current) return;
    const next = { ...current.dailyLossLimit };
    const text = input.value.trim().replace(/^[-−]/, '');
    if (text === '') delete next[market.quote.asset];
    else {
      const parsed = parseUnits(text, market.quote.decimals, 'Daily loss limit');
      if (!parsed.ok || parsed.value === 0n) {
        setProblem(parsed.ok ? 'Daily loss limit must be above zero.' : parsed.message);
        return;
      }
      next[market.quote.asset] = parsed.value;
    }
    void save({ dailyLossLimit: next }).then(() => (input.value = dailyLossText(settings()?.dailyLossLimit ?? {})));
  };

  const dailyLossText = (limits: Readonly<Record<string, bigint>>): string => {
    const market = props.market;
    const limit = market ? limits[market.quote.asset] : undefined;
    return market && limit !== undefined ? formatUnits(limit, market.quote.decimals) : '';
  };

  const capText = (field: 'maxOrderNotional' | 'maxPosition', caps: Readonly<Record<string, bigint>>): string => {
    const market = props.market;
    const cap = market ? caps[market.market_id] : undefined;
    if (!market || cap === undefined) return '';
    return field === 'maxOrderNotional' ? formatUnits(cap, market.quote.decimals) : editableQuantity(market, cap);
  };

  const saveBand = (input: HTMLInputElement) => {
    const market = props.market;
    const current = settings();
    if (!market || !current) return;
    const next = bandsWithText(current.priceBandBps, market.market_id, input.value);
    if (!next.ok) {
      setProblem(next.message);
      return;
    }
    // Declined or not confirmed (widening needs main's confirmation): the field shows main's value again.
    void save({ priceBandBps: next.value }).then(() => (input.value = bandFieldText(settings()?.priceBandBps ?? {}, market.market_id)));
  };

  const savePresets = (text: string) => {
    const market = props.market;
    const current = settings();
    if (!market || !current) return;
    const values: bigint[] = [];
    for (const part of text.split(/[\s,;]+/).filter((item) => item !== '')) {
      const parsed = parseUnits(part, market.base.decimals, 'Preset');
      if (!parsed.ok || parsed.value === 0n) {
        setProblem(parsed.ok ? `Preset ${part} must be above zero.` : parsed.message);
        return;
      }
      values.push(parsed.value);
    }
    if (values.length > 8) {
      setProblem('At most 8 presets per market.');
      return;
    }
    const presets: Record<string, bigint[]> = {};
    for (const [marketId, list] of Object.entries(current.quantityPresets)) presets[marketId] = [...list];
    presets[market.market_id] = values;
    void save({ quantityPresets: presets });
  };

  const record = (action: HotkeyAction, event: KeyboardEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (event.key === 'Escape' && !event.ctrlKey && !event.altKey && !event.shiftKey) {
      setRecording(null);
      return;
    }
    const text = describeEvent(event);
    if (!text) return;
    setRecording(null);
    void saveHotkeys({ [action]: text });
  };

  const saveHotkeys = async (change: Partial<Record<HotkeyAction, string>>) => {
    const result = await bridge.updateSettings({ hotkeys: change });
    if (result.ok) {
      terminal.store.setSettings(result.value);
      setHotkeyProblem(null);
    } else setHotkeyProblem(result.message);
  };

  const conflicts = () => (settings() ? hotkeyConflicts(settings()!.hotkeys) : []);

  return (
    <aside class="drawer" data-testid="settings">
      <header class="panel-head">
        <h2>Settings</h2>
        <div class="spacer" />
        <button type="button" data-testid="settings-close" onClick={() => props.onClose()}>
          Close
        </button>
      </header>
      <Show when={settings()} fallback={<div class="panel-note">{terminal.store.state.problems.settings ?? 'Loading settings…'}</div>}>
        {(current) => (
          <div class="form">
            <Show when={problem()}>
              <div class="callout error" data-testid="settings-problem">{problem()}</div>
            </Show>
            <h4>Orders</h4>
            <label class="line">
              <span>Ask for confirmation before every order</span>
              <input
                type="checkbox"
                data-testid="settings-confirm"
                checked={current().confirmOrders}
                onChange={(event) => {
                  const box = event.currentTarget;
                  // Declined or not confirmed: the box shows main's value again.
                  void save({ confirmOrders: box.checked }).then(() => (box.checked = settings()?.confirmOrders ?? true));
                }}
              />
            </label>
            <label class="line" title="When the day's P&L reaches a daily loss limit, main always refuses new exposure and disarms every window; with this on it also cancels every open order and leg and flattens every position (bounded market orders, as Flatten), once per breach and day. Turning it off asks for your confirmation.">
              <span>On daily loss breach: cancel open orders and flatten</span>
              <input
                type="checkbox"
                data-testid="settings-flatten-on-daily-loss"
                checked={current().flattenOnDailyLoss}
                onChange={(event) => {
                  const box = event.currentTarget;
                  void save({ flattenOnDailyLoss: box.checked }).then(() => (box.checked = settings()?.flattenOnDailyLoss ?? false));
                }}
              />
            </label>
            <label class="line" title="Main refuses an order (a new one or an amend; cancels never count) that would make more than this many in the last 60 seconds; raising it or turning it off asks for your confirmation.">
              <span>Maximum orders per minute (0 for none)</span>
              <input
                data-testid="settings-orders-per-minute"
                style={{ width: '80px' }}
                value={String(current().maxOrdersPerMinute)}
                onChange={(event) => {
                  const input = event.currentTarget;
                  const parsed = Number(input.value.trim());
                  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 10_000) {
                    setProblem('Maximum orders per minute must be a whole number from 0 to 10000.');
                    return;
                  }
                  void save({ maxOrdersPerMinute: parsed }).then(() => (input.value = String(settings()?.maxOrdersPerMinute ?? 0)));
                }}
              />
            </label>
            <Show when={props.market}>
              {(market) => (
                <>
                  <label class="line">
                    <span>
                      Maximum order size, {market().base.symbol}/{market().quote.symbol} ({market().base.symbol}; empty for none)
                    </span>
                    <input
                      data-testid="settings-max-quantity"
                      style={{ width: '120px' }}
                      value={current().maxOrderQuantity[market().market_id] !== undefined ? editableQuantity(market(), current().maxOrderQuantity[market().market_id]!) : ''}
                      onChange={(event) => saveMaxQuantity(event.currentTarget.value)}
                    />
                  </label>
                  <label class="line" title="Main refuses an order whose price × quantity (a market order: at its price bound) is above this; raising or removing it asks for your confirmation.">
                    <span>
                      Maximum order notional, {market().base.symbol}/{market().quote.symbol} ({market().quote.symbol}; empty for none)
                    </span>
                    <input data-testid="settings-max-notional" style={{ width: '120px' }} value={capText('maxOrderNotional', current().maxOrderNotional)} onChange={(event) => saveCap('maxOrderNotional', event.currentTarget, 'Maximum order notional')} />
                  </label>
                  <label class="line" title="Main refuses an order that could leave your position, long or short, above this: the position now, your resting orders on the same side and the order. Reducing orders always pass; raising or removing it asks for your confirmation.">
                    <span>
                      Maximum position, {market().base.symbol}/{market().quote.symbol} ({market().base.symbol}; empty for none)
                    </span>
                    <input data-testid="settings-max-position" style={{ width: '120px' }} value={capText('maxPosition', current().maxPosition)} onChange={(event) => saveCap('maxPosition', event.currentTarget, 'Maximum position')} />
                  </label>
                  <label class="line" title="Once your P&L in this asset since 00:00 UTC (realized and unrealized, every market quoted in it) is at or past minus this, main refuses every order that adds exposure; reducing orders and cancels still pass. Raising or removing it asks for your confirmation.">
                    <span>Daily loss limit, {market().quote.symbol} (every market quoted in it; empty for none)</span>
                    <input data-testid="settings-daily-loss" style={{ width: '120px' }} value={dailyLossText(current().dailyLossLimit)} onChange={(event) => saveDailyLoss(event.currentTarget)} />
                  </label>
                  <label class="line" title="Main refuses an order, amend or stop priced further than this from the book (the mid of the best bid and offer); widening it or turning it off asks for your confirmation.">
                    <span>
                      Price band, {market().base.symbol}/{market().quote.symbol} (% around the book; 0 for off; empty for the default {DEFAULT_BAND_TEXT})
                    </span>
                    <input
                      data-testid="settings-price-band"
                      style={{ width: '80px' }}
                      placeholder={DEFAULT_BAND_TEXT}
                      value={bandFieldText(current().priceBandBps, market().market_id)}
                      onChange={(event) => saveBand(event.currentTarget)}
                    />
                  </label>
                  <label class="line">
                    <span>Quantity presets, {market().base.symbol} (comma separated)</span>
                    <input
                      data-testid="settings-presets"
                      style={{ width: '160px' }}
                      value={(current().quantityPresets[market().market_id] ?? []).map((value) => editableQuantity(market(), value)).join(', ')}
                      onChange={(event) => savePresets(event.currentTarget.value)}
                    />
                  </label>
                </>
              )}
            </Show>
            <h4>Hotkeys</h4>
            <div class="help">Click a binding, then press the keys; ✕ leaves the action without a key. Hotkeys never fire while you type in a field. Esc cancels recording. {current().hotkeys.showHotkeys ? `${current().hotkeys.showHotkeys} lists them.` : ''}</div>
            <For each={HOTKEY_ACTIONS}>
              {(action) => (
                <div class="line">
                  <span>{HOTKEY_LABELS[action]}</span>
                  <button
                    type="button"
                    class="mono"
                    classList={{ on: recording() === action }}
                    data-testid={`hotkey-${action}`}
                    onClick={() => setRecording(action)}
                    onKeyDown={(event) => recording() === action && record(action, event)}
                    onBlur={() => recording() === action && setRecording(null)}
                  >
                    {recording() === action ? 'Press keys…' : current().hotkeys[action] || 'no key'}
                  </button>
                  <button type="button" class="icon" title="No key for this action" data-testid={`hotkey-clear-${action}`} disabled={current().hotkeys[action] === ''} onClick={() => void saveHotkeys({ [action]: '' })}>
                    ✕
                  </button>
                </div>
              )}
            </For>
            <Show when={hotkeyProblem()}>
              <div class="callout error" data-testid="hotkey-problem" role="alert">
                {hotkeyProblem()}
              </div>
            </Show>
            <For each={conflicts()}>{(actions) => <div class="warning">Same keys for: {actions.map((action) => HOTKEY_LABELS[action]).join(' and ')}</div>}</For>
            <h4>Fill alerts</h4>
            <label class="line">
              <span>Sound on every fill</span>
              <input type="checkbox" data-testid="settings-sound" checked={current().sound} onChange={(event) => void save({ sound: event.currentTarget.checked })} />
            </label>
            <label class="line">
              <span>Desktop notification on every fill</span>
              <input
                type="checkbox"
                data-testid="settings-notifications"
                checked={current().desktopNotifications}
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  if (on && typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
                  void save({ desktopNotifications: on });
                }}
              />
            </label>
            <h4>Nonces</h4>
            <label class="line">
              <span>Parallel nonce lanes</span>
              <select data-testid="settings-lanes" value={String(current().parallelLanes)} onChange={(event) => void save({ parallelLanes: Number(event.currentTarget.value) })}>
                <For each={[0, 1, 2, 3, 4]}>{(lanes) => <option value={String(lanes)}>{lanes === 0 ? '0 (sequential)' : String(lanes)}</option>}</For>
              </select>
            </label>
            <div class="help">
              With 0, every signed action uses the account's next nonce, so actions go one after another and a slow answer holds up the next one. With 1 to 4 lanes, main signs with parallel nonces: several
              orders or cancels can be in flight at once. A lost answer is still never resent: the terminal checks whether its nonce position was used before signing
              anything else. A fifth lane is kept for owner-signed requests such as withdrawals.
            </div>
            <h4>Session</h4>
            <label class="line">
              <span>Length of a new trading session (days)</span>
              <input
                type="number"
                min="1"
                max="365"
                data-testid="settings-session-days"
                style={{ width: '80px' }}
                value={current().sessionDays}
                onChange={(event) => {
                  const days = Number(event.currentTarget.value);
                  if (Number.isInteger(days) && days >= 1 && days <= 365) void save({ sessionDays: days });
                  else setProblem('Session length is a whole number of days from 1 to 365.');
                }}
              />
            </label>
          </div>
        )}
      </Show>
    </aside>
  );
};
