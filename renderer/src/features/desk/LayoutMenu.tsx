// Layouts: save the desk as it is under a name, switch to a saved one, delete one. Main keeps them
// in the data directory and restores the last arrangement at the next start.
import { createSignal, For, Show, type Component } from 'solid-js';
import { closeOnPressOutside } from '../../lib/click-outside';
import { panelTitle } from './panel-registry';
import { useDesk } from './desk-context';

export const LayoutMenu: Component<{ confirm: (title: string, lines: readonly string[]) => Promise<boolean> }> = (props) => {
  const desk = useDesk();
  const [open, setOpen] = createSignal(false);
  const [name, setName] = createSignal('');
  const [problem, setProblem] = createSignal<string | null>(null);
  const layouts = () => desk.state()?.layouts ?? [];
  const active = () => desk.state()?.activeLayout ?? null;
  let root: HTMLDivElement | undefined;
  closeOnPressOutside(() => root, () => setOpen(false));
  const save = async (event: Event) => {
    event.preventDefault();
    const chosen = name().trim();
    if (!chosen) return;
    if (layouts().some((layout) => layout.name.toLowerCase() === chosen.toLowerCase())) {
      if (!(await props.confirm(`Replace the layout "${chosen}"?`, ['It will hold the windows as they are now.']))) return;
    }
    const saved = await desk.saveLayout(chosen);
    setProblem(saved.ok ? null : saved.message);
    if (saved.ok) setName('');
  };
  const apply = async (layoutName: string) => {
    const applied = await desk.applyLayout(layoutName);
    setProblem(applied.ok ? null : applied.message);
    if (applied.ok) setOpen(false);
  };
  const remove = async (layoutName: string) => {
    if (!(await props.confirm(`Delete the layout "${layoutName}"?`, ['The windows stay as they are; only the saved layout goes.']))) return;
    const deleted = await desk.deleteLayout(layoutName);
    setProblem(deleted.ok ? null : deleted.message);
  };
  return (
    <div class="layout-menu" ref={(element) => (root = element)}>
      <button type="button" data-testid="layout-menu" classList={{ on: open() }} onClick={() => setOpen(!open())} title="Save, switch and delete layouts of windows">
        Layout{active() ? `: ${active()}` : ''} ▾
      </button>
      <Show when={open()}>
        <div class="layout-menu-body" data-testid="layout-menu-body">
          <form class="layout-save" onSubmit={(event) => void save(event)}>
            <input data-testid="layout-name" placeholder="Save as…" maxLength={40} value={name()} onInput={(event) => setName(event.currentTarget.value)} />
            <button type="submit" class="primary" data-testid="layout-save" disabled={!name().trim()}>
              Save
            </button>
          </form>
          <Show when={problem()}>
            <div class="error layout-problem" data-testid="layout-problem">
              {problem()}
            </div>
          </Show>
          <Show when={layouts().length > 0} fallback={<div class="muted layout-empty">No saved layouts yet</div>}>
            <ul class="layout-list">
              <For each={layouts()}>
                {(layout) => (
                  <li data-testid="layout-row" data-name={layout.name} classList={{ active: layout.name === active() }}>
                    <button type="button" class="link layout-apply" data-testid="layout-apply" title="Switch to this layout" onClick={() => void apply(layout.name)}>
                      {layout.name}
                    </button>
                    <span class="muted layout-panels">{layout.panels.length === 0 ? 'main window only' : layout.panels.map(panelTitle).join(', ')}</span>
                    <button type="button" class="layout-delete" data-testid="layout-delete" title={`Delete ${layout.name}`} onClick={() => void remove(layout.name)}>
                      ×
                    </button>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </div>
      </Show>
    </div>
  );
};
