// Foreign text made visible: every control, bidi, zero-width, format and separator character is an
// escape that names it; reasonable Unicode (accents, scripts, emoji without joiners) is shown as it
// is; backslashes and quotes are escaped where text is quoted; the shown length is bounded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isVisibleText, quotedText, terminalLines, visibleText } from '../../../../shared/text/visible-text';
import { checkProperty } from '../../../support/property';

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]/u;

describe('visible text', () => {
  it('names control characters', () => {
    expect(visibleText('\r\x1b[2K\x07\x7f\t\n\0\x9b', 100)).toBe('\\r\\x1b[2K\\x07\\x7f\\t\\n\\x00\\x9b');
  });
  it('names bidi controls, zero-width and other invisible characters', () => {
    expect(visibleText('a\u202Eb\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C', 200)).toBe(
      'a\\u{202E}b\\u{202A}\\u{202B}\\u{202C}\\u{202D}\\u{2066}\\u{2067}\\u{2068}\\u{2069}\\u{200E}\\u{200F}\\u{61C}',
    );
    expect(visibleText('\u200B\u200C\u200D\u2060\uFEFF\u00AD\u3164\u115F', 200)).toBe('\\u{200B}\\u{200C}\\u{200D}\\u{2060}\\u{FEFF}\\xad\\u{3164}\\u{115F}');
  });
  it('names line and paragraph separators and spaces other than the plain one', () => {
    expect(visibleText('a\u2028b\u2029c\u00A0d\u3000e f', 100)).toBe('a\\u{2028}b\\u{2029}c\\xa0d\\u{3000}e f');
  });
  it('names a lone surrogate, private use and an enclosing mark', () => {
    expect(visibleText('\uD800x\uE000\u20DD', 100)).toBe('\\u{D800}x\\u{E000}\\u{20DD}');
  });
  it('keeps reasonable Unicode as it is', () => {
    for (const text of ['Cold wallet', 'Kältespeicher', 'холодный кошелёк', 'محفظة باردة', 'ארנק קר', '冷钱包', 'ví lạnh', 'wallet 🔒', 'e\u0301']) {
      expect(visibleText(text, 100), text).toBe(text);
      expect(isVisibleText(text), text).toBe(true);
    }
  });
  it('a combining mark that begins the text, or stacks too high, is named', () => {
    expect(visibleText('\u0301a', 10)).toBe('\\u{301}a');
    expect(visibleText('a\u0301\u0302\u0303\u0304\u0305', 40)).toBe('a\u0301\u0302\u0303\\u{304}\\u{305}');
  });
  it('quotes: backslashes and double quotes escaped, so a label cannot close its quotation or fake an escape', () => {
    expect(quotedText('a" (on the allow-list) "b\\x1b', 64)).toBe('"a\\" (on the allow-list) \\"b\\\\x1b"');
  });
  it('bounds what is shown and says how much was left out', () => {
    expect(visibleText('x'.repeat(10_000), 64)).toBe(`${'x'.repeat(64)}…(9936 more characters)`);
    expect(visibleText('\u202E'.repeat(100), 20)).toBe(`${'\\u{202E}'.repeat(2)}…(98 more characters)`);
    expect(visibleText('abc', 3)).toBe('abc');
  });
  it('a terminal log line keeps its line breaks and backslashes, and loses its controls', () => {
    expect(terminalLines('C:\\data "x"\n\x1b[2Jowned\r', 100)).toBe('C:\\data "x"\n\\x1b[2Jowned\\r');
  });
  it('never shows a hidden character, whatever the input', async () => {
    await checkProperty(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 1, max: 300 }), (text, max) => {
        const shown = visibleText(text, max);
        expect(HIDDEN.test(shown)).toBe(false);
        expect(shown.replace(/…\(\d+ more characters?\)$/, '').length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 300 },
    );
  });
});
