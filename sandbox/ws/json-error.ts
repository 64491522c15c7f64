// The stream's malformed-JSON error text, `expected value at line X column Y` (spec 7), with the
// position of the first character that is not valid JSON (1-based; at the end of the input the
// column just past the last character). JSON.parse does not always say where it failed, so a
// small validating scanner finds the offset.

class Scanner {
  index = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    throw this.index;
  }

  whitespace(): void {
    while (this.index < this.text.length && ' \t\n\r'.includes(this.text[this.index] as string)) this.index++;
  }

  literal(word: string): void {
    for (const char of word) {
      if (this.text[this.index] !== char) this.fail();
      this.index++;
    }
  }

  value(depth: number): void {
    if (depth > 512) this.fail();
    this.whitespace();
    const char = this.text[this.index];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') return this.string();
    if (char === 't') return this.literal('true');
    if (char === 'f') return this.literal('false');
    if (char === 'n') return this.literal('null');
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.number();
    this.fail();
  }

  object(depth: number): void {
    this.index++;
    this.whitespace();
    if (this.text[this.index] === '}') {
      this.index++;
      return;
    }
    for (;;) {
      this.whitespace();
      if (this.text[this.index] !== '"') this.fail();
      this.string();
      this.whitespace();
      if (this.text[this.index] !== ':') this.fail();
      this.index++;
      this.value(depth + 1);
      this.whitespace();
      const next = this.text[this.index];
      this.index++;
      if (next === '}') return;
      if (next !== ',') {
        this.index--;
        this.fail();
      }
    }
  }

  array(depth: number): void {
    this.index++;
    this.whitespace();
    if (this.text[this.index] === ']') {
      this.index++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.whitespace();
      const next = this.text[this.index];
      this.index++;
      if (next === ']') return;
      if (next !== ',') {
        this.index--;
        this.fail();
      }
    }
  }

  string(): void {
    this.index++;
    while (this.index < this.text.length) {
      const char = this.text[this.index] as string;
      if (char === '"') {
        this.index++;
        return;
      }
      if (char === '\\') this.index++;
      else if (char < ' ') this.fail();
      this.index++;
    }
    this.fail();
  }

  number(): void {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.index));
    if (!match) this.fail();
    this.index += match[0].length;
  }
}

/** Offset of the first invalid character, or undefined when `text` is one valid JSON value. */
export function invalidJsonOffset(text: string): number | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.value(0);
    scanner.whitespace();
    if (scanner.index < text.length) return scanner.index;
    return undefined;
  } catch (offset) {
    if (typeof offset === 'number') return offset;
    throw offset;
  }
}

export function malformedJsonMessage(text: string, offset: number): string {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return `expected value at line ${line} column ${column}`;
}
