// Characters that make text lie about itself where it is shown: C0 and C1 controls (CR and ESC
// rewrite a terminal line), format characters (bidi overrides and isolates reorder what follows;
// zero-width characters hide a difference between two names), and line and paragraph separators.
// Text from the exchange is refused when it holds one where only a name belongs (symbols), and
// shown escaped where it is quoted back (a refusal naming the value: shared/text/visible-text.ts).

export const DECEPTIVE_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

export function hasDeceptiveCharacter(text: string): boolean {
  return DECEPTIVE_CHARACTER.test(text);
}
