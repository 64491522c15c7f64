// One sound and one desktop notification per fill, each switched in settings. The sound is a
// short WebAudio tone made here (no file to load): higher for buys, lower for sells.
import { onCleanup } from 'solid-js';
import type { FillNotice } from '../../../../shared/ipc/views';
import type { TerminalContextValue } from '../../app/terminal-context';
import { formatPrice, formatQuantity } from '../../format/market-format';
import { formatUnits } from '../../format/units';

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

export function describeFill(terminal: TerminalContextValue, notice: FillNotice): string {
  const market = terminal.market(notice.fill.marketId);
  if (!market) return `${notice.fill.side} ${notice.fill.quantity} at ${notice.fill.price} (${notice.symbol})`;
  return `${notice.fill.side} ${formatQuantity(market, notice.fill.quantity)} ${market.base.symbol} at ${formatPrice(market, notice.fill.price)} ${market.quote.symbol} · fee ${formatUnits(notice.fill.fee, market.quote.decimals)}`;
}

export function installFillAlerts(terminal: TerminalContextValue): void {
  // Browsers grant notifications only from a user gesture: ask once, on the first click, when
  // the setting is on and the trader has not answered yet.
  const askOnce = () => {
    if (terminal.store.state.settings?.desktopNotifications && typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
    window.removeEventListener('pointerdown', askOnce);
  };
  window.addEventListener('pointerdown', askOnce);
  onCleanup(() => window.removeEventListener('pointerdown', askOnce));
  const stop = terminal.api.onFill((notice) => {
    const settings = terminal.store.state.settings;
    const text = describeFill(terminal, notice);
    terminal.store.notify('info', `Fill: ${text}`);
    if (settings?.sound) beep(notice.fill.side);
    if (settings?.desktopNotifications && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      // A tag per fill: one notification each, never merged into the previous one.
      new Notification(`Fill · ${notice.symbol}`, { body: text, tag: `${notice.fill.orderId}:${notice.fill.time}:${notice.fill.quantity}`, silent: true });
    }
  });
  onCleanup(stop);
}
