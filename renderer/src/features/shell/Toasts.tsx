// Notices as toasts, in a bounded corner that never covers the ticket or the ladder: the newest
// few only (the rest wait in the notification centre, counted by the bell), each cut to a few
// lines. Info closes by itself after a few seconds; warnings and errors stay until read (dismissed
// here or seen in the centre). "Details" opens the centre at that notice.
import { createEffect, For, onCleanup, Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import { formatClock } from '../../format/time';
import { centre } from '../notices/centre-state';
import { NotificationBell, NotificationCentre } from '../notices/NotificationCentre';

const INFO_MS = 6000;
/** More than this many open toasts collapse into one "more" line. */
export const MAX_TOASTS = 3;

export const Toasts: Component<{ /** A panel window: no top bar, so the bell sits with the toasts. */ withBell?: boolean }> = (props) => {
  const terminal = useTerminal();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  createEffect(() => {
    for (const notice of terminal.store.state.notices) {
      if (notice.level !== 'info' || notice.closed || timers.has(notice.id)) continue;
      timers.set(notice.id, setTimeout(() => terminal.store.closeToast(notice.id), INFO_MS));
    }
  });
  onCleanup(() => {
    for (const timer of timers.values()) clearTimeout(timer);
  });
  const open = () => terminal.store.state.notices.filter((notice) => !notice.closed);
  const shown = () => open().slice(-MAX_TOASTS);
  const hidden = () => open().length - shown().length;
  return (
    <>
      <div class="toasts" data-testid="toasts" aria-live="polite">
        <Show when={hidden() > 0}>
          <button type="button" class="toast toast-more" data-testid="toasts-more" onClick={() => centre.show()}>
            {hidden()} more in the notification centre
          </button>
        </Show>
        <For each={shown()}>
          {(notice) => (
            <div class="toast" data-testid="notice" data-level={notice.level} role={notice.level === 'error' ? 'alert' : 'status'}>
              <span class="muted mono">{formatClock(notice.time)}</span>
              <span class="text">
                <Show when={notice.title}>
                  <b>{notice.title}: </b>
                </Show>
                {notice.text}
              </span>
              <Show when={notice.details}>
                <button type="button" class="link" data-testid="notice-open-details" onClick={() => centre.show(notice.id)}>
                  Details
                </button>
              </Show>
              <button type="button" class="link" data-testid="notice-dismiss" aria-label="Dismiss" onClick={() => terminal.store.dismissNotice(notice.id)}>
                ✕
              </button>
            </div>
          )}
        </For>
        <Show when={props.withBell && terminal.store.state.notices.length > 0}>
          <div class="toast-bell">
            <NotificationBell />
          </div>
        </Show>
      </div>
      <NotificationCentre />
    </>
  );
};
