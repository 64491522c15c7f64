// Notices from main (onNotice) and from this window, as toasts. Info fades after a while;
// warnings and errors stay until dismissed, so nothing that matters scrolls away unread.
import { createEffect, For, onCleanup, type Component } from 'solid-js';
import { useTerminal } from '../../app/terminal-context';
import { formatClock } from '../../format/time';

const INFO_MS = 6000;

export const Toasts: Component = () => {
  const terminal = useTerminal();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  createEffect(() => {
    for (const notice of terminal.store.state.notices) {
      if (notice.level !== 'info' || timers.has(notice.id)) continue;
      timers.set(notice.id, setTimeout(() => terminal.store.dismissNotice(notice.id), INFO_MS));
    }
  });
  onCleanup(() => {
    for (const timer of timers.values()) clearTimeout(timer);
  });
  return (
    <div class="toasts" aria-live="polite">
      <For each={terminal.store.state.notices}>
        {(notice) => (
          <div class="toast" data-testid="notice" data-level={notice.level} role={notice.level === 'error' ? 'alert' : 'status'}>
            <span class="muted mono">{formatClock(notice.time)}</span>
            <span class="text">{notice.text}</span>
            <button type="button" class="link" data-testid="notice-dismiss" aria-label="Dismiss" onClick={() => terminal.store.dismissNotice(notice.id)}>
              ✕
            </button>
          </div>
        )}
      </For>
    </div>
  );
};
