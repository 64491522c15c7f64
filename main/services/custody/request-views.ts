// Pending owner requests as the renderer shows them: the words, every field exactly as the
// offline signer prints it, the nonce, the times, the request file and its QR codes.
import type { OwnerNonceView, OwnerRequestView } from '../../../shared/ipc/views';
import { formatUnixSeconds, requestDisplayLines } from '../../../shared/offline/describe';
import { requestHash, type OfflineNonce, type OfflineRequest } from '../../../shared/offline/request-format';
import { verifyParsedRequest } from '../../../shared/offline/verify-request';
import type { CarriedDocument } from './documents';
import type { PendingRecord } from './pending-store';

export function nonceView(nonce: OfflineNonce): OwnerNonceView {
  if (nonce.kind === 'sequential') return { kind: 'sequential', value: nonce.value };
  return { kind: 'parallel', value: nonce.value, lane: nonce.lane, wordPosition: nonce.word_position, bitPosition: nonce.bit_position, expiry: nonce.expiry };
}

export function requestFileName(request: OfflineRequest): string {
  return `${request.kind}-request-${request.request_id.slice(0, 8)}.json`;
}

function warningsOf(request: OfflineRequest, nowSeconds: bigint): string[] {
  const verified = verifyParsedRequest(request, { nowSeconds });
  const warnings = verified.ok ? [...verified.value.warnings] : [];
  if (request.nonce.kind === 'sequential') {
    warnings.push(
      `Any other owner action or sequential-nonce order of this account before the signature is imported uses nonce ${request.nonce.value} ` +
        'first and makes this request unusable; then cancel it and prepare a new one.',
    );
  } else {
    warnings.push(`The ledger refuses this nonce after ${formatUnixSeconds(request.nonce.expiry)}; the request itself expires at ${formatUnixSeconds(request.expires_at)}.`);
  }
  return warnings;
}

export function pendingView(record: PendingRecord, nowSeconds: bigint, carried: CarriedDocument): OwnerRequestView {
  const { request } = record;
  const hash = requestHash(request);
  const expired = nowSeconds >= request.expires_at && record.state === 'awaiting-signature';
  return {
    kind: record.kind,
    state: expired ? 'expired' : record.state,
    networkId: record.networkId,
    owner: record.owner,
    tradeAccountId: request.trade_account_id,
    requestId: request.request_id,
    requestHash: hash,
    description: request.description,
    lines: requestDisplayLines(request, hash),
    nonce: nonceView(request.nonce),
    createdAt: request.created_at,
    expiresAt: request.expires_at,
    warnings: warningsOf(request, nowSeconds),
    fileName: requestFileName(request),
    fileText: carried.fileText,
    qrPayloads: carried.qrPayloads,
    qrImages: carried.qrImages,
    detail: expired ? `Expired at ${formatUnixSeconds(request.expires_at)}: a signature for it is refused. Cancel it and prepare a new one.` : record.detail,
  };
}
