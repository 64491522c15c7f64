// Build time only: the mainnet a build pins, from the reviewed file build/networks.release.json
// or from build variables, turned into electron-vite's `define` for main's bundle (read by
// main/services/network/pinned-mainnet.ts). Parsed with main's own rules (pinned-endpoints.ts):
// a bad value fails the build, naming the field, the value and where it came from.
//
// Build variables (all three, or none):
//   LT_MAINNET_REST_URL  https://…
//   LT_MAINNET_WS_URL    wss://…/v1/ws
//   LT_MAINNET_CHAIN_ID  decimal
//   LT_TEST_BUILD=1      a test build: a fake mainnet on loopback, http/ws allowed, named "(test build)"
//   LT_NETWORKS_FILE     another reviewed file instead of build/networks.release.json
// A mainnet pinned both in the file and by variables fails the build: one place says where it is.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parsePinnedMainnet, pinnedEndpointsJson, type PinnedEndpoints } from '../main/services/network/pinned-endpoints';

/** The reviewed file, relative to the project's root (the config is bundled elsewhere before it runs). */
export const RELEASE_NETWORKS_FILE = 'build/networks.release.json';

/** The name main reads; replaced in main's bundle only (never the preload's or the renderer's). */
export const PINNED_MAINNET_DEFINE = '__LT_PINNED_MAINNET__';

const VARIABLES = { restUrl: 'LT_MAINNET_REST_URL', wsUrl: 'LT_MAINNET_WS_URL', chainId: 'LT_MAINNET_CHAIN_ID' } as const;

type BuildEnv = Readonly<Record<string, string | undefined>>;

function buildError(message: string): Error {
  return new Error(`mainnet pin: ${message}`);
}

function fromFile(path: string, test: boolean): PinnedEndpoints | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw buildError(`${path}: cannot be read as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw buildError(`${path}: expected an object with "mainnet", got ${JSON.stringify(parsed)}`);
  const record = parsed as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => key !== 'about' && key !== 'mainnet');
  if (unknown !== undefined) throw buildError(`${path}: ${unknown} ${JSON.stringify(record[unknown])} is not a field of the file (about, mainnet)`);
  if (!('mainnet' in record)) throw buildError(`${path}: mainnet is missing (null when this build pins none)`);
  const mainnet = record.mainnet;
  const value = mainnet !== null && typeof mainnet === 'object' && !Array.isArray(mainnet) && test ? { ...mainnet, test: true } : mainnet;
  const result = parsePinnedMainnet(value, `${path} mainnet`);
  if (!result.ok) throw buildError(result.message);
  return result.value;
}

function fromVariables(env: BuildEnv, test: boolean): PinnedEndpoints | null {
  const given = Object.entries(VARIABLES).filter(([, name]) => (env[name] ?? '') !== '');
  if (given.length === 0) return null;
  const missing = Object.values(VARIABLES).find((name) => (env[name] ?? '') === '');
  if (missing !== undefined) throw buildError(`${missing} is missing: pin mainnet with all of ${Object.values(VARIABLES).join(', ')}, or none`);
  const result = parsePinnedMainnet({ restUrl: env[VARIABLES.restUrl], wsUrl: env[VARIABLES.wsUrl], chainId: env[VARIABLES.chainId], test }, 'build variables LT_MAINNET_*');
  if (!result.ok) throw buildError(result.message.replace(/\b(restUrl|wsUrl|chainId)\b/, (field) => VARIABLES[field as keyof typeof VARIABLES]));
  return result.value;
}

/** The mainnet this build pins, or null; throws (failing the build) on anything it must not pin. */
export function pinnedMainnetForBuild(env: BuildEnv, root: string): PinnedEndpoints | null {
  const testFlag = env.LT_TEST_BUILD ?? '';
  if (testFlag !== '' && testFlag !== '1') throw buildError(`LT_TEST_BUILD ${JSON.stringify(testFlag)} is not 1 (or unset)`);
  const test = testFlag === '1';
  const file = resolve(root, (env.LT_NETWORKS_FILE ?? '') === '' ? RELEASE_NETWORKS_FILE : env.LT_NETWORKS_FILE!);
  const pinnedByFile = fromFile(file, test);
  const pinnedByVariables = fromVariables(env, test);
  if (pinnedByFile !== null && pinnedByVariables !== null) throw buildError(`mainnet is pinned both in ${file} and by LT_MAINNET_*: pin it in one place`);
  return pinnedByFile ?? pinnedByVariables;
}

/** electron-vite's `define` for main: the pinned mainnet as a JSON literal, or null. */
export function pinnedNetworksDefine(env: BuildEnv, root: string): Record<string, string> {
  const pinned = pinnedMainnetForBuild(env, root);
  return { [PINNED_MAINNET_DEFINE]: JSON.stringify(pinned === null ? null : pinnedEndpointsJson(pinned)) };
}
