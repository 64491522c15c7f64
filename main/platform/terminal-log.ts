// The host's log goes to the same terminal where it prints confirmation codes, and its lines can
// carry what a page sent or the exchange answered (an error's text, a symbol). A control sequence
// there could move the cursor and rewrite a printed confirmation, so every line is made visible
// (shared/text/visible-text.ts) and bounded before it is written; line breaks are the log's own.
import { terminalLines } from '../../shared/text/visible-text';

/** Longest log line written as it is; the rest is counted, not printed. */
export const MAX_LOG_LINE = 4000;

export function terminalLog(write: (text: string) => void): (line: string) => void {
  return (line) => write(`${terminalLines(line, MAX_LOG_LINE)}\n`);
}
