// Malformed bridge frames against a real browser host (startBrowserHost with a dispatcher of
// recording handlers, a temporary renderer directory), over a real WebSocket: random text,
// JSON of anything, call frames with hostile ids, names and inputs, deep nesting, frames near the
// size limit. Every text frame gets exactly one answer (a reply to a call, or INVALID_FRAME), none
// crashes the host, a refused call reaches no handler, and a valid call is still answered after.
// Nesting has a stated limit, MAX_FRAME_DEPTH (shared/ipc/codec.ts): the host and this test's own
// decoder agree on frames just under, at and over it.
// Oversized and binary frames close that connection only; the host keeps serving new ones.
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserHost, type BrowserHost } from '../../../main/host/browser-host';
import { createDispatcher, type Handlers } from '../../../main/ipc/dispatcher';
import { WindowHub } from '../../../main/services/window-hub';
import { decodeFrame, encodeFrame, MAX_FRAME_DEPTH } from '../../../shared/ipc/codec';
import { requestNames, type RequestName } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import { deeplyNestedText, HUGE_STRING, hostileJson, hostileValue, mutationOf } from '../../support/fuzz/hostile';
import { validInputs } from '../../support/fuzz/valid-inputs';
import { checkProperty } from '../../support/property';

const TOKEN = 'f'.repeat(64);
const ANSWER_MS = 3_000;
/** The browser host's limit (main/host/browser-host.ts). */
const MAX_FRAME_BYTES = 1 << 20;

let host: BrowserHost;
const calls: { name: RequestName; input: unknown }[] = [];
/** An error nothing handled: in the real host process it would have ended the host. */
const uncaught: string[] = [];
const onUncaught = (error: Error) => uncaught.push(`${error.name}: ${error.message}`);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  const rendererDir = mkdtempSync(join(tmpdir(), 'lt-fuzz-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>fuzz</title>');
  const handlers = Object.fromEntries(
    requestNames.map((name) => [
      name,
      (input: unknown) => {
        calls.push({ name, input });
        return ok(name === 'getAppInfo' ? { version: 'fuzz', host: 'browser', offline: false } : null);
      },
    ]),
  ) as unknown as Handlers;
  host = await startBrowserHost({ createDispatch: (origin) => createDispatcher(handlers, { allowedOrigins: [origin] }), windows: new WindowHub(), rendererDir, token: TOKEN });
});

afterEach(() => {
  expect(uncaught.splice(0), 'the host threw outside any request (in its own process that ends it)').toEqual([]);
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await host.close();
});

interface Connection {
  readonly socket: WebSocket;
  /** Send one text frame and wait for the next frame from the host. */
  exchange(text: string): Promise<Record<string, unknown>>;
  closed: Promise<number>;
}

function connect(): Promise<Connection> {
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}/bridge?token=${TOKEN}`, { origin: host.origin, maxPayload: 64 << 20 });
  const inbox: string[] = [];
  let waiting: ((text: string) => void) | null = null;
  socket.on('message', (data) => {
    const text = data.toString();
    if (waiting) {
      const deliver = waiting;
      waiting = null;
      deliver(text);
    } else inbox.push(text);
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  const exchange = (text: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_MS} ms to ${text.slice(0, 120)}`)), ANSWER_MS);
      waiting = (answer) => {
        clearTimeout(timer);
        resolve(decodeFrame(answer) as Record<string, unknown>);
      };
      const queued = inbox.shift();
      if (queued !== undefined) waiting(queued);
      socket.send(text);
    });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, exchange, closed }));
    socket.once('error', reject);
  });
}

function textOf(value: unknown): string {
  try {
    return encodeFrame(value) ?? 'null';
  } catch {
    return deeplyNestedText(50_000, 'object');
  }
}

