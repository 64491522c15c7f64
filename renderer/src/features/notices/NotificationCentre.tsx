// The notification centre: a bell with the count of unread errors and warnings, and a drawer with
// every notice of this window (newest first), each with its time, what it is about, the trader
// sentence and, where there is one, the raw exchange text behind a "Details" toggle. Opening it
// counts what it shows as read (which also closes those toasts).
import { createEffect, createSignal, For, on, Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import { formatClock } from '../../format/time';
import type { NoticeEntry } from '../../stores/terminal-store';
import { centre } from './centre-state';
import { unreadCount } from './notice-model';


export const NotificationBell: Component = () => {
  const terminal = useTerminal();
  const unread = () => unreadCount(terminal.store.state.notices);
  const worst = () => (terminal.store.state.notices.some((notice) => !notice.read && notice.level === 'error') ? 'error' : unread() > 0 ? 'warning' : 'none');
  return (
    <button
      type="button"
      class="notices-bell"
      data-testid="notices-bell"
      data-unread={unread()}
      data-level={worst()}
      classList={{ on: centre.open() }}
      title={unread() > 0 ? `${unread()} unread notification${unread() === 1 ? '' : 's'}` : 'Notifications'}
      aria-label={unread() > 0 ? `Notifications, ${unread()} unread` : 'Notifications'}
      onClick={() => centre.toggle()}
    >
      <svg class="bell-icon" aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.73 21a2 2 0 0 1-3.46 0" />
      </svg>
      <Show when={unread() > 0}>
        <span class="notices-unread" data-testid="notices-unread">
          {unread()}
        </span>
      </Show>
    </button>
  );
};

const CentreItem: Component<{ notice: NoticeEntry; fresh: boolean; unfold: boolean }> = (props) => {
  const [open, setOpen] = createSignal(props.unfold);
  return (
    <li class="centre-notice" data-testid="centre-notice" data-level={props.notice.level} data-code={props.notice.code ?? ''} classList={{ fresh: props.fresh }}>
      <div class="centre-line">
        <span class="muted mono">{formatClock(props.notice.time)}</span>
        <span class="centre-level">{props.notice.level === 'error' ? 'Error' : props.notice.level === 'warning' ? 'Warning' : 'Info'}</span>
        <Show when={props.notice.title}>
          <b data-testid="centre-notice-title">{props.notice.title}</b>
        </Show>
      </div>
      <p class="centre-text" data-testid="centre-notice-text">
        {props.notice.text}
      </p>
      <Show when={props.notice.details}>
        <button type="button" class="link" data-testid="notice-details-toggle" aria-expanded={open()} onClick={() => setOpen(!open())}>
          {open() ? 'Hide details' : 'Details'}
        </button>
        <Show when={open()}>
          <pre class="centre-details" data-testid="notice-details">
            {props.notice.details}
          </pre>
        </Show>
      </Show>
    </li>
  );
};

export const NotificationCentre: Component = () => {
  const terminal = useTerminal();
  // What was unread when the centre opened stays highlighted while it is open.
  const [fresh, setFresh] = createSignal<ReadonlySet<string>>(new Set());
  createEffect(
    on(centre.open, (open) => {
      if (!open) return;
      setFresh(new Set(terminal.store.state.notices.filter((notice) => !notice.read).map((notice) => notice.id)));
    }),
  );
  // Read = shown in the open centre (also what arrives while it is open).
  createEffect(() => {
    if (centre.open() && terminal.store.state.notices.some((notice) => !notice.read)) terminal.store.markRead();
  });
  const newestFirst = () => [...terminal.store.state.notices].reverse();
  return (
    <Show when={centre.open()}>
      <aside class="drawer notification-centre" data-testid="notification-centre" aria-label="Notifications">
        <header class="panel-head">
          <h2>Notifications</h2>
          <div class="spacer" />
          <button type="button" data-testid="notices-clear" disabled={terminal.store.state.notices.length === 0} onClick={() => terminal.store.clearNotices()}>
            Clear
          </button>
          <button type="button" data-testid="notices-close" onClick={() => centre.hide()}>
            Close
          </button>
        </header>
        <ol class="centre-list">
          <For each={newestFirst()} fallback={<li class="panel-note">No notifications</li>}>
            {(notice) => <CentreItem notice={notice} fresh={fresh().has(notice.id)} unfold={centre.focused() === notice.id} />}
          </For>
        </ol>
      </aside>
    </Show>
  );
};
