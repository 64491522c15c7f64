// One leg's marker for a ladder row or beside a chart line: its label, and a handle to drag it to a
// new trigger price. With `priceAt` (the host's pointer-to-price: a ladder's row under the pointer,
// a chart's posToVal) the marker runs the whole drag itself; without it, the host calls the
// overlay's dragTo/drop from its own pointer handlers. Escape cancels a drag.
import { Show, type Component } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { formatPrice } from '../../format/market-format';
import type { TriggerLine } from './trigger-model';
import type { TriggerOverlay } from './trigger-overlay';
import './triggers.css';

export const TriggerMarker: Component<{
  overlay: TriggerOverlay;
  line: TriggerLine;
  market: Market;
  /** The price under a pointer at `clientY`, or null outside the host. */
  priceAt?: (clientY: number) => bigint | null;
}> = (props) => {
  const dragging = () => props.overlay.dragging()?.triggerId === props.line.triggerId;
  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0) return;
    event.preventDefault();
    props.overlay.startDrag(props.line.triggerId);
    if (props.priceAt) (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent) => {
    if (!dragging() || !props.priceAt) return;
    const price = props.priceAt(event.clientY);
    if (price !== null) props.overlay.dragTo(price);
  };
  const onPointerUp = () => {
    if (dragging() && props.priceAt) void props.overlay.drop();
  };
  return (
    <span
      class="trigger-marker"
      classList={{ tp: props.line.tone === 'tp', sl: props.line.tone === 'sl', dormant: !props.line.armed, dragging: dragging() }}
      data-testid="trigger-marker"
      data-trigger-id={props.line.triggerId}
      data-role={props.line.role}
      data-managed={props.line.managed ?? ''}
      title={`${props.line.label} — drag to move`}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.overlay.cancelDrag();
      }}
    >
      <span class="trigger-marker-handle" data-testid="trigger-marker-handle" aria-hidden="true">
        ⋮
      </span>
      {props.line.managed === 'position' ? 'Position ' : ''}
      {props.line.tone === 'tp' ? 'TP' : props.line.managed === 'trailing' ? 'Trailing SL' : props.line.managed === 'break-even' ? 'SL → BE' : 'SL'} {formatPrice(props.market, props.line.price)}
      <Show when={dragging() && props.overlay.dragging()!.to !== props.overlay.dragging()!.from}>
        <span class="muted" data-testid="trigger-marker-from">
          {' '}
          (from {formatPrice(props.market, props.overlay.dragging()!.from)})
        </span>
      </Show>
    </span>
  );
};
