// Bad input at the bridge, property-based: for every request of the contract, hostile values and
// mutations of a valid input go through the real dispatcher with handlers that record each call.
// Whatever comes in, the dispatcher settles (no throw, no hang) and either calls the one handler
// with a value its schema accepts, or refuses with INVALID_INPUT naming the request and the field,
// without calling any handler. Unknown channels and foreign senders are refused the same way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDispatcher, originOf, type Caller, type Dispatch, type Handlers } from '../../../main/ipc/dispatcher';
import { isRequestName, requestNames, requests, type RequestName } from '../../../shared/ipc/contract';
import { ok, type Result } from '../../../shared/result';
import { hostileValue, mutationOf, oddPrimitive, pollutedObject, withOwnKey } from '../../support/fuzz/hostile';
import { validInputs } from '../../support/fuzz/valid-inputs';
import { checkProperty } from '../../support/property';

const ORIGIN = 'app://terminal';
const caller: Caller = { windowId: 'w1', frameUrl: `${ORIGIN}/index.html` };
const SETTLE_MS = 2_000;
/** A refusal is one line for a person and a log: bounded whatever the input's size. */
const MAX_MESSAGE = 400;

interface Recorded {
  readonly name: RequestName;
  readonly input: unknown;
}

function recordingDispatcher(): { dispatch: Dispatch; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const handlers = Object.fromEntries(requestNames.map((name) => [name, (input: unknown) => (calls.push({ name, input }), ok(null))])) as unknown as Handlers;
  return { dispatch: createDispatcher(handlers, { allowedOrigins: [ORIGIN] }), calls };
}

