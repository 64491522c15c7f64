// What the bell counts: unread errors and warnings (infos close by themselves and never ask for attention).
import type { NoticeEntry } from '../../stores/terminal-store';

export function unreadCount(notices: readonly NoticeEntry[]): number {
  return notices.filter((notice) => !notice.read && notice.level !== 'info').length;
}
