// A menu or drop-down closes when the trader presses the mouse anywhere outside it.
import { onCleanup, onMount } from 'solid-js';

/** For the component being created: call `close` on a mouse press outside `root()` (listening while it is mounted). */
export function closeOnPressOutside(root: () => HTMLElement | undefined, close: () => void): void {
  onMount(() => {
    const pressed = (event: MouseEvent) => {
      const element = root();
      if (element && !element.contains(event.target as Node)) close();
    };
    window.addEventListener('mousedown', pressed);
    onCleanup(() => window.removeEventListener('mousedown', pressed));
  });
}
