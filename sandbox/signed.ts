// What every signed request shares: the nonce check before anything runs, the nonce
// consumption after the transaction (also after a revert: an on-chain revert uses the nonce;
// a pre-flight refusal does not), and the two result bodies.
import type { NonceChoice } from '../shared/protocol/nonce-choice';
import type { SandboxApp } from './app-types';
import { nowSeconds } from './clock';
import { ErrorCode, refusal, type Refusal } from './http/errors';
import { json, type Reply } from './http/reply';
import type { ContractAccount } from './ledger/accounts';
import { consumeParallelNonce, parallelNonceProblem } from './ledger/nonces';
import type { Revert } from './ledger/revert';

export function nonceProblem(app: SandboxApp, account: ContractAccount, nonce: NonceChoice): Refusal | undefined {
  if (nonce.kind === 'sequential') {
    if (nonce.value === account.nonce) return undefined;
    return refusal(ErrorCode.NONCE_MISMATCH, `Nonce in the request (${nonce.value}) does not match the account nonce (${account.nonce})`);
  }
  const problem = parallelNonceProblem(account, nonce.value, nowSeconds(app.clock));
  return problem === undefined ? undefined : refusal(ErrorCode.PARALLEL_NONCE, problem, 400);
}

export function consumeNonce(app: SandboxApp, account: ContractAccount, nonce: NonceChoice): void {
  if (nonce.kind === 'sequential') account.nonce += 1n;
  else consumeParallelNonce(account, nonce.value);
  account.lastModification = Number(nowSeconds(app.clock));
  app.ledger.changes.nonces.add(account.id);
  app.ledger.publish();
}

export function revertReply(outcome: Revert, txId: string, contractId: string): Reply {
  return json(
    {
      message: `Transaction ${txId} reverted: ${outcome.reason}: ${outcome.message}`,
      reason: outcome.reason,
      receipts: [{ type: 'Revert', contract_id: contractId, reason: outcome.reason, tx_id: txId }],
      tx_id: txId,
    },
    400,
  );
}
