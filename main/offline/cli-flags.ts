// Strict flag parsing for the offline signer: every flag is declared per command, with its type
// and allowed values; anything else is a usage error (exit 2) naming the flag and the value.
// Secrets have no flag at all: argv is visible to every process on the machine (ps, /proc) and
// lands in shell history, so a passphrase or key given there is refused with where to put it.
import { fail, ok, type Result } from '../../shared/result';

export const USAGE_ERROR = 'USAGE';

export type FlagSpec = { readonly kind: 'boolean' } | { readonly kind: 'string'; readonly required?: boolean; readonly values?: readonly string[]; readonly placeholder?: string };

export interface CommandSpec {
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** How many bare arguments the command takes. */
  readonly positionals: { readonly minimum: number; readonly maximum: number; readonly name: string };
  readonly summary: string;
}

export interface ParsedCommand {
  readonly command: string;
  readonly strings: ReadonlyMap<string, string>;
  readonly booleans: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

const SECRET_FLAGS: Readonly<Record<string, string>> = {
  passphrase: 'use the terminal prompt, --passphrase-file FILE or the LT_KEYSTORE_PASSPHRASE environment variable',
  password: 'use the terminal prompt, --passphrase-file FILE or the LT_KEYSTORE_PASSPHRASE environment variable',
  key: 'import-keystore reads the private key from stdin (or a hidden prompt)',
  'private-key': 'import-keystore reads the private key from stdin (or a hidden prompt)',
};

function usage(message: string): Result<never> {
  return fail(USAGE_ERROR, message);
}

export function parseCommandLine(argv: readonly string[], commands: Readonly<Record<string, CommandSpec>>): Result<ParsedCommand> {
  const [command, ...rest] = argv;
  if (command === undefined) return usage('missing command');
  const spec = commands[command];
  if (!spec) return usage(`unknown command ${JSON.stringify(command)}; expected one of ${Object.keys(commands).join(', ')}`);
  const strings = new Map<string, string>();
  const booleans = new Set<string>();
  const positionals: string[] = [];
  let onlyPositionals = false;
  for (let index = 0; index < rest.length; index++) {
    const argument = rest[index]!;
    if (onlyPositionals || !argument.startsWith('--')) {
      if (!onlyPositionals && argument.startsWith('-') && argument !== '-') return usage(`${command}: unknown flag ${JSON.stringify(argument)} (flags are spelled --name)`);
      positionals.push(argument);
      continue;
    }
    if (argument === '--') {
      onlyPositionals = true;
      continue;
    }
    const equals = argument.indexOf('=');
    const name = argument.slice(2, equals < 0 ? undefined : equals);
    const inline = equals < 0 ? undefined : argument.slice(equals + 1);
    const secret = SECRET_FLAGS[name];
    if (secret !== undefined) return usage(`--${name}: secrets are never taken from the command line (other processes can read it, and shell history keeps it); ${secret}`);
    const flag = spec.flags[name];
    if (!flag) return usage(`${command}: unknown flag --${name}${inline === undefined ? '' : ` (with value ${JSON.stringify(inline)})`}`);
    if (strings.has(name) || booleans.has(name)) return usage(`--${name}: given twice`);
    if (flag.kind === 'boolean') {
      if (inline !== undefined) return usage(`--${name}: takes no value, got ${JSON.stringify(inline)}`);
      booleans.add(name);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = rest[index + 1];
      if (next === undefined || next.startsWith('--')) return usage(`--${name}: needs a value (${flag.placeholder ?? 'VALUE'})`);
      value = next;
      index++;
    }
    if (value === '') return usage(`--${name}: expected ${flag.placeholder ?? 'a value'}, got ""`);
    if (flag.values && !flag.values.includes(value)) return usage(`--${name}: expected ${flag.values.join(' or ')}, got ${JSON.stringify(value)}`);
    strings.set(name, value);
  }
  for (const [name, flag] of Object.entries(spec.flags)) {
    if (flag.kind === 'string' && flag.required && !strings.has(name)) return usage(`${command}: missing --${name} ${flag.placeholder ?? 'VALUE'}`);
  }
  const { minimum, maximum, name } = spec.positionals;
  if (positionals.length < minimum) return usage(`${command}: expected at least ${minimum} ${name}, got ${positionals.length}`);
  if (positionals.length > maximum) {
    return usage(maximum === 0 ? `${command}: unexpected argument ${JSON.stringify(positionals[0])}` : `${command}: at most ${maximum} ${name}, got ${positionals.length}`);
  }
  return ok({ command, strings, booleans, positionals });
}

/** Usage text generated from the specs, so help and parser cannot disagree. */
export function usageText(program: string, commands: Readonly<Record<string, CommandSpec>>): string {
  const lines = [`usage: ${program} COMMAND [FLAGS]`, ''];
  for (const [name, spec] of Object.entries(commands)) {
    const flags = Object.entries(spec.flags).map(([flag, flagSpec]) => {
      const text = flagSpec.kind === 'boolean' ? `--${flag}` : `--${flag} ${flagSpec.values ? flagSpec.values.join('|') : (flagSpec.placeholder ?? 'VALUE')}`;
      return flagSpec.kind === 'string' && flagSpec.required ? text : `[${text}]`;
    });
    const positional = spec.positionals.maximum > 0 ? [`${spec.positionals.name.toUpperCase()}...`] : [];
    lines.push(`  ${[name, ...flags, ...positional].join(' ')}`, `      ${spec.summary}`);
  }
  return lines.join('\n');
}
