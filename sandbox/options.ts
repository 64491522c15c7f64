// Options of one sandbox instance and the strict parser of its command-line flags.
// A bad flag is a usage error (exit 2) with a message naming the flag and the value, so a
// script that starts the sandbox learns at once what it got wrong.
import { fail, ok, type Result } from '../shared/result';
import { MAKER_PROFILES, type MakerProfileName } from './house/depth-profile';
import { MAKER_REGIMES, type MakerRegimeName } from './house/regimes';

export interface SandboxOptions {
  /** TCP port on 127.0.0.1; 0 picks a free port (the default). */
  readonly port: number;
  /** The network's chain id, served as a hex string by GET /v1/markets. */
  readonly chainId: bigint;
  /** Seed of every deterministic id and of the market maker's random walk. */
  readonly seed: number;
  /** Whether the house market maker runs. */
  readonly maker: boolean;
  /** Taker trades per second per market printed by the house (soak tests raise it). */
  readonly makerRate: number;
  /** How deep the house maker quotes (house/depth-profile.ts): realistic unless a test pins another. */
  readonly makerProfile: MakerProfileName;
  /** How the house maker's mid moves (house/regimes.ts). */
  readonly makerRegime: MakerRegimeName;
  /** Whether the /control/... test surface is served. */
  readonly control: boolean;
  /** WebSocket idle time before `Client is inactive` and close, in ms (spec: 60 s). */
  readonly wsIdleMs: number;
  /** Whether rate limits are enforced (tests of other features may switch them off). */
  readonly rateLimits: boolean;
}

export const DEFAULT_OPTIONS: SandboxOptions = {
  port: 0,
  chainId: 9889n,
  seed: 1,
  maker: true,
  makerRate: 2,
  makerProfile: 'realistic',
  makerRegime: 'normal',
  control: false,
  wsIdleMs: 60_000,
  rateLimits: true,
};

export const USAGE = `usage: npm run sandbox -- [--port N] [--chain-id N] [--seed N] [--maker on|off] [--maker-rate N] [--maker-profile ${MAKER_PROFILES.join('|')}] [--maker-regime ${MAKER_REGIMES.join('|')}] [--control] [--ws-idle-ms N] [--rate-limits on|off]`;

type Setter = (options: Mutable<SandboxOptions>, value: string) => string | undefined;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function integerIn(min: number, max: number, assign: (o: Mutable<SandboxOptions>, n: number) => void): Setter {
  return (options, value) => {
    if (!/^\d+$/.test(value)) return `expected an integer in [${min}, ${max}]`;
    const n = Number(value);
    if (n < min || n > max) return `expected an integer in [${min}, ${max}]`;
    assign(options, n);
    return undefined;
  };
}

function onOff(assign: (o: Mutable<SandboxOptions>, on: boolean) => void): Setter {
  return (options, value) => {
    if (value !== 'on' && value !== 'off') return 'expected on or off';
    assign(options, value === 'on');
    return undefined;
  };
}

function oneOf<T extends string>(names: readonly T[], assign: (o: Mutable<SandboxOptions>, name: T) => void): Setter {
  return (options, value) => {
    const name = names.find((candidate) => candidate === value);
    if (name === undefined) return `expected one of ${names.join(', ')}`;
    assign(options, name);
    return undefined;
  };
}

const VALUED: Readonly<Record<string, Setter>> = {
  '--port': integerIn(0, 65535, (o, n) => (o.port = n)),
  '--chain-id': (options, value) => {
    // u64, decimal or 0x-hex; zero is a valid chain id per spec 2.3.
    if (!/^(\d+|0x[0-9a-fA-F]+)$/.test(value)) return 'expected a decimal or 0x-hex u64';
    const id = BigInt(value);
    if (id >= 1n << 64n) return 'expected a decimal or 0x-hex u64';
    options.chainId = id;
    return undefined;
  },
  '--seed': integerIn(0, 2 ** 32 - 1, (o, n) => (o.seed = n)),
  '--maker': onOff((o, on) => (o.maker = on)),
  '--maker-rate': integerIn(0, 1000, (o, n) => (o.makerRate = n)),
  '--maker-profile': oneOf(MAKER_PROFILES, (o, name) => (o.makerProfile = name)),
  '--maker-regime': oneOf(MAKER_REGIMES, (o, name) => (o.makerRegime = name)),
  '--ws-idle-ms': integerIn(100, 3_600_000, (o, n) => (o.wsIdleMs = n)),
  '--rate-limits': onOff((o, on) => (o.rateLimits = on)),
};

const SWITCHES: Readonly<Record<string, (o: Mutable<SandboxOptions>) => void>> = {
  '--control': (o) => (o.control = true),
};

/** Parse argv (without node and the script). Accepts `--flag value` and `--flag=value`. */
export function parseFlags(argv: readonly string[]): Result<SandboxOptions> {
  const options: Mutable<SandboxOptions> = { ...DEFAULT_OPTIONS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const toggle = SWITCHES[flag];
    if (toggle) {
      if (inline !== undefined) return fail('INVALID_FLAG', `${flag}: takes no value, got ${JSON.stringify(inline)}`);
      toggle(options);
      continue;
    }
    const setter = VALUED[flag];
    if (!setter) return fail('INVALID_FLAG', `unknown flag ${JSON.stringify(arg)}`);
    let value = inline;
    if (value === undefined) {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined) return fail('INVALID_FLAG', `${flag}: missing value`);
    const problem = setter(options, value);
    if (problem) return fail('INVALID_FLAG', `${flag}: ${problem}, got ${JSON.stringify(value)}`);
  }
  return ok(options);
}
