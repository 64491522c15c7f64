// Signing an order batch end to end: encode the session-actions message of a 5-action batch with
// shared/protocol (SettleBalance + 4 CreateOrder), hash it (SHA-256), sign the digest with the
// session key, build the JSON body and serialise it, once per iteration with a fresh nonce.
// Ours signs the way main does (main/platform/native-secp256k1.ts: libsecp256k1 where its binary
// loads, shared/crypto's @noble/curves otherwise, which is also timed, in the notes); the peers do
// the identical encode/hash/body/JSON work and sign the same digest with elliptic (the reported
// peer) and with @noble/secp256k1 (in the notes). All produce byte-identical signatures (RFC 6979),
// which is checked before timing.
// `npx tsx bench/signing.bench.ts` prints one JSON line; `run()` returns the same object.
import { pathToFileURL } from 'node:url';
import elliptic from 'elliptic';
import * as nobleSecp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { chooseDigestSigner } from '../main/platform/native-secp256k1';
import { addressOf, publicKeyOf, signDigest } from '../shared/crypto/index';
import { b256, type B256 } from '../shared/encoding/b256';
import { bytesToHex } from '../shared/encoding/hex';
import { contractIdentity } from '../shared/encoding/identity';
import type { Market } from '../shared/market/market';
import type { SessionAction } from '../shared/protocol/actions';
import { sequentialNonce } from '../shared/protocol/nonce-choice';
import { prepareSessionActions, sessionActionsBody, type PreparedSessionActions } from '../shared/protocol/session-actions';
import { median } from './judge';
import type { BenchResult } from './result';
import { interleave, ROUNDS, sized } from './rounds';

nobleSecp.hashes.hmacSha256 = (key, message) => hmac(sha256, key, message);
nobleSecp.hashes.sha256 = sha256;

const ITERATIONS = sized(2_000, 200);
const WARM_UP = sized(500, 50);

const id = (byte: string): B256 => b256(`0x${byte.repeat(32)}`);
const market: Market = {
  contract_id: id('c1'),
  market_id: id('a1'),
  base: { symbol: 'ETH', asset: id('ba'), decimals: 9, max_precision: 3 },
  quote: { symbol: 'USDC', asset: id('9c'), decimals: 9, max_precision: 2 },
  maker_fee: 100n,
  taker_fee: 250n,
  min_order: 1_000_000_000n,
  dust: 1_000n,
  price_window: 20,
};
const tradeAccount = id('77');
// A fixed key: the benchmark must replay identically (never use it for anything else).
const sessionKey = Uint8Array.from({ length: 32 }, (_, index) => (index * 7 + 1) & 0xff);
const sessionAddress = addressOf(publicKeyOf(sessionKey), 'ledger');

const actions: SessionAction[] = [
  { kind: 'SettleBalance', to: contractIdentity(tradeAccount) },
  { kind: 'CreateOrder', side: 'Buy', price: 3_000_000_000_000n, quantity: 500_000_000n, order_type: { kind: 'Spot' } },
  { kind: 'CreateOrder', side: 'Sell', price: 3_100_000_000_000n, quantity: 250_000_000n, order_type: { kind: 'PostOnly' } },
  { kind: 'CreateOrder', side: 'Buy', price: 2_990_000_000_000n, quantity: 1_000_000_000n, order_type: { kind: 'Limit', price: 2_990_000_000_000n, timestamp: 1_700_000_000n } },
  { kind: 'CreateOrder', side: 'Sell', price: 3_050_000_000_000n, quantity: 100_000_000n, order_type: { kind: 'BoundedMarket', max_price: 3_200_000_000_000n, min_price: 3_000_000_000_000n } },
];

function prepare(nonce: bigint): PreparedSessionActions {
  const prepared = prepareSessionActions({
    trade_account_id: tradeAccount,
    session_id: { Address: sessionAddress },
    nonce: sequentialNonce(nonce),
    groups: [{ market_id: market.market_id, market, actions }],
    collect_orders: true,
  });
  if (!prepared.ok) throw new Error(prepared.message);
  return prepared.value;
}

type Signer = (digest: Uint8Array) => Uint8Array;