/** The host's own reading of a frame: a call needs t "call" and a safe-integer id. */
function expectedAnswer(text: string): { kind: 'reply'; id: number } | { kind: 'invalid' } {
  let frame: unknown;
  try {
    frame = decodeFrame(text);
  } catch {
    return { kind: 'invalid' };
  }
  if (frame === null || typeof frame !== 'object') return { kind: 'invalid' };
  const record = frame as Record<string, unknown>;
  return record.t === 'call' && typeof record.id === 'number' && Number.isSafeInteger(record.id) ? { kind: 'reply', id: record.id } : { kind: 'invalid' };
}

const requestName = fc.constantFrom(...requestNames);
const callFrame = fc.record({
  t: fc.oneof({ arbitrary: fc.constant('call'), weight: 8 }, { arbitrary: fc.constantFrom('Call', 'reply', 'push', ''), weight: 1 }),
  id: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 1_000_000 }), weight: 6 }, { arbitrary: fc.constantFrom(-1, 1.5, 2 ** 53, Number.MAX_VALUE, '1', null), weight: 1 }),
  name: fc.oneof({ arbitrary: requestName, weight: 6 }, { arbitrary: fc.constantFrom<unknown>({ toString: 1 }, ['getAppInfo'], 'constructor', '__proto__', 42, null), weight: 1 }, { arbitrary: hostileJson, weight: 1 }),
  seed: requestName,
  input: fc.oneof(fc.constant('valid'), fc.constant('mutated'), fc.constant('hostile')),
}).chain((frame) =>
  (frame.input === 'valid' ? fc.constant<unknown>(validInputs[frame.seed]) : frame.input === 'mutated' ? mutationOf(validInputs[frame.seed]) : hostileValue).map((input) => textOf({ t: frame.t, id: frame.id, name: frame.name, input })),
);

