// Mutated signed bodies against the sandbox's request parser, property-based: a valid signed
// session-actions, withdraw or session body with one member changed, removed, duplicated (the
// key twice in the JSON text, or an array element twice) or given another type. Each is refused
// with a 4xx {code, message} naming the field (or the signature, when a signed value changed), the
// nonce is not consumed, the whole ledger is exactly as before (never a partial change), and its
// invariant holds. The only mutations that may be accepted are the ones that leave a valid request
// (an unsigned optional member changed or left out): then the request applies as a whole.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server';
import { signDigest } from '../../../shared/crypto/index';
import type { B256 } from '../../../shared/encoding/b256';
import type { Market } from '../../../shared/market/market';
import type { NonceChoice } from '../../../shared/protocol/nonce-choice';
import { ownerDigest, withdrawBody, withdrawMessage } from '../../../shared/protocol/owner-messages';
import { HOUR, newWallet, order, SandboxClient, secondsFromNow, Trader } from '../../support/sandbox/client';
import { checkProperty } from '../../support/property';

let sandbox: RunningSandbox;
let client: SandboxClient;
let market: Market;
let trader: Trader;
let chainId: bigint;

beforeAll(async () => {
  // No market maker: nothing but the request under test may change the ledger.
  sandbox = await startSandbox({ port: 0, makerProfile: 'thin-legacy', maker: false, rateLimits: false, control: true });
  client = new SandboxClient(sandbox.url);
  const markets = await client.markets();
  market = markets.markets[0] as Market;
  chainId = markets.chainId;
  trader = await Trader.create(client);
  const opened = await trader.openSession([market.contract_id], secondsFromNow(2n * HOUR));
  expect(opened.status).toBe(200);
});

afterAll(async () => {
  await sandbox.close();
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = readonly (string | number)[];
type Kind = 'session-actions' | 'withdraw' | 'session';

interface Mutation {
  readonly kind: 'change' | 'remove' | 'duplicate' | 'retype';
  readonly path: Path;
  /** JSON text of the mutated body (a duplicated key cannot be expressed as an object). */
  readonly text: string;
  readonly replacement?: Json;
}

// ---- building valid bodies ------------------------------------------------------------------

async function validBody(kind: Kind): Promise<{ path: string; body: Json }> {
  const nonce = await trader.readNonce();
  if (kind === 'session-actions') {
    const tick = 10n ** BigInt(Math.max(0, market.quote.decimals - market.quote.max_precision));
    const price = 1_000n * tick;
    const step = 10n ** BigInt(Math.max(0, market.base.decimals - market.base.max_precision));
    const quantity = ((market.min_order * 2n * 10n ** BigInt(market.base.decimals)) / price / step + 1n) * step;
    return { path: '/v1/session/actions', body: trader.actionsBody(market, [trader.settle(), order('Buy', price, quantity)], { nonce: { kind: 'sequential', value: nonce } }) as Json };
  }
  if (kind === 'withdraw') {
    const envelope = { nonce: { kind: 'sequential', value: nonce } as NonceChoice, chain_id: chainId };
    const args = { to: { Address: `0x${'4e'.repeat(32)}` as B256 }, amount: 1_000n, asset_id: market.quote.asset };
    const signature = signDigest(ownerDigest(withdrawMessage(envelope, args), trader.owner.style), trader.owner.privateKey);
    return { path: '/v1/accounts/withdraw', body: withdrawBody(trader.accountId, envelope, args, signature) as unknown as Json };
  }
  return { path: '/v1/session', body: trader.sessionRequestBody([market.contract_id], secondsFromNow(2n * HOUR), newWallet('ledger'), nonce) as Json };
}

// ---- mutations ------------------------------------------------------------------------------

function pathsOf(value: Json, prefix: Path = []): Path[] {
  const paths: Path[] = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...prefix, index])));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

function at(value: Json, path: Path): Json {
  let current: Json = value;
  for (const key of path) current = (current as Record<string | number, Json>)[key] as Json;
  return current;
}

/** Serialise like JSON.stringify, with `extra` emitted as a second `key` member of the object at `parent`. */
function serialise(value: Json, duplicate?: { parent: Path; key: string; extra: Json; first: boolean }, here: Path = []): string {
  if (Array.isArray(value)) return `[${value.map((item, index) => serialise(item, duplicate, [...here, index])).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${serialise(item, duplicate, [...here, key])}`);
  if (duplicate !== undefined && duplicate.parent.length === here.length && duplicate.parent.every((key, index) => key === here[index])) {
    const index = Object.keys(value).indexOf(duplicate.key);
    const extra = `${JSON.stringify(duplicate.key)}:${JSON.stringify(duplicate.extra)}`;
    members.splice(duplicate.first ? index : index + 1, 0, extra);
  }
  return `{${members.join(',')}}`;
}

