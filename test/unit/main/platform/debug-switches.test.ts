// A packaged build quits at start when its command line would open a debugger; a development run
// keeps every switch. The decision is pure (main/index.ts calls it with process.argv).
import { describe, expect, it } from 'vitest';
import { debugSwitchDecision, switchName } from '../../../../main/platform/debug-switches';

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
