// A packaged build quits at start when its command line would open a debugger; a development run
// keeps every switch. The decision is pure (main/index.ts calls it with process.argv).
import { describe, expect, it } from 'vitest';
import { debugSwitchDecision, nodeDebugDecision, switchName } from '../../../../main/platform/debug-switches';

const EXE = '/opt/Ledger Terminal/ledger-terminal';

describe('debugging switches', () => {
  it('a packaged build refuses every form of the debugging switches', () => {
    for (const argument of [
      '--remote-debugging-port=9222',
      '--remote-debugging-port',
      '-remote-debugging-port=9222',
      '--REMOTE-DEBUGGING-PORT=9222',
      '--remote-debugging-pipe',
      '--remote-debugging-address=0.0.0.0',
      '--remote-allow-origins=*',
      '--inspect',
      '--inspect=0.0.0.0:9229',
      '--inspect-brk',
      '--inspect-brk=9229',
      '--inspect-port=9229',
      '--inspect-wait',
      '--debug',
      '--debug-brk',
      '--js-flags=--allow-natives-syntax',
    ]) {
      const decision = debugSwitchDecision([EXE, argument], true, 'linux');
      expect(decision, argument).toEqual({ refuse: true, found: [argument] });
    }
    expect(debugSwitchDecision([EXE, '/remote-debugging-port=9222'], true, 'win32').refuse).toBe(true);
    // Anywhere on the line, after `--` too.
    expect(debugSwitchDecision([EXE, '--offline', '--', '--inspect'], true, 'linux')).toEqual({ refuse: true, found: ['--inspect'] });
  });

  it('a packaged build refuses the Chromium switches that weaken its isolation or run another program in its place', () => {
    for (const argument of [
      '--renderer-cmd-prefix=/tmp/evil',
      '--gpu-launcher=/tmp/evil',
      '--utility-cmd-prefix=/tmp/evil',
      '--browser-subprocess-path=/tmp/evil',
      '--no-sandbox',
      '--disable-gpu-sandbox',
      '--disable-setuid-sandbox',
      '--no-zygote',
      '--single-process',
      '--disable-web-security',
      '--disable-site-isolation-trials',
      '--disable-features=IsolateOrigins,site-per-process',
      '--allow-running-insecure-content',
      '--ignore-certificate-errors',
      '--remote-allow-origins=*',
      '--js-flags=--expose-gc',
    ]) {
      const decision = debugSwitchDecision([EXE, argument], true, 'linux');
      expect(decision, argument).toEqual({ refuse: true, found: [argument] });
    }
  });

  it('a packaged build starts with its own switches and plain arguments', () => {
    for (const argv of [[EXE], [EXE, '--offline'], [EXE, '--no-sandbox-control', 'file.txt'], [EXE, '--inspector-theme'], [EXE, '/remote-debugging-port=9222'], [EXE, 'inspect']]) {
      expect(debugSwitchDecision(argv, true, 'linux'), argv.join(' ')).toEqual({ refuse: false, found: [] });
    }
  });

  it('the executable itself is not an argument, and a development run refuses nothing', () => {
    expect(debugSwitchDecision(['--inspect'], true, 'linux').refuse).toBe(false);
    expect(debugSwitchDecision([EXE, '--remote-debugging-port=9222', '--inspect'], false, 'linux')).toEqual({ refuse: false, found: ['--remote-debugging-port=9222', '--inspect'] });
  });

  it('reads switch names as Chromium does', () => {
    expect(switchName('--inspect=1', 'linux')).toBe('inspect');
    expect(switchName('-Inspect', 'linux')).toBe('inspect');
    expect(switchName('/inspect', 'linux')).toBeNull();
    expect(switchName('/inspect', 'win32')).toBe('inspect');
    expect(switchName('file', 'linux')).toBeNull();
  });
});

// The browser host (Node, holding the keys) refuses to start with a debugger in reach: an
// --inspect* or --debug* flag on its command line or in NODE_OPTIONS, or an inspector already open.
describe("the browser host's debugger decision", () => {
  const quiet = { execArgv: ['--import', 'tsx'], nodeOptions: undefined, inspectorUrl: undefined };

  it('refuses every inspector flag of Node, on the command line or in NODE_OPTIONS', () => {
    for (const flag of ['--inspect', '--inspect=0', '--inspect=127.0.0.1:9229', '--inspect-brk', '--inspect-brk=0', '--inspect-port=0', '--inspect-port', '--inspect-wait', '--inspect-publish-uid=http', '--debug', '--debug-brk', '--debug-port=5858']) {
      expect(nodeDebugDecision({ ...quiet, execArgv: ['--import', 'tsx', flag] }), flag).toEqual({ refuse: true, found: [flag] });
      expect(nodeDebugDecision({ ...quiet, nodeOptions: `--max-old-space-size=4096 ${flag}` }), flag).toEqual({ refuse: true, found: [`NODE_OPTIONS: ${flag}`] });
      expect(nodeDebugDecision({ ...quiet, nodeOptions: `"${flag}"` }).refuse, `quoted ${flag}`).toBe(true);
    }
  });

  it('refuses an inspector that is already open (SIGUSR1 before the host could stop it, inspector.open())', () => {
    expect(nodeDebugDecision({ ...quiet, inspectorUrl: 'ws://127.0.0.1:9229/abc' })).toEqual({ refuse: true, found: ['an open inspector at ws://127.0.0.1:9229/abc'] });
  });

  it('starts with its own flags and harmless NODE_OPTIONS', () => {
    expect(nodeDebugDecision(quiet)).toEqual({ refuse: false, found: [] });
    expect(nodeDebugDecision({ ...quiet, nodeOptions: '--max-old-space-size=4096 --enable-source-maps' })).toEqual({ refuse: false, found: [] });
    expect(nodeDebugDecision({ ...quiet, execArgv: ['--import', 'tsx', '--no-warnings'], nodeOptions: '' })).toEqual({ refuse: false, found: [] });
  });
});