const frameText = fc.oneof(
  { arbitrary: callFrame, weight: 8 },
  { arbitrary: fc.string({ maxLength: 80 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 1 },
  { arbitrary: hostileJson.map(textOf), weight: 2 },
  { arbitrary: fc.tuple(callFrame, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', 'null', '[]', '{"t":"call"}', '{"t":"call","id":1}', '{"$bigint":"1"}', deeplyNestedText(100_000, 'array'), `{"t":"call","id":7,"name":"getAppInfo","input":{"pad":"${HUGE_STRING.slice(0, (1 << 20) - 200)}"}}`), weight: 1 },
);

describe('browser host, malformed frames', () => {
  it('answers every text frame exactly once without crashing, and still answers a valid call', async () => {
    let connection = await connect();
    await checkProperty(
      fc.asyncProperty(fc.array(frameText, { minLength: 1, maxLength: 8 }), async (frames) => {
        for (const text of frames) {
          const before = calls.length;
          if (Buffer.byteLength(text) > MAX_FRAME_BYTES) {
            // Over the host's limit: that connection is closed (1009), nothing is dispatched.
            connection.socket.send(text);
            expect(await connection.closed).toBe(1009);
            expect(calls.length).toBe(before);
            connection = await connect();
            continue;
          }
          const answer = await connection.exchange(text);
          const expected = expectedAnswer(text);
          if (expected.kind === 'invalid') {
            expect(answer).toMatchObject({ t: 'error', result: { ok: false, code: 'INVALID_FRAME' } });
            expect(calls.length).toBe(before);
            continue;
          }
          expect(answer).toMatchObject({ t: 'reply', id: expected.id });
          const result = answer.result as { ok: boolean; code?: string; message?: string };
          if (result.ok) expect(calls.length).toBe(before + 1);
          else {
            expect(['INVALID_INPUT', 'UNKNOWN_CHANNEL', 'FORBIDDEN_SENDER']).toContain(result.code);
            expect(typeof result.message).toBe('string');
            expect(calls.length, 'a refused call reached a handler').toBe(before);
          }
        }
        const reply = await connection.exchange(encodeFrame({ t: 'call', id: 424_242, name: 'getAppInfo', input: {} }));
        expect(reply).toEqual({ t: 'reply', id: 424_242, result: { ok: true, value: { version: 'fuzz', host: 'browser', offline: false } } });
      }),
      { numRuns: 400 },
    );
    connection.socket.close();
  });

  it(`refuses a frame nested deeper than MAX_FRAME_DEPTH (${MAX_FRAME_DEPTH}) with INVALID_FRAME naming the depth, and reads one at the limit`, async () => {
    expect(MAX_FRAME_DEPTH).toBe(64);
    const connection = await connect();
    // The call frame is one level and its input one more: the input's own nesting fills the rest.
    const callNestedTo = (depth: number, kind: 'array' | 'object') => `{"t":"call","id":${depth},"name":"getAppInfo","input":${deeplyNestedText(depth - 1, kind)}}`;
    for (const kind of ['array', 'object'] as const) {
      for (const depth of [MAX_FRAME_DEPTH - 1, MAX_FRAME_DEPTH, MAX_FRAME_DEPTH + 1, MAX_FRAME_DEPTH * 4]) {
        const text = callNestedTo(depth, kind);
        const before = calls.length;
        const answer = await connection.exchange(text);
        const expected = expectedAnswer(text);
        if (depth > MAX_FRAME_DEPTH) {
          expect(expected, `this test's decoder at depth ${depth}`).toEqual({ kind: 'invalid' });
          expect(answer, `the host at depth ${depth}`).toMatchObject({ t: 'error', result: { ok: false, code: 'INVALID_FRAME', message: expect.stringContaining(String(MAX_FRAME_DEPTH)) } });
          expect(calls.length).toBe(before);
        } else {
          expect(expected, `this test's decoder at depth ${depth}`).toEqual({ kind: 'reply', id: depth });
          // Read as a call: getAppInfo's input schema refuses the nested input, no handler runs.
          expect(answer, `the host at depth ${depth}`).toMatchObject({ t: 'reply', id: depth, result: { ok: false, code: 'INVALID_INPUT' } });
          expect(calls.length).toBe(before);
        }
      }
    }
    connection.socket.close();
  });

  it('a call whose name breaks String() ({"toString": 1}) gets its answer', async () => {
    const connection = await connect();
    const answer = await connection.exchange('{"t":"call","id":5,"name":{"toString":1},"input":{}}');
    expect(answer).toMatchObject({ t: 'reply', id: 5, result: { ok: false, code: 'UNKNOWN_CHANNEL' } });
    connection.socket.close();
  });

  it('a peer resetting a refused bridge connection does not end the host', async () => {
    const port = Number(new URL(host.origin).port);
    await Promise.all(
      Array.from({ length: 20 }, () => {
        const socket = netConnect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        return new Promise<void>((resolve) => {
          socket.once('connect', () => {
            socket.write(`GET /bridge?token=wrong HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${host.origin}\r\n\r\n`);
            socket.resetAndDestroy();
            resolve();
          });
        });
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const fresh = await connect();
    expect(await fresh.exchange(encodeFrame({ t: 'call', id: 3, name: 'getAppInfo', input: {} }))).toMatchObject({ t: 'reply', id: 3, result: { ok: true } });
    fresh.socket.close();
  });

  it('an oversized or binary frame closes that connection only, never the host; the host serves the next one', async () => {
    const oversized = await connect();
    oversized.socket.send(`{"t":"call","id":1,"name":"getAppInfo","input":{"pad":"${'y'.repeat(1 << 20)}"}}`);
    expect(await oversized.closed).toBe(1009);
    const binary = await connect();
    binary.socket.send(Buffer.from([0x7b, 0x7d]));
    expect(await binary.closed).toBe(1003);
    const fresh = await connect();
    expect(await fresh.exchange(encodeFrame({ t: 'call', id: 9, name: 'getAppInfo', input: {} }))).toMatchObject({ t: 'reply', id: 9, result: { ok: true } });
    fresh.socket.close();
  });
});