const chosen = chooseDigestSigner();
const ours: Signer = (digest) => chosen.sign(digest, sessionKey);
const viaSharedCrypto: Signer = (digest) => signDigest(digest, sessionKey);

const ec = new elliptic.ec('secp256k1');
const ellipticKey = ec.keyFromPrivate(bytesToHex(sessionKey), 'hex');
const viaElliptic: Signer = (digest) => {
  const signature = ellipticKey.sign(digest, { canonical: true });
  const out = new Uint8Array(64);
  out.set(signature.r.toArrayLike(Buffer, 'be', 32), 0);
  out.set(signature.s.toArrayLike(Buffer, 'be', 32), 32);
  out[32] = ((signature.recoveryParam ?? 0) << 7) | (out[32]! & 0x7f);
  return out;
};

const viaNoble: Signer = (digest) => {
  const recovered = nobleSecp.sign(digest, sessionKey, { prehash: false, lowS: true, format: 'recovered' });
  const out = recovered.slice(1);
  out[32] = (recovered[0]! << 7) | (out[32]! & 0x7f);
  return out;
};

/** One end-to-end batch: encode + hash (prepare), sign, body, JSON. Returns the JSON text. */
function batch(sign: Signer, nonce: bigint): string {
  const prepared = prepare(nonce);
  return JSON.stringify(sessionActionsBody(prepared, sign(prepared.digest)));
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

/** Latencies of ITERATIONS batches, sorted (ms). */
function sample(sign: Signer, firstNonce: number): number[] {
  const samples: number[] = [];
  for (let index = 0; index < ITERATIONS; index++) {
    const started = process.hrtime.bigint();
    batch(sign, BigInt(firstNonce + index));
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples.sort((a, b) => a - b);
}

interface Times {
  readonly p50: number;
  readonly p99: number;
}

/**
 * Interleaved rounds (bench/rounds.ts) of every signer, the order rotating round by round, after a
 * warm-up of each; each round gives each signer's p50 and p99 over ITERATIONS batches.
 */
function measure(signers: Record<'ours' | 'elliptic' | 'noble' | 'shared', Signer>): Record<'ours' | 'elliptic' | 'noble' | 'shared', Times[]> {
  for (const sign of Object.values(signers)) for (let index = 0; index < WARM_UP; index++) batch(sign, BigInt(index));
  const timed = (sign: Signer) => (round: number): Times => {
    const samples = sample(sign, round * ITERATIONS);
    return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
  };
  return interleave(ROUNDS, { ours: timed(signers.ours), elliptic: timed(signers.elliptic), noble: timed(signers.noble), shared: timed(signers.shared) });
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export function run(): Promise<BenchResult> {
  // Same digest, same key: the three signers must agree byte for byte (RFC 6979, low s).
  for (let nonce = 0n; nonce < 20n; nonce++) {
    const reference = batch(ours, nonce);
    if (batch(viaElliptic, nonce) !== reference || batch(viaNoble, nonce) !== reference || batch(viaSharedCrypto, nonce) !== reference) throw new Error(`signing bench: the signers disagree at nonce ${nonce}`);
  }
  const measured = measure({ ours, elliptic: viaElliptic, noble: viaNoble, shared: viaSharedCrypto });
  const middle = (rounds: readonly Times[], key: keyof Times) => round3(median(rounds.map((times) => times[key])));
  return Promise.resolve({
    name: `sign a 5-action batch end to end (encode, SHA-256, sign, JSON body), p99 of ${ITERATIONS} per round (main's signer, ${chosen.implementation}, vs elliptic)`,
    unit: 'ms p99',
    better: 'lower',
    target: '< 1 ms',
    rounds: measured.ours.map((times, index) => ({ ours: round3(times.p99), peer: round3(measured.elliptic[index]!.p99) })),
    notes: `medians over the rounds: p50 ours ${middle(measured.ours, 'p50')} ms, elliptic ${middle(measured.elliptic, 'p50')} ms; shared/crypto (@noble/curves, the fallback) p50 ${middle(measured.shared, 'p50')} / p99 ${middle(measured.shared, 'p99')} ms; @noble/secp256k1 p50 ${middle(measured.noble, 'p50')} / p99 ${middle(measured.noble, 'p99')} ms`,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await run())}\n`);
}
