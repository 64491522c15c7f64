// The space of the rows a windowed table leaves out (lib/row-window.ts): one empty row of that
// height, or nothing when no row is left out on that side.
import { Show, type Component } from 'solid-js';

export const RowSpacer: Component<{ height: number; columns: number }> = (props) => (
  <Show when={props.height > 0}>
    <tr class="row-spacer" aria-hidden="true">
      <td colSpan={props.columns} style={{ height: `${props.height}px` }} />
    </tr>
  </Show>
);
