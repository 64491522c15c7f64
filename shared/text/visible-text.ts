// Foreign text (from a page, from the exchange) made into characters a reader sees as they are.
// A terminal obeys control characters (CR returns to the start of the line, ESC sequences move the
// cursor and erase), a dialog obeys bidi controls (U+202E shows the rest of a line backwards), and
// zero-width, format and separator characters hide or fake what follows. Every such character is
// shown as an escape instead (\r, \x1b, \u{202E}), backslashes and quotes are escaped so foreign
// text cannot imitate an escape or close a quotation, and the result is bounded.

/** Characters never shown as themselves: controls, format (bidi, zero-width), separators other than the space, surrogates, private use, unassigned, default-ignorable, enclosing marks. */
const HIDDEN = /^(?:[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Me}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs})$/u;
const MARK = /^\p{Mn}$/u;
/** Combining marks shown on one character at most (more stack over the lines around it). */
const MAX_MARKS = 3;

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };
/** Escaped too where text is quoted, so foreign text cannot imitate an escape or close the quotation. */
const QUOTING: Readonly<Record<string, string>> = { '\\': '\\\\', '"': '\\"' };

/** How one code point is shown: itself, or an escape that names it. `marksBefore` is null when no shown character precedes it (a mark would sit on a quote or an escape). */
function shownCodePoint(character: string, marksBefore: number | null, quoting: boolean): string {
  const named = NAMED[character] ?? (quoting ? QUOTING[character] : undefined);
  if (named !== undefined) return named;
  const code = character.codePointAt(0)!;
  const hidden = HIDDEN.test(character) || (MARK.test(character) && (marksBefore === null || marksBefore >= MAX_MARKS));
  if (!hidden) return character;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16).toUpperCase()}}`;
}

/** Whether the text would be shown as it is (no character needs an escape). */
export function isVisibleText(text: string): boolean {
  return visibleText(text, Number.MAX_SAFE_INTEGER, false) === text;
}

/**
 * The text with every hidden character escaped, at most `maxLength` characters as shown, then
 * "…(N more characters)" when it was longer. Never holds a control, bidi or invisible character.
 * `quoting` (the default) escapes backslashes and double quotes too.
 */
export function visibleText(text: string, maxLength: number, quoting = true): string {
  let shown = '';
  /** Combining marks shown on the last character shown; null when none was, or it was an escape. */
  let marks: number | null = null;
  let remaining = 0;
  let full = false;
  for (const character of text) {
    if (full) {
      remaining += 1;
      continue;
    }
    const piece = shownCodePoint(character, marks, quoting);
    marks = piece !== character ? null : MARK.test(character) ? (marks ?? 0) + 1 : 0;
    if (shown.length + piece.length > maxLength) {
      full = true;
      remaining += 1;
      continue;
    }
    shown += piece;
  }
  return remaining === 0 ? shown : `${shown}…(${remaining} more character${remaining === 1 ? '' : 's'})`;
}

/** The text escaped, bounded and in double quotes: shown as a label, never read as the surface's own words. */
export function quotedText(text: string, maxLength: number): string {
  return `"${visibleText(text, maxLength)}"`;
}

/** A log line for a terminal: each line of it escaped and bounded, the line breaks kept. */
export function terminalLines(text: string, maxLineLength: number): string {
  return text
    .split('\n')
    .map((line) => visibleText(line, maxLineLength, false))
    .join('\n');
}