function replaced(body: Json, path: Path, replacement: Json | undefined): Json {
  if (path.length === 0) return replacement as Json;
  const [key, ...rest] = path;
  if (Array.isArray(body)) {
    const copy = [...body];
    if (rest.length === 0 && replacement === undefined) copy.splice(key as number, 1);
    else copy[key as number] = replaced(copy[key as number] as Json, rest, replacement);
    return copy;
  }
  const copy = { ...(body as Record<string, Json>) };
  if (rest.length === 0 && replacement === undefined) delete copy[key as string];
  else copy[key as string] = replaced(copy[key as string] as Json, rest, replacement);
  return copy;
}

/** Another value of the same type, that means something else. */
function changedValue(value: Json): Json {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return (BigInt(value) + 1n).toString();
    if (/^0x[0-9a-f]+$/i.test(value)) return `${value.slice(0, -1)}${value.endsWith('0') ? '1' : '0'}`;
    const swaps: Record<string, string> = { Buy: 'Sell', Sell: 'Buy', Spot: 'PostOnly', PostOnly: 'Spot' };
    return swaps[value] ?? `${value}x`;
  }
  return value === null ? 0 : value;
}

const otherTypes = (value: Json): Json[] =>
  [0, 1.5, -1, true, null, '', 'text', [], {}, [value], { value }].filter((candidate) => typeof candidate !== typeof value || Array.isArray(candidate) !== Array.isArray(value) || (candidate === null) !== (value === null)) as Json[];

/** Which mutation to make, independent of the body's values (each run signs a fresh body). */
interface MutationChoice {
  readonly kind: Mutation['kind'];
  readonly pick: number;
  readonly variant: number;
  readonly first: boolean;
  readonly same: boolean;
}

const choice: fc.Arbitrary<MutationChoice> = fc.record({
  kind: fc.constantFrom('change' as const, 'remove' as const, 'retype' as const, 'duplicate' as const),
  pick: fc.nat(),
  variant: fc.nat(),
  first: fc.boolean(),
  same: fc.boolean(),
});

function mutate(body: Json, { kind, pick, variant, first, same }: MutationChoice): Mutation {
  const paths = pathsOf(body);
  const from = <T>(list: readonly T[]): T => list[pick % list.length] as T;
  if (kind === 'change') {
    const path = from(paths.filter((candidate) => {
      const value = at(body, candidate);
      return value === null || typeof value !== 'object';
    }));
    const replacement = changedValue(at(body, path));
    return { kind, path, replacement, text: JSON.stringify(replaced(body, path, replacement)) };
  }
  if (kind === 'remove') {
    const path = from(paths);
    return { kind, path, text: JSON.stringify(replaced(body, path, undefined)) };
  }
  if (kind === 'retype') {
    const path = from(paths);
    const types = otherTypes(at(body, path));
    const replacement = types[variant % types.length] as Json;
    return { kind, path, replacement, text: JSON.stringify(replaced(body, path, replacement)) };
  }
  // Duplicate: a member's key twice in the text (odd variant), or an array element twice (even).
  const arrays = paths.filter((path) => typeof path[path.length - 1] === 'number');
  if (variant % 2 === 0 && arrays.length > 0) {
    const path = from(arrays);
    const parent = path.slice(0, -1);
    const list = at(body, parent) as Json[];
    const index = path[path.length - 1] as number;
    return { kind, path, text: JSON.stringify(replaced(body, parent, [...list.slice(0, index + 1), list[index] as Json, ...list.slice(index + 1)])) };
  }
  const path = from(paths.filter((candidate) => typeof candidate[candidate.length - 1] === 'string'));
  const original = at(body, path);
  const extra = same ? original : changedValue(original);
  return { kind, path, replacement: extra, text: serialise(body, { parent: path.slice(0, -1), key: path[path.length - 1] as string, extra, first }) };
}

/** A mutation that leaves a valid request: the request may then be accepted, as a whole. */
function leavesValidRequest(kind: Kind, mutation: Mutation, original: Json): boolean {
  const top = mutation.path.length === 1 ? mutation.path[0] : null;
  if (kind === 'session-actions') {
    // Unsigned and optional (spec 4.2): whether the answer lists the orders, and the session id.
    if (top === 'collect_orders' && (mutation.kind === 'change' || mutation.kind === 'remove')) return true;
    if (top === 'session_id' && mutation.kind === 'remove') return true;
    // Spec 2.4: an order without `order_type` is Spot, so leaving out "Spot" signs the same call.
    const last = mutation.path.slice(-2).join('.');
    if (last === 'CreateOrder.order_type' && mutation.kind === 'remove' && at(original, mutation.path) === 'Spot') return true;
  }
  // The session expiry is a decimal string; a JSON number of the same value is tolerated.
  if (kind === 'session' && top === 'expiry' && mutation.kind === 'retype' && typeof mutation.replacement === 'number' && String(mutation.replacement) === at(original, ['expiry'])) return true;
  return false;
}

