// The strict reading of mainnet's pinned endpoints. The same function runs twice: at build time,
// where a release's reviewed file or build variables are turned into the value compiled into main
// (build/pinned-networks.ts; a refusal fails the build), and at main's start over that compiled
// value (a refusal there is a bug: the build let through what it must not).
//
// A release pins https and wss on a host that is not this machine's loopback. Only a build
// explicitly marked as a test build may pin plaintext, and then only on loopback: a fake mainnet
// for a sandbox beside the app, never a real host over plaintext.
import { fail, ok, type Result } from '../../../shared/result';
import { isLoopbackHost } from './networks';

export interface PinnedEndpoints {
  readonly restUrl: string;
  readonly wsUrl: string;
  readonly chainId: bigint;
  /** A test build's fake mainnet (loopback only): named so on screen, never a release. */
  readonly test: boolean;
}

/** The JSON form compiled into main (the chain id as decimal text: JSON has no bigint). */
export interface PinnedEndpointsJson {
  readonly restUrl: string;
  readonly wsUrl: string;
  readonly chainId: string;
  readonly test: boolean;
}

export const PIN_CODE = 'MAINNET_PIN_INVALID';

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const FIELDS = ['restUrl', 'wsUrl', 'chainId', 'test'] as const;

function refuse(source: string, field: string, value: unknown, why: string): Result<never> {
  return fail(PIN_CODE, `${source}: ${field} ${JSON.stringify(value)} ${why}`, { field });
}

function checkUrl(source: string, field: string, value: unknown, secure: 'https:' | 'wss:', test: boolean): Result<string> {
  if (typeof value !== 'string' || value.length === 0) return refuse(source, field, value ?? null, 'is missing: a pinned mainnet names its REST and WebSocket URLs and its chain id');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse(source, field, value, 'is not a URL');
  }
  const plain = secure === 'https:' ? 'http:' : 'ws:';
  if (url.username !== '' || url.password !== '') return refuse(source, field, value, 'carries credentials; a pinned URL names only the host, port and path');
  if (url.search !== '' || url.hash !== '') return refuse(source, field, value, 'carries a query or fragment; a pinned URL names only the host, port and path');
  const loopback = isLoopbackHost(url.hostname);
  if (test) {
    if (!loopback) return refuse(source, field, value, "is not on this machine's loopback (127.0.0.1, ::1, localhost): a test build pins a fake mainnet beside the app, never a real host");
    if (url.protocol !== secure && url.protocol !== plain) return refuse(source, field, value, `must use ${secure.slice(0, -1)} or, in a test build on loopback, ${plain.slice(0, -1)}`);
  } else {
    if (url.protocol !== secure) return refuse(source, field, value, `must use ${secure.slice(0, -1)}: plaintext is allowed only in a build marked as a test build, on loopback`);
    if (loopback) return refuse(source, field, value, "names this machine's loopback: only a build marked as a test build may pin a fake mainnet there");
  }
  return ok(value.replace(/\/+$/, ''));
}

/**
 * `value` is null (no mainnet in this build) or an object with exactly restUrl, wsUrl, chainId
 * (decimal text or a bigint) and optionally test. `source` names where it came from in messages.
 */
export function parsePinnedMainnet(value: unknown, source: string): Result<PinnedEndpoints | null> {
  if (value === null || value === undefined) return ok(null);
  if (typeof value !== 'object' || Array.isArray(value)) return refuse(source, 'mainnet', value, 'is not an object with restUrl, wsUrl and chainId, nor null');
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) return refuse(source, unknown, record[unknown], `is not a field of a pinned mainnet (${FIELDS.join(', ')})`);
  const testValue = record.test ?? false;
  if (typeof testValue !== 'boolean') return refuse(source, 'test', testValue, 'is not true or false');
  const restUrl = checkUrl(source, 'restUrl', record.restUrl, 'https:', testValue);
  if (!restUrl.ok) return restUrl;
  const wsUrl = checkUrl(source, 'wsUrl', record.wsUrl, 'wss:', testValue);
  if (!wsUrl.ok) return wsUrl;
  const chainText = typeof record.chainId === 'bigint' ? record.chainId.toString() : record.chainId;
  if (chainText === undefined || chainText === null || chainText === '') return refuse(source, 'chainId', chainText ?? null, 'is missing: a pinned mainnet names the chain id it must answer (signatures name it)');
  if (typeof chainText !== 'string' || !/^[1-9]\d{0,19}$/.test(chainText) || BigInt(chainText) > U64_MAX) {
    return refuse(source, 'chainId', chainText, 'is not a positive whole number that fits a u64 (decimal digits)');
  }
  return ok({ restUrl: restUrl.value, wsUrl: wsUrl.value, chainId: BigInt(chainText), test: testValue });
}

export function pinnedEndpointsJson(pinned: PinnedEndpoints): PinnedEndpointsJson {
  return { restUrl: pinned.restUrl, wsUrl: pinned.wsUrl, chainId: pinned.chainId.toString(), test: pinned.test };
}
