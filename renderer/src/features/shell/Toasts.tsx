// Notices as toasts, in a bounded corner that never covers the ticket or the ladder: the newest
// few only (the rest wait in the notification centre, counted by the bell), each cut to a few
// lines. Each closes by itself (infos after 6 s, warnings 15 s, errors 30 s: toast-timers.ts) or at
// once with its close button; the centre keeps every notice and the bell counts unread errors and
// warnings until they are read there. "Details" opens the centre at that notice.
import { createEffect, For, onCleanup, Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import { formatClock } from '../../format/time';
import { centre } from '../notices/centre-state';
import { NotificationBell, NotificationCentre } from '../notices/NotificationCentre';
import { toastTimers } from '../notices/toast-timers';

/** More than this many open toasts collapse into one "more" line. */
export const MAX_TOASTS = 3;

export const Toasts: Component<{ /** A panel window: no top bar, so the bell sits with the toasts. */ withBell?: boolean }> = (props) => {
  const terminal = useTerminal();
  const timers = toastTimers({
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    close: (id) => terminal.store.closeToast(id),
  });
  createEffect(() => timers.sync(terminal.store.state.notices.map((notice) => ({ id: notice.id, level: notice.level, closed: notice.closed }))));
  onCleanup(() => timers.dispose());
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
              <button type="button" class="toast-close" data-testid="notice-dismiss" aria-label="Close" title="Close (the notification centre keeps it)" onClick={() => terminal.store.dismissNotice(notice.id)}>
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
