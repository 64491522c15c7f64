// The words of a trusted confirmation. Only main's own source writes them: `trusted` is a template
// tag whose literal parts are main's words and whose every interpolated string is foreign (a
// label from the page, a symbol or a name from the exchange, an id) and so is escaped and bounded
// (shared/text/visible-text.ts) before it reaches the host's terminal or the native dialog. A
// confirmation's title and lines are TrustedText, so a service cannot hand a confirmer a raw string.
import { BugError } from '../../../shared/result';
import { quotedText, visibleText } from '../../../shared/text/visible-text';

const TRUSTED: unique symbol = Symbol('trusted text');

/** Text fit for a trusted surface: main's words, foreign values escaped inside them. */
export interface TrustedText {
  readonly [TRUSTED]: true;
  readonly text: string;
}

/** What a confirmation may interpolate: foreign strings (escaped), numbers, or text already trusted. */
export type TextValue = TrustedText | string | number | bigint;

/** A foreign string shows at most this many characters unless told otherwise (a 32-byte id in hex). */
export const FOREIGN_MAX = 66;
/** A label shows at most this many characters (the allow-list keeps labels of at most 64). */
export const LABEL_MAX = 64;

/** Characters main's own words never hold (its lines are single lines of plain text). */
const UNSAFE_LITERAL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function make(text: string): TrustedText {
  return Object.freeze({ [TRUSTED]: true as const, text });
}

function piece(value: TextValue): string {
  if (typeof value === 'string') return visibleText(value, FOREIGN_MAX);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return value.text;
}

/** main's words with foreign values in them: `trusted\`Amount: ${amount} ${symbol}\``. */
export function trusted(literals: TemplateStringsArray, ...values: readonly TextValue[]): TrustedText {
  let text = '';
  literals.forEach((literal, index) => {
    if (UNSAFE_LITERAL.test(literal)) throw new BugError(`a trusted confirmation's own words hold a control or format character: ${JSON.stringify(literal)}`);
    text += literal;
    if (index < values.length) text += piece(values[index]!);
  });
  return make(text);
}

/** A foreign value escaped, with its own bound (a URL of up to 300 characters is shown whole). */
export function shown(value: string, maxLength = FOREIGN_MAX): TrustedText {
  return make(visibleText(value, maxLength));
}

/** A foreign label: escaped, bounded and in quotes, so it reads as a name and never as main's words. */
export function quoted(label: string, maxLength = LABEL_MAX): TrustedText {
  return make(quotedText(label, maxLength));
}
