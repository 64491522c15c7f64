import { describe, expect, it, vi } from 'vitest';
import { createDispatcher, type Handlers } from '../../../../main/ipc/dispatcher';
import { ok } from '../../../../shared/result';
import type { ConnectionStatus } from '../../../../shared/ipc/views';
import { requestNames } from '../../../../shared/ipc/contract';

const appOrigin = 'app://terminal';
const caller = { windowId: 'w1', frameUrl: 'app://terminal/index.html' };

const status: ConnectionStatus = {
  networkId: 'sandbox',
  networkName: 'Sandbox',
  rest: 'up',
  stream: 'up',
  latencyMs: 3,
  sandbox: null,
  detail: null,
};

function makeHandlers() {
  const all = Object.fromEntries(requestNames.map((name) => [name, vi.fn(() => ok(null))]));
  return {
    ...all,
    getAppInfo: vi.fn(() => ok({ version: '1', host: 'electron' as const, offline: false })),
    getConnection: vi.fn(() => ok(status)),
    listMarkets: vi.fn(() => ok({ networkId: 'sandbox', chainId: 1n, markets: [] })),
  } as unknown as Handlers & Record<string, ReturnType<typeof vi.fn>>;
}

describe('request dispatcher', () => {
  it('runs the handler with the parsed input for a valid request from the app', async () => {
    const handlers = makeHandlers();
    const dispatch = createDispatcher(handlers, { allowedOrigins: [appOrigin] });
    const result = await dispatch('listMarkets', {}, caller);
    expect(result).toEqual({ ok: true, value: { networkId: 'sandbox', chainId: 1n, markets: [] } });
    expect(handlers.listMarkets).toHaveBeenCalledWith({}, caller);
  });

  it('refuses a request of the wrong shape, naming the field, without calling the handler', async () => {
    const handlers = makeHandlers();
    const dispatch = createDispatcher(handlers, { allowedOrigins: [appOrigin] });
    const result = await dispatch('listMarkets', { injected: 'value' }, caller);
    expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(!result.ok && result.message).toMatch(/listMarkets/);
    expect(handlers.listMarkets).not.toHaveBeenCalled();
    expect(await dispatch('listMarkets', 'not an object', caller)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(await dispatch('listMarkets', null, caller)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('refuses an unknown channel, including names inherited from Object.prototype', async () => {
    const handlers = makeHandlers();
    const dispatch = createDispatcher(handlers, { allowedOrigins: [appOrigin] });
    for (const channel of ['signRawDigest', 'constructor', '__proto__', 'toString', 42, null, undefined]) {
      expect(await dispatch(channel, {}, caller)).toMatchObject({ ok: false, code: 'UNKNOWN_CHANNEL' });
    }
    for (const handler of Object.values(handlers)) expect(handler).not.toHaveBeenCalled();
  });

  it('refuses a foreign sender frame before looking at the request', async () => {
    const handlers = makeHandlers();
    const dispatch = createDispatcher(handlers, { allowedOrigins: [appOrigin] });
    for (const frameUrl of ['https://evil.example/', 'file:///tmp/x.html', 'app://terminal.evil/', 'not a url', null]) {
      const result = await dispatch('listMarkets', {}, { windowId: 'w1', frameUrl });
      expect(result).toMatchObject({ ok: false, code: 'FORBIDDEN_SENDER' });
    }
    expect(handlers.listMarkets).not.toHaveBeenCalled();
  });

  it('turns a handler bug into data and reports it', async () => {
    const handlers = { ...makeHandlers(), getAppInfo: vi.fn(() => { throw new Error('boom'); }) } as Handlers;
    const onBug = vi.fn();
    const dispatch = createDispatcher(handlers, { allowedOrigins: [appOrigin], onBug });
    expect(await dispatch('getAppInfo', {}, caller)).toMatchObject({ ok: false, code: 'INTERNAL_ERROR' });
    expect(onBug).toHaveBeenCalledOnce();
  });
});
