// Hand-built (Buffer) expected bytes of every signed message, shared by the tests and by the
// worked examples in docs/protocol.md. Nothing here uses shared/encoding.
import { ascii, bytes32, u256, u64 } from '../crypto/independent';
import { callBytes, identity, ids, selector } from './fixtures';

export const sessionKey = Buffer.from('c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721', 'hex');
/** SHA-256 of the session key's 64-byte public key (crypto tests pin it). */
export const sessionAddress = '0x3027f9ce34c64560b7dccac4042ee7d3b476d522db5a8b1883c6e25fd6195a07';
export const ownerKey = Buffer.from('0000000000000000000000000000000000000000000000000000000000000001', 'hex');

/** Spec 5.6, row by row: nonce 7, chain 0, set_session, Some, Address, session address, expiry, 2 ids. */
export const sessionMessage = Buffer.concat([
  u64(7),
  u64(0),
  u64(11),
  ascii('set_session'),
  u64(1),
  u64(0),
  bytes32(sessionAddress),
  u64(1_700_003_600),
  u64(2),
  bytes32(ids.book),
  bytes32(ids.registry),
]);

const settle = callBytes(ids.book, 'settle_balance', 0n, ids.zero, identity('ContractId', ids.tradeAccount));
const buy = callBytes(ids.book, 'create_order', 1_000_000_000_000n, ids.quoteAsset, Buffer.concat([u64(2_000_000_000_000n), u64(500_000_000n), u64(1)]));

/** Sequential: u64 nonce 7 ‖ u64 2 ‖ SettleBalance ‖ CreateOrder(Buy, 2000, 0.5, Spot). */
export const sessionActionsSequential = Buffer.concat([u64(7), u64(2), settle, buy]);

export const parallelNonceValue = (1n << 168n) | (1_700_000_120n << 136n) | (4n << 8n) | 5n;
/** Parallel: u256 packed nonce (lane 1, expiry 1700000120, word 4, bit 5) ‖ u64 2 ‖ same calls. */
export const sessionActionsParallel = Buffer.concat([u256(parallelNonceValue), u64(2), settle, buy]);

/** Withdraw: u64 nonce 3 ‖ u64 chain 0 ‖ "withdraw" ‖ Identity Address ‖ u64 amount ‖ asset. */
export const withdrawSequential = Buffer.concat([u64(3), u64(0), selector('withdraw'), identity('Address', ids.referer), u64(250_000_000n), bytes32(ids.quoteAsset)]);
export const withdrawParallel = Buffer.concat([u256(parallelNonceValue), u64(0), selector('withdraw'), identity('Address', ids.referer), u64(250_000_000n), bytes32(ids.quoteAsset)]);

/** Upgrade: u64 nonce 3 ‖ u64 chain 9 ‖ "set_proxy_target_with_signature", no arguments. */
export const upgradeSequential = Buffer.concat([u64(3), u64(9), selector('set_proxy_target_with_signature')]);

/** Owner calls: u64 nonce 3 ‖ u64 chain 0 ‖ "call_contracts" ‖ u64 1 ‖ SettleBalance call. */
export const callsSequential = Buffer.concat([u64(3), u64(0), selector('call_contracts'), u64(1), settle]);
export const callsParallel = Buffer.concat([u256(parallelNonceValue), u64(0), selector('call_contracts'), u64(1), settle]);
