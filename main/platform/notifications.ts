// A desktop notification per fill, raised by main: the renderer's own Notification permission is
// denied like every permission (hardening.ts), so pages cannot pop notifications of their own.
import { Notification } from 'electron';
import { formatUnits } from '../../shared/encoding/units';
import type { AlertFiringView, FillNotice } from '../../shared/ipc/views';
import type { Market } from '../../shared/market/market';
import { notificationBody } from './notification-text';

export function showFillNotification(notice: FillNotice, market: Market | null): void {
  if (!Notification.isSupported()) return;
  const { fill } = notice;
  const what = notice.trigger ? (notice.trigger.role === 'take-profit' ? 'Take-profit filled' : 'Stop-loss filled') : 'Order filled';
  const amount = market ? `${formatUnits(fill.quantity, market.base.decimals)} ${market.base.symbol} at ${formatUnits(fill.price, market.quote.decimals)} ${market.quote.symbol}` : `${fill.quantity} at ${fill.price} (raw units)`;
  new Notification({ title: `${what}: ${notice.symbol}`, body: notificationBody(`${fill.side} ${amount}`, process.platform), silent: true }).show();
}

/** An alert's firing as the OS's own notification, with the OS's sound when the alert asks for one; false when the OS has none. */
export function showAlertNotification(firing: AlertFiringView): boolean {
  if (!Notification.isSupported()) return false;
  new Notification({ title: 'Ledger Terminal alert', body: notificationBody(firing.text, process.platform), silent: !firing.sound }).show();
  return true;
}
