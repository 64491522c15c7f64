// Each alert firing main announces, in the browser host's page: its sound (when the alert and the
// settings want one) and the browser's own notification (the Notification API; the permission is
// asked on the first click, fill-alerts.ts). Under Electron main shows the OS's notification, with
// the OS's sound, itself, windows open or not; the notice (kept in the notification centre) comes
// from main in both.
import { onCleanup } from 'solid-js';
import type { TerminalApi } from '../../../../shared/ipc/contract';
import type { TerminalContextValue } from '../../stores/terminal-context';

let audio: AudioContext | null = null;

/** Two rising tones: unlike a fill's single beep. */
export function chime(): void {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    [660, 990].forEach((frequency, index) => {
      const oscillator = audio!.createOscillator();
      const gain = audio!.createGain();
      const at = start + index * 0.18;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
      oscillator.connect(gain).connect(audio!.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.17);
    });
  } catch {
    // No audio device: the notice and the notification still tell the trader.
  }
}

export function installAlertFirings(terminal: TerminalContextValue, bridge: TerminalApi): void {
  let browserHost = false;
  void bridge.getAppInfo({}).then((info) => {
    browserHost = info.ok && info.value.host === 'browser';
  });
  const stop = bridge.onAlertFired((firing) => {
    if (!browserHost) return;
    const settings = terminal.store.state.settings;
    if (firing.sound && settings?.sound !== false) chime();
    if (settings?.desktopNotifications && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      // The text is main's, with anything from the exchange already escaped; a notification body is plain text.
      new Notification('Ledger Terminal alert', { body: firing.text, tag: firing.id, silent: true });
    }
  });
  onCleanup(stop);
}
