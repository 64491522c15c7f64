// What a name the trader gives (a withdrawal address's label) may hold. It is one line of text in
// any script: letters, accents, emoji, the zero-width joiners some scripts and emoji need, the
// left-to-right and right-to-left marks. It may not hold controls (CR, ESC, tab...), line or
// paragraph separators, lone surrogates, or the bidi embeddings, overrides and isolates
// (U+202A-202E, U+2066-2069), which reorder what a reader sees. Whatever is accepted is still
// escaped where it is shown on a trusted surface (visible-text.ts).
import { visibleText } from './visible-text';

const REFUSED = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;

/** Why the text is no label (naming the character as an escape), or null when it is one. */
export function labelProblem(text: string): string | null {
  const found = REFUSED.exec(text);
  if (!found) return null;
  const named = visibleText(found[0], 12);
  return `holds ${named} at character ${[...text.slice(0, found.index)].length + 1}, a control, separator or bidi override character; a label is one line of plain text`;
}
