// A panel in the main window: the panel itself with a detach button in its own header, or, while
// it has a window of its own, a placeholder that says where it is and brings it back.
import { createSignal, onMount, Show, type Component } from 'solid-js';
import { Portal } from 'solid-js/web';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { displayLabel, windowOfKind } from './desk-model';
import { useDesk } from './desk-context';
import { panelDefinition, panelTitle } from './panel-registry';

export const DetachButton: Component<{ kind: string; market: Market | null; turbo: boolean }> = (props) => {
  const desk = useDesk();
  const terminal = useTerminal();
  const [busy, setBusy] = createSignal(false);
  const detach = async () => {
    setBusy(true);
    const result = await desk.detach(props.kind, props.market ? { marketId: props.market.market_id, turbo: props.turbo } : null);
    setBusy(false);
    if (!result.ok) terminal.store.notify('error', `${panelTitle(props.kind)} could not get a window of its own (${result.code}): ${result.message}`);
  };
  return (
    <button type="button" class="detach" data-testid={`detach-${props.kind}`} disabled={busy()} title={`Open ${panelTitle(props.kind)} in its own window`} onClick={() => void detach()}>
      <DetachIcon />
    </button>
  );
};

/** Two overlapping windows, drawn: the glyph (⧉) is missing from common system fonts. */
export const DetachIcon: Component = () => (
  <svg class="detach-icon" viewBox="0 0 14 14" width="13" height="13" aria-hidden="true">
    <rect x="4.5" y="1.5" width="8" height="7" rx="1" fill="none" stroke="currentColor" stroke-width="1.3" />
    <path d="M2 5 v6.5 a1 1 0 0 0 1 1 h6.5" fill="none" stroke="currentColor" stroke-width="1.3" />
  </svg>
);

/** Where a detached panel is, with the way back. */
export const DetachedPlaceholder: Component<{ kind: string; class?: string; compact?: boolean }> = (props) => {
  const desk = useDesk();
  const window = () => windowOfKind(desk.state(), props.kind);
  // In the workspace's strip: one line, "Ladder on Display 1 [Show here]".
  if (props.compact)
    return (
      <span class="desk-placeholder-compact" data-testid={`detached-${props.kind}`}>
        <b>{panelTitle(props.kind)}</b>
        <Show when={window()?.state === 'open'} fallback={<span class="muted"> (not opened yet)</span>}>
          <span class="muted"> on {displayLabel(desk.state(), window()?.displayId ?? null)}</span>
        </Show>
        <Show when={window()?.state === 'opening' && window()?.url}>
          <button type="button" data-testid={`open-window-${props.kind}`} onClick={() => window() && desk.openPending(window()!)}>
            Open window
          </button>
        </Show>
        <button type="button" data-testid={`dock-${props.kind}`} title={`Bring ${panelTitle(props.kind)} back to its place in this window`} onClick={() => window() && void desk.dock(window()!.windowKey)}>
          Show here
        </button>
      </span>
    );
  return (
    <section class={`panel desk-placeholder ${props.class ?? ''}`} data-testid={`detached-${props.kind}`}>
      <div class="desk-placeholder-body">
        <div>
          <b>{panelTitle(props.kind)}</b> is in its own window
          <Show when={window()?.state === 'open'} fallback={<span class="muted"> (not opened yet)</span>}>
            <span class="muted"> on {displayLabel(desk.state(), window()?.displayId ?? null)}</span>
          </Show>
        </div>
        <div class="desk-placeholder-actions">
          <Show when={window()?.state === 'opening' && window()?.url}>
            <button type="button" data-testid={`open-window-${props.kind}`} onClick={() => window() && desk.openPending(window()!)}>
              Open window
            </button>
          </Show>
          <button type="button" data-testid={`dock-${props.kind}`} onClick={() => window() && void desk.dock(window()!.windowKey)}>
            Show here
          </button>
        </div>
      </div>
    </section>
  );
};

export const PanelSlot: Component<{ kind: string; class: string; market: Market | null; turbo: boolean }> = (props) => {
  const desk = useDesk();
  const detached = () => windowOfKind(desk.state(), props.kind) !== null;
  return (
    <Show when={!detached()} fallback={<DetachedPlaceholder kind={props.kind} class={props.class} />}>
      <PanelInPlace {...props} />
    </Show>
  );
};

const PanelInPlace: Component<{ kind: string; class: string; market: Market | null; turbo: boolean }> = (props) => {
  const definition = panelDefinition(props.kind);
  const [header, setHeader] = createSignal<HTMLElement | null>(null);
  let slot: HTMLDivElement | undefined;
  onMount(() => {
    // The panel's own header (or toolbar) takes the detach button; a panel without one gets it floating.
    const found = definition?.controlsSelector ? slot?.querySelector<HTMLElement>(definition.controlsSelector) : null;
    setHeader(found ?? null);
  });
  const button = () => <DetachButton kind={props.kind} market={props.market} turbo={props.turbo} />;
  return (
    <div class={`desk-slot ${props.class}`} ref={(element) => (slot = element)} data-panel={props.kind}>
      {definition?.render({
        get market() {
          return props.market;
        },
        get turbo() {
          return props.turbo;
        },
      })}
      <Show when={header()} fallback={<div class="desk-controls floating">{button()}</div>}>
        {(element) => (
          <Portal mount={element()} ref={(wrapper: HTMLDivElement) => (wrapper.className = 'desk-controls')}>
            {button()}
          </Portal>
        )}
      </Show>
    </div>
  );
};
