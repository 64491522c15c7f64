// Whether this window's notification centre is open, and which notice it should show unfolded.
// One per window (each window is its own page): the toasts and the bell both open it.
import { createSignal } from 'solid-js';

const [open, setOpen] = createSignal(false);
const [focused, setFocused] = createSignal<string | null>(null);

export const centre = {
  open,
  focused,
  show(noticeId: string | null = null): void {
    setFocused(noticeId);
    setOpen(true);
  },
  hide(): void {
    setOpen(false);
    setFocused(null);
  },
  toggle(): void {
    if (open()) centre.hide();
    else centre.show();
  },
};
