// Reading a request body with a hard size limit. The limit keeps a misbehaving client from
// growing the sandbox's memory; 64 KiB is far above the largest valid request (a 5-action
// batch is under 4 KiB) and is documented in docs/sandbox.md.
import type { IncomingMessage } from 'node:http';
import { ErrorCode, refusal, type Refusal } from './errors';

export const MAX_BODY_BYTES = 64 * 1024;

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
      try {
        resolve({ ok: true, body: JSON.parse(text) as unknown });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        resolve({ ok: false, refusal: refusal(ErrorCode.INVALID_JSON, `body: invalid JSON (${detail})`) });
      }
    });
  });
}
