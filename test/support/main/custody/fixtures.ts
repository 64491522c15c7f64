// Shared test data of the custody unit tests: an owner key, a withdraw request and a session
// request built as the online terminal builds them, and the markets of a small network.
import { addressOf } from '../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../shared/crypto/keys';
import { b256, type B256 } from '../../../../shared/encoding/b256';
import { buildSessionRequest, buildWithdrawRequest, OFFLINE_NONCE_TTL_SECONDS } from '../../../../shared/offline/build-request';
import { packParallelNonce } from '../../../../shared/nonce/parallel-packing';
import { parallelNonce, sequentialNonce } from '../../../../shared/protocol/nonce-choice';
import type { OfflineRequest } from '../../../../shared/offline/request-format';
import { marketsResponseSchema } from '../../../../shared/api/market-schemas';
import { MarketsIndex } from '../../../../main/services/market-data/markets-index';

export const NOW = 1_700_000_000n;
export const OWNER_KEY = Uint8Array.from({ length: 32 }, (_, index) => index + 1);
export const OWNER = addressOf(publicKeyOf(OWNER_KEY), 'ledger');
export const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, index) => 200 - index);
export const OTHER = addressOf(publicKeyOf(OTHER_KEY), 'ledger');
export const TRADE_ACCOUNT = b256(`0x${'77'.repeat(32)}`);
export const USDC = b256(`0x${'9c'.repeat(32)}`);
export const ETH = b256(`0x${'e7'.repeat(32)}`);
export const DESTINATION = b256(`0x${'4e'.repeat(32)}`);
export const MARKET = b256(`0x${'a1'.repeat(32)}`);
export const BOOK = b256(`0x${'b1'.repeat(32)}`);
export const REGISTRY = b256(`0x${'5e'.repeat(32)}`);

let counter = 0;
export const testRandom = (length: number) => Uint8Array.from({ length }, () => ++counter % 256);

export function withdrawRequest(options: { nowSeconds?: bigint; amount?: bigint; sequential?: bigint; owner?: B256 } = {}): OfflineRequest {
  const now = options.nowSeconds ?? NOW;
  const nonce =
    options.sequential !== undefined
      ? sequentialNonce(options.sequential)
      : parallelNonce(unwrap(packParallelNonce({ lane: 4, expiry: now + OFFLINE_NONCE_TTL_SECONDS, word_position: 0n, bit_position: 3 })));
  const built = buildWithdrawRequest({
    network: 'devnet',
    chain_id: 9n,
    owner: { address: options.owner ?? OWNER, style: 'ledger' },
    trade_account_id: TRADE_ACCOUNT,
    nowSeconds: now,
    random: testRandom,
    nonce,
    to: { Address: DESTINATION },
    amount: options.amount ?? 12_500_000n,
    asset: { id: USDC, symbol: 'USDC', decimals: 6 },
  });
  return unwrap(built).request;
}

export function sessionRequest(sessionAddress: B256, options: { nowSeconds?: bigint; nonce?: bigint } = {}): OfflineRequest {
  const now = options.nowSeconds ?? NOW;
  return unwrap(
    buildSessionRequest({
      network: 'devnet',
      chain_id: 9n,
      owner: { address: OWNER, style: 'ledger' },
      trade_account_id: TRADE_ACCOUNT,
      nowSeconds: now,
      random: testRandom,
      nonce: options.nonce ?? 5n,
      session_address: sessionAddress,
      expiry: now + 48n * 3600n,
      contract_ids: [BOOK, REGISTRY],
    }),
  ).request;
}

export function unwrap<T>(result: { ok: true; value: T } | { ok: false; code: string; message: string }): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

const asset = (symbol: string, id: string, decimals: number) => ({ symbol, asset: id, decimals, max_precision: decimals });

/** `book`: the market's contract, to stand for the markets changing under a pending request. */
export function marketsIndex(book: B256 = BOOK): MarketsIndex {
  const response = marketsResponseSchema.parse({
    books_registry_id: `0x${'11'.repeat(32)}`,
    accounts_registry_id: REGISTRY,
    trade_account_oracle_id: `0x${'22'.repeat(32)}`,
    chain_id: '0x9',
    base_asset_id: ETH,
    markets: [
      {
        contract_id: book,
        market_id: MARKET,
        maker_fee: '100',
        taker_fee: '200',
        min_order: '1000',
        dust: '10',
        price_window: 0,
        base: asset('ETH', ETH, 9),
        quote: asset('USDC', USDC, 6),
      },
    ],
  });
  return new MarketsIndex(response);
}
