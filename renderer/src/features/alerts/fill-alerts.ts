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
import type { TerminalContextValue } from '../../app/terminal-context';
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

export function installFillAlerts(terminal: TerminalContextValue): void {
  // Until main says which host this is, assume Electron: a page never asks there.
  let browserHost = false;
  void terminal.api.getAppInfo({}).then((info) => {
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
  const stop = terminal.api.onFill((notice) => {
    const settings = terminal.store.state.settings;
    const text = describeFill(terminal, notice);
    const title = fillTitle(notice);
    terminal.store.notify('info', `${title}: ${text}`);
    if (settings?.sound) beep(notice.fill.side);
    if (browserHost && settings?.desktopNotifications && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      // A tag per fill: one notification each, never merged into the previous one.
      new Notification(`${title} · ${notice.symbol}`, { body: text, tag: `${notice.fill.orderId}:${notice.fill.time}:${notice.fill.quantity}`, silent: true });
    }
  });
  onCleanup(stop);
}
