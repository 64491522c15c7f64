// The journal of signed actions: what was signed, when, with which nonce, and what became of it.
import { For, Show, type Component } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import { formatDateTime } from '../../format/time';

export const Journal: Component = () => {
  const terminal = useTerminal();
  return (
    <table data-testid="journal">
      <thead>
        <tr>
          <th>#</th>
          <th>Time</th>
          <th>Kind</th>
          <th>What</th>
          <th>Endpoint</th>
          <th class="num">Nonce</th>
          <th>Status</th>
          <th>Detail</th>
        </tr>
      </thead>
      <tbody>
        <For each={terminal.store.state.journal}>
          {(entry) => (
            <tr data-testid="journal-row" data-entry-id={entry.id}>
              <td class="mono muted">{entry.seq}</td>
              <td class="mono">{formatDateTime(entry.at)}</td>
              <td>{entry.kind}</td>
              <td>{entry.description ?? '—'}</td>
              <td class="mono muted">{entry.endpoint ?? ''}</td>
              <td class="num">{entry.nonce ?? ''}</td>
              <td>{entry.status ?? ''}</td>
              <td class="muted">{entry.detail ?? ''}</td>
            </tr>
          )}
        </For>
        <Show when={terminal.store.state.journal.length === 0}>
          <tr>
            <td colSpan={8} class="empty">{terminal.store.state.problems.journal ?? 'Nothing signed yet'}</td>
          </tr>
        </Show>
      </tbody>
    </table>
  );
};
