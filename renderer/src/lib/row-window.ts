// A long list drawn a window at a time: only the rows in (or near) its scroll container's view are
// in the document, with a spacer row above and below that keeps the scroll height. A page with
// hundreds of resting orders otherwise lays out, paints and hit-tests every row on each push (see
// docs/reliability.md, "The open orders table with 450 rows").
import { createMemo, createSignal, onCleanup, onMount, type Accessor } from 'solid-js';

/** Rows drawn beyond each edge of the view: a short list is drawn whole, a scroll shows no gap. */
export const OVERSCAN_ROWS = 40;
/** The height of one row before a row has been measured (a table row of the panels' font). */
export const ESTIMATED_ROW_PX = 25;

export interface WindowInput {
  /** The scroll container's scrollTop. */
  readonly scrollTop: number;
  /** The scroll container's visible height. */
  readonly viewport: number;
  /** Where the first row starts, in the scroll container's content (px). */
  readonly bodyTop: number;
  readonly rowHeight: number;
  readonly count: number;
  readonly overscan: number;
}

export interface RowRange {
  /** First row drawn. */
  readonly start: number;
  /** One past the last row drawn. */
  readonly end: number;
}

/** The rows to draw: those in view and `overscan` more on each side, within [0, count). */
export function rowWindow(input: WindowInput): RowRange {
  const count = Math.max(0, Math.floor(input.count));
  if (count === 0) return { start: 0, end: 0 };
  const height = input.rowHeight > 0 ? input.rowHeight : ESTIMATED_ROW_PX;
  const from = Math.floor((input.scrollTop - input.bodyTop) / height);
  const to = Math.ceil((input.scrollTop + Math.max(0, input.viewport) - input.bodyTop) / height);
  const start = Math.min(count, Math.max(0, from - input.overscan));
  const end = Math.max(start, Math.min(count, Math.max(0, to) + input.overscan));
  return { start, end };
}

/** The nearest ancestor that scrolls vertically (overflow-y auto or scroll), or null. */
function scrollParent(element: HTMLElement): HTMLElement | null {
  for (let node = element.parentElement; node !== null; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return node;
  }
  return null;
}

export interface RowWindow {
  readonly range: Accessor<RowRange>;
  /** Height of the spacer above the drawn rows, px. */
  readonly above: Accessor<number>;
  /** Height of the spacer below the drawn rows, px. */
  readonly below: Accessor<number>;
  /** Ref for the element the rows start in (the tbody): the window measures from it. */
  readonly body: (element: HTMLElement) => void;
  /** Ref for one drawn row: the first one measured gives the row height. */
  readonly row: (element: HTMLElement) => void;
}

/**
 * The window over `count()` rows in the nearest scrolling ancestor of the body element. It reads
 * layout only on a scroll or a resize of that ancestor and once per row height, never per push.
 */
export function createRowWindow(count: Accessor<number>, overscan = OVERSCAN_ROWS): RowWindow {
  const [view, setView] = createSignal({ scrollTop: 0, viewport: 0, bodyTop: 0 }, { equals: (a, b) => a.scrollTop === b.scrollTop && a.viewport === b.viewport && a.bodyTop === b.bodyTop });
  const [rowHeight, setRowHeight] = createSignal(0);
  let body: HTMLElement | undefined;
  let scroller: HTMLElement | null = null;
  let measuring = false;
  const measure = () => {
    if (body === undefined || scroller === null) return;
    const top = body.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    // The rows' height again, from all rows drawn (the first row, measured once, may have been
    // laid out before the page's font was in: a spacer a few pixels off per row left out).
    const drawn = body.querySelectorAll<HTMLElement>(':scope > tr:not(.row-spacer)');
    if (drawn.length > 1) {
      const height = (drawn[drawn.length - 1]!.getBoundingClientRect().bottom - drawn[0]!.getBoundingClientRect().top) / drawn.length;
      if (height > 0 && Math.abs(height - rowHeight()) > 0.01) setRowHeight(height);
    }
    setView({ scrollTop: scroller.scrollTop, viewport: scroller.clientHeight, bodyTop: top });
  };
  let stop = () => {};
  const attach = () => {
    if (body === undefined) return;
    scroller = scrollParent(body);
    if (scroller === null) {
      // Nothing scrolls it: the whole list is in view, draw it all.
      setView({ scrollTop: 0, viewport: Number.MAX_SAFE_INTEGER / 4, bodyTop: 0 });
      return;
    }
    const target = scroller;
    measure();
    target.addEventListener('scroll', measure, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(target);
    stop = () => {
      target.removeEventListener('scroll', measure);
      resized.disconnect();
    };
  };
  onMount(() => {
    // A panel mounted before its slot is in the document has no styles to find its scroller by yet.
    if (body?.isConnected === false) {
      const frame = requestAnimationFrame(attach);
      stop = () => cancelAnimationFrame(frame);
    } else attach();
  });
  onCleanup(() => stop());
  // Equal while the same rows stay drawn: a scroll inside the overscan re-renders nothing.
  const range = createMemo(() => rowWindow({ ...view(), rowHeight: rowHeight(), count: count(), overscan }), { start: 0, end: 0 }, { equals: (a, b) => a.start === b.start && a.end === b.end });
  const height = () => rowHeight() || ESTIMATED_ROW_PX;
  return {
    range,
    above: () => range().start * height(),
    below: () => Math.max(0, count() - range().end) * height(),
    body: (element) => {
      body = element;
    },
    row: (element) => {
      if (rowHeight() !== 0 || measuring) return;
      // Measured after the row is laid out (the next frame), once.
      measuring = true;
      requestAnimationFrame(() => {
        measuring = false;
        const measured = element.isConnected ? element.getBoundingClientRect().height : 0;
        if (measured > 0 && rowHeight() === 0) setRowHeight(measured);
      });
    },
  };
}
