// Several panels sharing one place of the main window as tabs (the blotter; the ticket and its
// stops). Each tab is a panel of the registry: the one shown can be detached into a window of its
// own, and a detached one shows where it is, with the way back.
import { createMemo, createSignal, For, Show, type Component, type JSX } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { detachedKinds } from './desk-model';
import { useDesk } from './desk-context';
import { panelDefinition } from './panel-registry';
import { DetachButton, DetachedPlaceholder, DetachIcon } from './PanelSlot';

export interface PanelTab {
  readonly kind: string;
  /** The tab's text (a count may follow it). */
  readonly label: () => string;
  /** Tabs shown only sometimes (a margin tab once margin exists): hidden when false. */
  readonly visible?: () => boolean;
}

export const PanelTabs: Component<{
  tabs: readonly PanelTab[];
  class: string;
  testId: string;
  market: Market | null;
  turbo: boolean;
  /** The tab shown, when the shell drives it (a button elsewhere opens a tab); otherwise kept here. */
  selected?: string;
  onSelect?: (kind: string) => void;
}> = (props) => {
  const desk = useDesk();
  const [own, setOwn] = createSignal(props.tabs[0]?.kind ?? '');
  const shown = createMemo(() => props.tabs.filter((tab) => tab.visible?.() !== false));
  const current = () => {
    const wanted = props.selected ?? own();
    return shown().some((tab) => tab.kind === wanted) ? wanted : (shown()[0]?.kind ?? '');
  };
  const select = (kind: string) => {
    setOwn(kind);
    props.onSelect?.(kind);
  };
  const detached = createMemo(() => detachedKinds(desk.state()));
  const body = (kind: string): JSX.Element => {
    const definition = panelDefinition(kind);
    if (!definition) return <div class="panel-note">No panel of kind {kind}</div>;
    const panelProps = {
      get market() {
        return props.market;
      },
      get turbo() {
        return props.turbo;
      },
    };
    return definition.body ? definition.body(panelProps) : definition.render(panelProps);
  };
  return (
    <section class={`panel panel-tabs ${props.class}`} data-testid={props.testId} data-tab={current()}>
      <header class="panel-head">
        <div class="tabs" role="tablist">
          <For each={shown()}>
            {(tab) => (
              <button
                type="button"
                role="tab"
                aria-selected={current() === tab.kind}
                classList={{ on: current() === tab.kind, detached: detached().has(tab.kind) }}
                data-testid={`tab-${tab.kind}`}
                title={detached().has(tab.kind) ? 'In a window of its own' : ''}
                onClick={() => select(tab.kind)}
              >
                {tab.label()}
                <Show when={detached().has(tab.kind)}>
                  {' '}
                  <DetachIcon />
                </Show>
              </button>
            )}
          </For>
        </div>
        <div class="spacer" />
        <Show when={current() && !detached().has(current())}>
          <DetachButton kind={current()} market={props.market} turbo={props.turbo} />
        </Show>
      </header>
      <div class="panel-body">
        <Show when={current()} keyed>
          {(kind) => (
            <Show when={!detached().has(kind)} fallback={<DetachedPlaceholder kind={kind} />}>
              {body(kind)}
            </Show>
          )}
        </Show>
      </div>
    </section>
  );
};
