// One toast, one sound and one desktop notification per fill, the last two switched in settings.
// A fill of a fired take-profit or stop-loss says so ("Take-profit filled"). The sound is a short
// WebAudio tone made here (no file to load): higher for buys, lower for sells.
//
// Desktop notifications: in the browser host the page asks the browser (the Notification API, on a
// click, as browsers require). Under Electron every permission request of a page is denied by
// design (main/platform/security.ts), so the page never shows one there: main shows the native
// notification for each fill itself.
import { onCleanup } from 'solid-js';
import type { FillNotice } from '../../../../shared/ipc/views';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { TerminalContextValue } from '../../stores/terminal-context';
import { formatFillFee, formatPrice, formatQuantity } from '../../format/market-format';

let audio: AudioContext | null = null;

export function beep(side: 'Buy' | 'Sell'): void {
  try {
    audio ??= new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = side === 'Buy' ? 880 : 587;
    const start = audio.currentTime;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.15);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.16);
  } catch {
    // No audio device: the toast and the notification still tell the trader.
  }
}

/** "Take-profit filled", "Stop-loss filled", or "Fill" for a fill of an ordinary order. */
export function fillTitle(notice: FillNotice): string {
  if (!notice.trigger) return 'Fill';
  return notice.trigger.role === 'take-profit' ? 'Take-profit filled' : 'Stop-loss filled';
}

export function describeFill(terminal: TerminalContextValue, notice: FillNotice): string {
  const market = terminal.market(notice.fill.marketId);
  if (!market) return `${notice.fill.side} ${notice.fill.quantity} at ${notice.fill.price} (${notice.symbol})`;
  const trigger = notice.trigger ? ` · trigger ${formatPrice(market, notice.trigger.triggerPrice)}` : '';
  return `${notice.fill.side} ${formatQuantity(market, notice.fill.quantity)} ${market.base.symbol} at ${formatPrice(market, notice.fill.price)} ${market.quote.symbol} · fee ${formatFillFee(market, notice.fill.side, notice.fill.fee)}${trigger}`;
}

/** Fills of one order arriving this close together share one toast (a market order sweeping levels). */
const GROUP_MS = 3000;

/** Several fills of one order as one line: total size, the price range and the fees. */
export function describeFills(terminal: TerminalContextValue, notices: readonly FillNotice[]): string {
  const first = notices[0];
  if (!first) return '';
  if (notices.length === 1) return describeFill(terminal, first);
  const market = terminal.market(first.fill.marketId);
  let quantity = 0n;
  let fee = 0n;
  let low = first.fill.price;
  let high = first.fill.price;
  for (const notice of notices) {
    quantity += notice.fill.quantity;
    fee += notice.fill.fee;
    if (notice.fill.price < low) low = notice.fill.price;
    if (notice.fill.price > high) high = notice.fill.price;
  }
  if (!market) return `${first.fill.side} ${quantity} in ${notices.length} fills (${first.symbol}, raw units)`;
  const prices = low === high ? formatPrice(market, low) : `${formatPrice(market, low)}–${formatPrice(market, high)}`;
  return `${first.fill.side} ${formatQuantity(market, quantity)} ${market.base.symbol} in ${notices.length} fills at ${prices} ${market.quote.symbol} · fees ${formatFillFee(market, first.fill.side, fee)}`;
}

export function installFillAlerts(terminal: TerminalContextValue, bridge: TerminalApi, now: () => number = () => Date.now()): void {
  const groups = new Map<string, { readonly key: string; readonly started: number; readonly notices: FillNotice[] }>();
  // Until main says which host this is, assume Electron: a page never asks there.
  let browserHost = false;
  void bridge.getAppInfo({}).then((info) => {
    browserHost = info.ok && info.value.host === 'browser';
  });
  // Browsers grant notifications only from a user gesture: ask once, on the first click, when
  // the setting is on and the trader has not answered yet.
  const askOnce = () => {
    if (browserHost && terminal.store.state.settings?.desktopNotifications && typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
    window.removeEventListener('pointerdown', askOnce);
  };
  window.addEventListener('pointerdown', askOnce);
  onCleanup(() => window.removeEventListener('pointerdown', askOnce));
  const stop = bridge.onFill((notice) => {
    const settings = terminal.store.state.settings;
    const text = describeFill(terminal, notice);
    const title = fillTitle(notice);
    const at = now();
    for (const [orderId, group] of groups) if (at - group.started > GROUP_MS) groups.delete(orderId);
    let group = groups.get(notice.fill.orderId);
    if (!group) {
      group = { key: `fill-${notice.fill.orderId}-${at}`, started: at, notices: [] };
      groups.set(notice.fill.orderId, group);
    }
    group.notices.push(notice);
    terminal.store.showNotice(group.key, 'info', `${title}: ${describeFills(terminal, group.notices)}`);
    if (settings?.sound) beep(notice.fill.side);
    if (browserHost && settings?.desktopNotifications && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      // A tag per fill: one notification each, never merged into the previous one.
      new Notification(`${title} · ${notice.symbol}`, { body: text, tag: `${notice.fill.orderId}:${notice.fill.time}:${notice.fill.quantity}`, silent: true });
    }
  });
  onCleanup(stop);
}
