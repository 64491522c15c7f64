import { describe, expect, it } from 'vitest';
import { evmAddress } from '../../../../shared/crypto/address';
import { publicKeyOf } from '../../../../shared/crypto/keys';
import { signDigest, verifySignature } from '../../../../shared/crypto/signature';
import { actionToCall } from '../../../../shared/protocol/action-calls';
import { parallelNonce, sequentialNonce } from '../../../../shared/protocol/nonce-choice';
import {
  ownerActionCalls,
  ownerActionsBody,
  ownerCallsBody,
  ownerCallsMessage,
  ownerDigest,
  upgradeBody,
  upgradeMessage,
  withdrawBody,
  withdrawMessage,
} from '../../../../shared/protocol/owner-messages';
import { ascii, hex, nodeSha256, vendoredKeccak256 } from '../../../support/shared/crypto/independent';
import { ids, market, targets } from '../../../support/shared/protocol/fixtures';
import * as vectors from '../../../support/shared/protocol/messages.vectors';

const withdraw = { to: { Address: ids.referer }, amount: 250_000_000n, asset_id: ids.quoteAsset };
const settleCall = (() => {
  const call = actionToCall({ kind: 'SettleBalance', to: { ContractId: ids.tradeAccount } }, market, targets);
  if (!call.ok) throw new Error(call.message);
  return call.value;
})();

const personal = (text: string, message: Buffer): Buffer => Buffer.concat([Buffer.from([0x19]), ascii(text), Buffer.from([0x0a]), ascii(String(message.length)), message]);