/** The dispatcher's answer, or a failure of the test when it throws or does not settle. */
async function settle(pending: () => Promise<Result<unknown>>): Promise<Result<unknown>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the dispatcher did not settle within ${SETTLE_MS} ms`)), SETTLE_MS);
  });
  try {
    return await Promise.race([pending(), hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every object in a value handed to a handler has an ordinary prototype (no polluted one). */
function prototypesAreOrdinary(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true;
  seen.add(value);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return false;
  return Object.values(value).every((member) => prototypesAreOrdinary(member, seen));
}

async function checkRequest(name: RequestName, input: unknown): Promise<void> {
  const { dispatch, calls } = recordingDispatcher();
  const result = await settle(() => dispatch(name, input, caller));
  if (result.ok) {
    expect(calls).toHaveLength(1);
    expect(calls[0]?.name).toBe(name);
    const received = calls[0]?.input;
    const again = requests[name].input.safeParse(received);
    expect(again.success, `${name}: the handler received a value its schema refuses`).toBe(true);
    expect(again.data).toEqual(received);
    expect(prototypesAreOrdinary(received), `${name}: the handler received an object with a foreign prototype`).toBe(true);
    return;
  }
  expect(calls, `${name}: a refused request reached a handler`).toHaveLength(0);
  expect(result.code).toBe('INVALID_INPUT');
  expect(result.message.startsWith(name), `the refusal names the request: ${result.message}`).toBe(true);
  const field = result.details?.field;
  expect(typeof field).toBe('string');
  expect(String(field).startsWith(name)).toBe(true);
  expect(result.message.startsWith(`${String(field)}:`), `the refusal names the field first: ${result.message}`).toBe(true);
  expect(result.message.length).toBeLessThan(MAX_MESSAGE);
}

describe('every bridge request, with hostile input, through the real dispatcher', () => {
  it('accepts each request’s valid input and calls only its handler (the fixtures are valid)', async () => {
    for (const name of requestNames) {
      const { dispatch, calls } = recordingDispatcher();
      const result = await dispatch(name, validInputs[name], caller);
      expect(result, name).toEqual({ ok: true, value: null });
      expect(calls.map((call) => call.name)).toEqual([name]);
    }
  });

  it('a huge member name (unrecognised, or a record key) gives a short refusal', async () => {
    const huge = 'k'.repeat(100_000);
    for (const [name, input] of [
      ['placeOrder', { ...validInputs.placeOrder, [huge]: 1 }],
      ['updateSettings', { maxOrderQuantity: { [huge]: 1n } }],
    ] as const) {
      const { dispatch } = recordingDispatcher();
      const result = await settle(() => dispatch(name, input, caller));
      expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
      expect(!result.ok && result.message.length).toBeLessThan(MAX_MESSAGE);
    }
  });

  for (const name of requestNames) {
    it(`${name}: never throws or hangs; a handler call with a valid value, or INVALID_INPUT naming the field`, async () => {
      await checkProperty(
        fc.asyncProperty(fc.oneof({ arbitrary: mutationOf(validInputs[name]), weight: 3 }, { arbitrary: hostileValue, weight: 1 }), (input) => checkRequest(name, input)),
        { numRuns: 150 },
      );
    });
  }
});

describe('channels and senders', () => {
  /** Channel values a transport could hand over, including ones that break String(). */
  const channel = fc.oneof(
    hostileValue,
    oddPrimitive,
    pollutedObject,
    fc.string({ maxLength: 40 }),
    fc.constantFrom<unknown>('signRawDigest', 'constructor', '__proto__', 'hasOwnProperty', 'placeOrder ', 'PLACEORDER', { toString: 1 }, { toString: 'placeOrder' }, { valueOf: null, toString: null }, Object.create(null), ['placeOrder'], withOwnKey({}, 'toString', { $bigint: '1' })),
  );

  it('an unknown channel is UNKNOWN_CHANNEL with a bounded message, whatever its type; no handler runs', async () => {
    await checkProperty(
      fc.asyncProperty(channel, hostileValue, async (name, input) => {
        fc.pre(!isRequestName(name));
        const { dispatch, calls } = recordingDispatcher();
        const result = await settle(() => dispatch(name, input, caller));
        expect(result).toMatchObject({ ok: false, code: 'UNKNOWN_CHANNEL' });
        expect(!result.ok && result.message).toMatch(/^request refused: .* is not an operation of the terminal$/s);
        expect(!result.ok && result.message.length).toBeLessThan(MAX_MESSAGE);
        expect(calls).toHaveLength(0);
      }),
      { numRuns: 400 },
    );
  });

  it('a channel that makes String() throw ({"toString": 1}) is refused, not thrown', async () => {
    const { dispatch } = recordingDispatcher();
    for (const name of [{ toString: 1 }, Object.create(null) as unknown, { valueOf: null, toString: null }]) {
      expect(await settle(() => dispatch(name, {}, caller))).toMatchObject({ ok: false, code: 'UNKNOWN_CHANNEL' });
    }
  });

  it('a sender that is not a page of the app is FORBIDDEN_SENDER before anything else; no handler runs', async () => {
    const frameUrl = fc.oneof(
      fc.constant(null),
      fc.string({ maxLength: 60 }),
      fc.webUrl(),
      fc.constantFrom('app://terminal.evil/', 'app://evil/terminal', 'file:///tmp/index.html', 'http://127.0.0.1:5173/', 'app:terminal', 'APP://TERMINAL/', 'javascript:alert(1)', 'app://terminal@evil.example/'),
    );
    await checkProperty(
      fc.asyncProperty(frameUrl, fc.constantFrom(...requestNames), async (url, name) => {
        const { dispatch, calls } = recordingDispatcher();
        const result = await settle(() => dispatch(name, validInputs[name], { windowId: 'w1', frameUrl: url }));
        if (originOf(url) === ORIGIN) {
          expect(result.ok).toBe(true);
          return;
        }
        expect(result).toMatchObject({ ok: false, code: 'FORBIDDEN_SENDER' });
        expect(calls).toHaveLength(0);
      }),
      { numRuns: 400 },
    );
  });
});
