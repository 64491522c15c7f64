// Keys, ids and request builders shared by the offline-format tests.
import { addressOf } from '../../../../shared/crypto/address';
import { publicKeyOf, type RandomBytes } from '../../../../shared/crypto/keys';
import { b256, type B256 } from '../../../../shared/encoding/b256';
import { packParallelNonce } from '../../../../shared/nonce/parallel-packing';
import { parallelNonce, sequentialNonce, type NonceChoice } from '../../../../shared/protocol/nonce-choice';
import { buildOwnerCallRequest, buildSessionRequest, buildWithdrawRequest, OFFLINE_NONCE_TTL_SECONDS, type OwnerCallRequestInput, type WithdrawRequestInput } from '../../../../shared/offline/build-request';
import { makeCall } from '../../../../shared/protocol/call';
import { canonicalJson } from '../../../../shared/offline/canonical-json';
import { requestToJson, type OfflineRequest } from '../../../../shared/offline/request-format';
import type { VerifiedRequest } from '../../../../shared/offline/verify-request';
import { ids } from '../protocol/fixtures';

export { ids };

export const NOW = 1_700_000_000n;

export const ledgerKey = Uint8Array.from({ length: 32 }, (_, index) => index + 1);
export const evmKey = Uint8Array.from({ length: 32 }, (_, index) => 0x40 + index);
export const otherKey = Uint8Array.from({ length: 32 }, (_, index) => 0x80 - index);

export const ledgerOwner = { address: addressOf(publicKeyOf(ledgerKey), 'ledger'), style: 'ledger' as const };
export const evmOwner = { address: addressOf(publicKeyOf(evmKey), 'evm'), style: 'evm' as const };

export const sessionAddress = b256(`0x${'5a'.repeat(32)}`);

/** Deterministic "randomness": a counter, so request ids differ but runs repeat. */
export function counterRandom(start = 1): RandomBytes {
  let counter = start;
  return (length) => {
    counter++;
    return Uint8Array.from({ length }, (_, index) => (counter * 31 + index) & 0xff);
  };
}

export function unwrap<T>(result: { ok: true; value: T } | { ok: false; code: string; message: string }): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

export function parallel(expiry: bigint, lane = 1, word = 17n, bit = 3): NonceChoice {
  return parallelNonce(unwrap(packParallelNonce({ lane, expiry, word_position: word, bit_position: bit })));
}

export function withdrawInput(overrides: Partial<WithdrawRequestInput> = {}): WithdrawRequestInput {
  return {
    network: 'testnet',
    chain_id: 0n,
    owner: ledgerOwner,
    trade_account_id: ids.tradeAccount,
    nowSeconds: NOW,
    random: counterRandom(),
    nonce: sequentialNonce(3n),
    to: { Address: ids.referer },
    amount: 12_500_000n,
    asset: { id: ids.quoteAsset, symbol: 'USDC', decimals: 6 },
    ...overrides,
  };
}

export function withdrawRequest(overrides: Partial<WithdrawRequestInput> = {}): VerifiedRequest {
  return unwrap(buildWithdrawRequest(withdrawInput(overrides)));
}

export function parallelWithdrawRequest(): VerifiedRequest {
  return withdrawRequest({ nonce: parallel(NOW + OFFLINE_NONCE_TTL_SECONDS) });
}

export function sessionRequest(contractIds: readonly B256[] = [ids.book, ids.registry]): VerifiedRequest {
  return unwrap(
    buildSessionRequest({
      network: 'testnet',
      chain_id: 0n,
      owner: ledgerOwner,
      trade_account_id: ids.tradeAccount,
      nowSeconds: NOW,
      random: counterRandom(9),
      nonce: 7n,
      session_address: sessionAddress,
      expiry: NOW + 30n * 86_400n,
      contract_ids: contractIds,
    }),
  );
}

/** The request as a JSON value someone could edit (what a tamperer has in hand). */
export function editable(request: OfflineRequest): Record<string, unknown> {
  return JSON.parse(canonicalJson(requestToJson(request))) as Record<string, unknown>;
}

/** The owner-call of a settle on one book: one `settle_balance` call with arguments, as main's table builds it. */
export function ownerCallInput(overrides: Partial<OwnerCallRequestInput> = {}): OwnerCallRequestInput {
  return {
    network: 'testnet',
    chain_id: 0n,
    owner: ledgerOwner,
    trade_account_id: ids.tradeAccount,
    nowSeconds: NOW,
    random: counterRandom(21),
    nonce: parallel(NOW + OFFLINE_NONCE_TTL_SECONDS),
    method: 'settleBalance',
    parameters: [{ name: 'marketId', value: ids.market }],
    endpoint: 'actions',
    implementation: null,
    calls: [makeCall(ids.book, 'settle_balance', Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 1, ...Buffer.from(ids.tradeAccount.slice(2), 'hex')]))],
    ...overrides,
  };
}

export function ownerCallRequest(overrides: Partial<OwnerCallRequestInput> = {}): VerifiedRequest {
  return unwrap(buildOwnerCallRequest(ownerCallInput(overrides)));
}
