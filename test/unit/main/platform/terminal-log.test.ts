// The host's log shares the terminal with the printed confirmation: a line carrying a page's or
// the exchange's text cannot move the cursor, erase a line or switch the text's direction there.
import { describe, expect, it } from 'vitest';
import { MAX_LOG_LINE, terminalLog } from '../../../../main/platform/terminal-log';

describe('the host terminal log', () => {
  it('writes control and bidi characters as escapes, keeps its own line breaks, bounds each line', () => {
    const written: string[] = [];
    const log = terminalLog((text) => written.push(text));
    log('refused market \x1b[1A\x1b[2K\rCONFIRM: your cold wallet\u202E');
    log('bug in placeOrder: Error: x\n    at f (C:\\app\\main.ts:1:1)');
    log('y'.repeat(MAX_LOG_LINE + 10));
    expect(written[0]).toBe('refused market \\x1b[1A\\x1b[2K\\rCONFIRM: your cold wallet\\u{202E}\n');
    expect(written[1]).toBe('bug in placeOrder: Error: x\n    at f (C:\\app\\main.ts:1:1)\n');
    expect(written[2]).toBe(`${'y'.repeat(MAX_LOG_LINE)}…(10 more characters)\n`);
  });
});
