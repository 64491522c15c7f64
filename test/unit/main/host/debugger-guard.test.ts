// The browser host's guard against a debugger, over a fake process: the SIGUSR1 listener goes in
// before anything is decided, a refusal names what it found, and the watchdog stops the process
// when an inspector opens later.
import { describe, expect, it } from 'vitest';
import { guardAgainstDebugger, WATCHDOG_MS, type GuardedProcess } from '../../../../main/host/debugger-guard';

function fakeProcess(execArgv: string[] = ['--import', 'tsx'], url?: string) {
  const events: string[] = [];
  let inspectorUrl = url;
  let watchdog: (() => void) | null = null;
  const target: GuardedProcess = {
    execArgv,
    nodeOptions: undefined,
    inspectorUrl: () => {
      events.push('read inspector');
      return inspectorUrl;
    },
    onDebugSignal: () => events.push('listener'),
    every: (milliseconds, check) => {
      events.push(`watchdog ${milliseconds}`);
      watchdog = check;
    },
    log: (line) => events.push(`log ${line}`),
    abort: (reason) => events.push(`abort ${reason}`),
  };
  return { target, events, open: (value: string) => (inspectorUrl = value), tick: () => watchdog?.() };
}

describe('the debugger guard of the browser host', () => {
  it('listens for SIGUSR1 before it reads anything, and starts a watchdog when all is quiet', () => {
    const fake = fakeProcess();
    expect(guardAgainstDebugger(fake.target)).toEqual({ refuse: false, found: [] });
    expect(fake.events).toEqual(['listener', 'read inspector', `watchdog ${WATCHDOG_MS}`]);
  });

  it('says once that SIGUSR1 is ignored, however many come (the confirmations are printed on the same terminal)', () => {
    const fake = fakeProcess();
    let signal: () => void = () => undefined;
    guardAgainstDebugger({ ...fake.target, onDebugSignal: (listener) => (signal = listener) });
    for (let count = 0; count < 50; count++) signal();
    expect(fake.events.filter((event) => event.startsWith('log'))).toEqual(['log SIGUSR1 ignored: the terminal host does not open a debugger (further ones are ignored silently)']);
  });

  it('refuses an inspector flag or an open inspector', () => {
    expect(guardAgainstDebugger(fakeProcess(['--inspect-brk=0']).target)).toEqual({ refuse: true, found: ['--inspect-brk=0'] });
    expect(guardAgainstDebugger(fakeProcess([], 'ws://127.0.0.1:9229/x').target).refuse).toBe(true);
  });

  it('stops the process when an inspector opens after the start', () => {
    const fake = fakeProcess();
    guardAgainstDebugger(fake.target);
    fake.tick();
    expect(fake.events.some((event) => event.startsWith('abort'))).toBe(false);
    fake.open('ws://127.0.0.1:9229/late');
    fake.tick();
    expect(fake.events.at(-1)).toMatch(/^abort an inspector opened at ws:\/\/127\.0\.0\.1:9229\/late/);
  });
});