/**
 * The names a refusal may give for a mutation: the member or one of its parents; the signature,
 * when the body still parses but signs something else (a value changed, an element added or left
 * out); for the account acted on, the spec's own 4002 text or the owner header that does not own it.
 */
function namesTheField(message: string, mutation: Mutation): boolean {
  const text = message.toLowerCase();
  const { path } = mutation;
  const names = path.filter((key): key is string => typeof key === 'string').map((key) => key.toLowerCase());
  if (names.some((name) => text.includes(name))) return true;
  const top = path[0];
  if ((top === 'trade_account_id' || top === 'contract_id') && (message === 'Account not found' || message.includes('Svc-Owner-Id'))) return true;
  const signedContentChanged = mutation.kind === 'change' || typeof path[path.length - 1] === 'number';
  return signedContentChanged && text.startsWith('signature: does not recover');
}

// ---- the property ---------------------------------------------------------------------------

interface Ledger {
  readonly accounts: { trade_account_id: string; nonce: string }[];
  readonly invariant_problems: string[];
}

async function ledger(): Promise<{ text: string; value: Ledger }> {
  const response = await fetch(`${sandbox.url}/control/ledger`);
  const text = await response.text();
  return { text, value: JSON.parse(text) as Ledger };
}

const nonceOf = (state: Ledger) => state.accounts.find((account) => account.trade_account_id === trader.accountId)?.nonce;

async function send(path: string, text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}${path}`, { method: path === '/v1/session' ? 'PUT' : 'POST', headers: { 'content-type': 'application/json', ...trader.headers }, body: text });
  return { status: response.status, body: JSON.parse(await response.text()) as Record<string, unknown> };
}

describe('mutated signed bodies', () => {
  it('a body naming a member twice is refused whichever copy a parser would keep', async () => {
    const { path, body } = await validBody('session-actions');
    const nonce = (body as Record<string, Json>).nonce as string;
    const before = await ledger();
    for (const text of [serialise(body, { parent: [], key: 'nonce', extra: '999', first: true }), serialise(body, { parent: [], key: 'nonce', extra: nonce, first: false })]) {
      const answer = await send(path, text);
      expect(answer).toMatchObject({ status: 400, body: { code: 1000, message: expect.stringContaining('body.nonce') as string } });
    }
    expect((await ledger()).text).toBe(before.text);
  });

  for (const kind of ['session-actions', 'withdraw', 'session'] as const) {
    it(`${kind}: every mutation is refused (4xx naming the field, nonce kept, ledger unchanged) or, if it leaves a valid request, applied whole`, async () => {
      // The unmutated body is accepted: the refusals below are about the mutation, not the setup.
      const control = await validBody(kind);
      expect((await send(control.path, JSON.stringify(control.body))).status).toBe(200);
      let refused = 0;
      await checkProperty(
        fc.asyncProperty(choice, async (picked) => {
          // A fresh signature over the current nonce, then one mutation.
          const { path, body } = await validBody(kind);
          const mutation = mutate(body, picked);
          const before = await ledger();
          const answer = await send(path, mutation.text);
          const after = await ledger();
          expect(after.value.invariant_problems).toEqual([]);
          const where = `${mutation.kind} ${mutation.path.join('.')}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
          if (answer.status === 200) {
            expect(leavesValidRequest(kind, mutation, body), `accepted: ${where}`).toBe(true);
            expect(BigInt(nonceOf(after.value) ?? '0'), where).toBe(BigInt(nonceOf(before.value) ?? '0') + 1n);
            return;
          }
          refused++;
          expect(answer.status, where).toBeGreaterThanOrEqual(400);
          expect(answer.status, where).toBeLessThan(500);
          expect(typeof answer.body.code, where).toBe('number');
          expect(typeof answer.body.message, where).toBe('string');
          expect(namesTheField(String(answer.body.message), mutation), `the refusal does not name the field: ${where}`).toBe(true);
          expect(after.text, `the ledger changed: ${where}`).toBe(before.text);
        }),
        { numRuns: 300 },
      );
      expect(refused).toBeGreaterThan(200);
    });
  }
});