describe('owner messages', () => {
  it('known answer: withdraw, sequential', () => {
    const message = withdrawMessage({ nonce: sequentialNonce(3n), chain_id: 0n }, withdraw);
    expect(hex(message)).toBe(
      `000000000000000300000000000000000000000000000008776974686472617700000000000000004e${'4e'.repeat(31)}000000000ee6b280${'9c'.repeat(32)}`,
    );
    expect(hex(message)).toBe(hex(vectors.withdrawSequential));
  });

  it('known answer: withdraw, parallel (u256 nonce in place of the u64)', () => {
    expect(hex(withdrawMessage({ nonce: parallelNonce(vectors.parallelNonceValue), chain_id: 0n }, withdraw))).toBe(hex(vectors.withdrawParallel));
    expect(hex(vectors.withdrawParallel).slice(0, 64)).toBe('00000000000000000000016553f1780000000000000000000000000000000405');
  });

  it('known answer: upgrade carries no arguments', () => {
    const message = upgradeMessage({ nonce: sequentialNonce(3n), chain_id: 9n });
    expect(hex(message)).toBe('00000000000000030000000000000009000000000000001f7365745f70726f78795f7461726765745f776974685f7369676e6174757265');
    expect(hex(message)).toBe(hex(vectors.upgradeSequential));
  });

  it('known answer: owner calls, sequential and parallel', () => {
    expect(hex(ownerCallsMessage({ nonce: sequentialNonce(3n), chain_id: 0n }, [settleCall]))).toBe(hex(vectors.callsSequential));
    expect(hex(ownerCallsMessage({ nonce: parallelNonce(vectors.parallelNonceValue), chain_id: 0n }, [settleCall]))).toBe(hex(vectors.callsParallel));
    expect(hex(vectors.callsSequential).slice(0, 76)).toBe('00000000000000030000000000000000000000000000000e63616c6c5f636f6e747261637473');
  });

  it('owner digests: ledger SHA-256 and EVM Keccak-256 of the personal-sign payload', () => {
    expect(hex(ownerDigest(vectors.withdrawSequential, 'ledger'))).toBe('f91c61e7ca4f51bc54c60ae3f097944331208d9768b2e77a9928fc71fbac686b');
    expect(hex(ownerDigest(vectors.withdrawSequential, 'evm'))).toBe('0364694c0ae64bd0a19e42aeca9476a53200e420d1ab36c10ded194a4355f46e');
    expect(hex(ownerDigest(vectors.withdrawSequential, 'ledger'))).toBe(hex(nodeSha256(personal('Chain Signed Message:', vectors.withdrawSequential))));
    expect(hex(ownerDigest(vectors.withdrawSequential, 'evm'))).toBe(hex(vendoredKeccak256(personal('EVM Signed Message:', vectors.withdrawSequential))));
  });

  it.each([
    ['withdraw, parallel', vectors.withdrawParallel, '69ee1af830cebf907544e91c0bd1738b25c1a457087bf1f35db333bdff0cd991'],
    ['upgrade', vectors.upgradeSequential, 'bd31bf92740b9c933bdda4531f6c7a31551c45a92b8f151c82d72bc2f133f936'],
    ['calls, parallel', vectors.callsParallel, 'fb59206f8600b859c6c9a4f6da18ee91d22604de671ae638b7e2c1dee6892e86'],
  ])('known answer: ledger digest of %s', (_name, message, expected) => {
    expect(hex(ownerDigest(message, 'ledger'))).toBe(expected);
    expect(hex(nodeSha256(personal('Chain Signed Message:', message)))).toBe(expected);
  });

  it('an EVM-style owner signs a withdrawal that verifies against its padded address', () => {
    const digest = ownerDigest(vectors.withdrawSequential, 'evm');
    const signature = signDigest(digest, vectors.ownerKey);
    const owner = evmAddress(publicKeyOf(vectors.ownerKey));
    expect(owner).toBe('0x0000000000000000000000007e5f4552091a69125d5dfcb7b8c2659029395bdf');
    expect(verifySignature(signature, digest, owner, 'evm').ok).toBe(true);
    // A ledger-style digest of the same message is another digest: its signature does not pass as the EVM owner's.
    const ledgerSignature = signDigest(ownerDigest(vectors.withdrawSequential, 'ledger'), vectors.ownerKey);
    expect(verifySignature(ledgerSignature, digest, owner, 'evm').ok).toBe(false);
    // And an EVM owner address is never what a ledger-style recovery yields.
    expect(verifySignature(signature, digest, owner, 'ledger').ok).toBe(false);
  });

  it('bodies carry the nonce member and signature tag of the nonce kind', () => {
    const signature = new Uint8Array(64).fill(1);
    expect(withdrawBody(ids.tradeAccount, { nonce: sequentialNonce(3n), chain_id: 0n }, withdraw, signature)).toEqual({
      trade_account_id: ids.tradeAccount,
      signature: { Secp256k1: `0x${'01'.repeat(64)}` },
      nonce: '3',
      to: { Address: ids.referer },
      asset_id: ids.quoteAsset,
      amount: '250000000',
    });
    expect(withdrawBody(ids.tradeAccount, { nonce: parallelNonce(9n), chain_id: 0n }, withdraw, signature)).toMatchObject({
      signature: { TypedSecp256k1: `0x${'01'.repeat(64)}` },
      parallel_nonce: '9',
    });
    expect(upgradeBody(ids.tradeAccount, { nonce: sequentialNonce(3n), chain_id: 9n }, ids.child, signature)).toMatchObject({ implementation: ids.child, nonce: '3' });
    expect(ownerCallsBody(ids.tradeAccount, { nonce: sequentialNonce(3n), chain_id: 0n }, [settleCall], signature).calls).toEqual([
      {
        contract_id: ids.book,
        method: 'settle_balance',
        amount: '0',
        asset_id: ids.zero,
        gas: '18446744073709551615',
        call_data: `0x0000000000000001${'77'.repeat(32)}`,
      },
    ]);
  });

  it('owner actions (SettleBalance, Whitelist) sign as call_contracts over their calls', () => {
    const groups = [{ market_id: ids.market, market, turbo: true, actions: [{ kind: 'SettleBalance' as const, to: { ContractId: ids.tradeAccount } }, { kind: 'Whitelist' as const, account: { ContractId: ids.tradeAccount } }] }];
    const calls = ownerActionCalls(groups);
    expect(calls.map((call) => call.selector)).toEqual(['settle_balance', 'whitelist_account']);
    expect(hex(ownerCallsMessage({ nonce: sequentialNonce(3n), chain_id: 0n }, calls.slice(0, 1)))).toBe(hex(vectors.callsSequential));
    expect(ownerActionsBody(ids.tradeAccount, { nonce: sequentialNonce(3n), chain_id: 0n }, groups, new Uint8Array(64)).actions).toEqual([
      { market_id: ids.market, turbo: true, actions: [{ SettleBalance: { to: { ContractId: ids.tradeAccount } } }, { Whitelist: { account: { ContractId: ids.tradeAccount } } }] },
    ]);
  });
});
