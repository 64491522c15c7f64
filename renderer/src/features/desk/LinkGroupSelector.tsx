// A window's link group, by colour: windows of one colour show one market, chosen in any of them;
// "unlinked" keeps this window's market its own.
import { createSignal, For, Show, type Component } from 'solid-js';
import { closeOnPressOutside } from '../../lib/click-outside';
import { LINK_GROUPS, type LinkGroup } from '../../../../shared/ipc/views/desk';
import { useDesk } from './desk-context';

export const LinkGroupSelector: Component<{ windowKey?: string }> = (props) => {
  const desk = useDesk();
  const [open, setOpen] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  const current = (): LinkGroup | null => {
    const key = props.windowKey ?? desk.self()?.windowKey ?? null;
    return desk.state()?.windows.find((window) => window.windowKey === key)?.linkGroup ?? null;
  };
  let root: HTMLDivElement | undefined;
  closeOnPressOutside(() => root, () => setOpen(false));
  const choose = async (group: LinkGroup | null) => {
    setOpen(false);
    const result = await desk.setLinkGroup(group, props.windowKey);
    setProblem(result.ok ? null : result.message);
  };
  return (
    <div class="link-group" ref={(element) => (root = element)}>
      <button
        type="button"
        class="link-group-current"
        data-testid="link-group"
        data-group={current() ?? 'none'}
        title={current() ? `Linked: windows of the ${current()} group show one market. Click to change.` : (problem() ?? 'Unlinked: this window keeps its own market. Click to link it.')}
        onClick={() => setOpen(!open())}
      >
        <span class="link-dot" data-group={current() ?? 'none'} />
        <span class="muted">▾</span>
      </button>
      <Show when={open()}>
        <div class="link-group-menu" data-testid="link-group-menu">
          <For each={LINK_GROUPS}>
            {(group) => (
              <button type="button" classList={{ on: current() === group }} data-testid="link-group-option" data-group={group} title={`Link to the ${group} group`} onClick={() => void choose(group)}>
                <span class="link-dot" data-group={group} />
                {group}
              </button>
            )}
          </For>
          <button type="button" classList={{ on: current() === null }} data-testid="link-group-option" data-group="none" onClick={() => void choose(null)}>
            <span class="link-dot" data-group="none" />
            unlinked
          </button>
        </div>
      </Show>
    </div>
  );
};
