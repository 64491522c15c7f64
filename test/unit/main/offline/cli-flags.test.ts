import { describe, expect, it } from 'vitest';
import { parseCommandLine, usageText, USAGE_ERROR } from '../../../../main/offline/cli-flags';
import { COMMANDS } from '../../../../main/offline/commands';

const parse = (...argv: string[]) => parseCommandLine(argv, COMMANDS);

describe('offline signer flags', () => {
  it('parses both spellings, booleans and positionals', () => {
    const parsed = parse('sign', '--keystore', 'k.json', '--request=r.json', '--yes');
    expect(parsed).toMatchObject({ ok: true, value: { command: 'sign', positionals: [] } });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(Object.fromEntries(parsed.value.strings)).toEqual({ keystore: 'k.json', request: 'r.json' });
    expect([...parsed.value.booleans]).toEqual(['yes']);
    expect(parse('qr-decode', '--out', 'x.json', 'LTQR1/1/2/abc/AA', 'LTQR1/2/2/abc/AA')).toMatchObject({ ok: true, value: { positionals: ['LTQR1/1/2/abc/AA', 'LTQR1/2/2/abc/AA'] } });
  });

  it('refuses, naming the flag and the value', () => {
    const cases: [string[], string][] = [
      [['sign', '--keystore', 'k', '--request', 'r', '--colour', 'red'], 'sign: unknown flag --colour'],
      [['sign', '--keystore', 'k', '--request', 'r', '--colour=red'], 'sign: unknown flag --colour (with value "red")'],
      [['create-keystore', '--out', 'k', '--style', 'btc'], '--style: expected ledger or evm, got "btc"'],
      [['create-keystore', '--out', 'k', '--style=EVM'], '--style: expected ledger or evm, got "EVM"'],
      [['sign', '--keystore', 'k', '--request'], '--request: needs a value (FILE)'],
      [['sign', '--keystore', '--request', 'r'], '--keystore: needs a value (FILE)'],
      [['sign', '--keystore', 'k', '--request', 'r', '--yes=no'], '--yes: takes no value, got "no"'],
      [['sign', '--keystore', 'k', '--keystore', 'j', '--request', 'r'], '--keystore: given twice'],
      [['sign', '--keystore', 'k'], 'sign: missing --request FILE'],
      [['show', '--request', 'r', 'extra'], 'show: unexpected argument "extra"'],
      [['show', '--request', 'r', '-v'], 'show: unknown flag "-v" (flags are spelled --name)'],
      [['qr-decode', '--out', 'x'], 'qr-decode: expected at least 1 parts, got 0'],
      [['frobnicate'], 'unknown command "frobnicate"; expected one of create-keystore, import-keystore, address, show, sign, qr-encode, qr-decode, help'],
      [['show', '--request='], '--request: expected FILE, got ""'],
    ];
    for (const [argv, message] of cases) expect(parse(...argv)).toEqual({ ok: false, code: USAGE_ERROR, message });
  });

  it('never takes a secret from argv, and says where it goes instead', () => {
    expect(parse('sign', '--passphrase', 'hunter2')).toMatchObject({ ok: false, message: expect.stringMatching(/^--passphrase: secrets are never taken from the command line .*--passphrase-file FILE/) as unknown });
    expect(parse('import-keystore', '--private-key=0x01')).toMatchObject({ ok: false, message: expect.stringContaining('reads the private key from stdin') as unknown });
  });

  it('usage text lists every command and flag', () => {
    const text = usageText('offline-signer', COMMANDS);
    for (const needle of ['sign --keystore FILE --request FILE [--out FILE] [--qr-dir DIR] [--qr-terminal] [--yes]', 'create-keystore --out FILE --style ledger|evm', 'qr-decode --out FILE PARTS...']) {
      expect(text).toContain(needle);
    }
  });
});
