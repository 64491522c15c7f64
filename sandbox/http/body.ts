// Reading a request body with a hard size limit. The limit keeps a misbehaving client from
// growing the sandbox's memory; 64 KiB is far above the largest valid request (a 5-action
// batch is under 4 KiB) and is documented in docs/sandbox.md.
import type { IncomingMessage } from 'node:http';
import { ErrorCode, refusal, type Refusal } from './errors';

export const MAX_BODY_BYTES = 64 * 1024;

/** The deepest nesting of arrays and objects a body may have; the deepest valid request has 6. */
export const MAX_BODY_DEPTH = 32;

export type BodyResult = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly refusal: Refusal };

export function readJsonBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(request.headers['content-length'] ?? '0');
    if (declared > limit) {
      resolve({ ok: false, refusal: refusal(ErrorCode.BODY_TOO_LARGE, `body: at most ${limit} bytes, got content-length ${declared}`, 413) });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    request.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        resolve({ ok: false, refusal: refusal(ErrorCode.BODY_TOO_LARGE, `body: at most ${limit} bytes, got more than ${limit}`, 413) });
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', () => {
      if (done) return;
      done = true;
      resolve({ ok: false, refusal: refusal(ErrorCode.INVALID_JSON, 'body: the request stream failed') });
    });
    request.on('end', () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        resolve({ ok: true, body: undefined });
        return;
      }
      // Checked before parsing: a 30,000-deep array parses, but every recursive walk of it
      // (validation, the message that names a field) would overflow the stack.
      const depth = nestingDepth(text);
      if (depth > MAX_BODY_DEPTH) {
        resolve({ ok: false, refusal: refusal(ErrorCode.INVALID_JSON, `body: nested ${depth} levels deep; at most ${MAX_BODY_DEPTH} levels of arrays and objects are accepted`) });
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(text) as unknown;
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        resolve({ ok: false, refusal: refusal(ErrorCode.INVALID_JSON, `body: invalid JSON (${detail})`) });
        return;
      }
      const repeated = repeatedMember(text);
      if (repeated !== null) resolve({ ok: false, refusal: refusal(ErrorCode.INVALID_JSON, `${repeated}: the member appears more than once; each member may appear once`) });
      else resolve({ ok: true, body });
    });
  });
}

/** The deepest nesting of `[` and `{` in `text`, outside strings (the text need not be valid JSON). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      at++;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    } else if (char === '[' || char === '{') {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (char === ']' || char === '}') {
      depth--;
    }
  }
  return deepest;
}

interface Container {
  readonly object: boolean;
  readonly path: string;
  readonly keys: Set<string>;
  expectKey: boolean;
  lastKey: string;
  index: number;
}

/**
 * The path of the first member named twice in one object of `text` (valid JSON), or null.
 * JSON.parse keeps the last of two equal keys, another parser may keep the first: a signed body
 * whose meaning depends on the parser is refused, as the service's serde structs refuse it.
 */
export function repeatedMember(text: string): string | null {
  const stack: Container[] = [];
  const childPath = (): string => {
    const parent = stack[stack.length - 1];
    if (parent === undefined) return 'body';
    return parent.object ? `${parent.path}.${parent.lastKey}` : `${parent.path}[${parent.index}]`;
  };
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    const top = stack[stack.length - 1];
    if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top?.object && top.expectKey) {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (top.keys.has(key)) return `${top.path}.${key}`;
        top.keys.add(key);
        top.lastKey = key;
        top.expectKey = false;
      }
      at = end;
    } else if (char === '{' || char === '[') {
      stack.push({ object: char === '{', path: childPath(), keys: new Set(), expectKey: char === '{', lastKey: '', index: 0 });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',' && top !== undefined) {
      if (top.object) top.expectKey = true;
      else top.index++;
    }
  }
  return null;
}
