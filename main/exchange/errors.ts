// Every failure of the exchange client as data with a stable code. The classes and what the
// caller may do about each:
//   SIGNATURE_INVALID        code 4000: the signature does not recover to the expected address.
//   ACCOUNT_NOT_FOUND        code 4002 (GET /v1/accounts turns it into "no account" data instead).
//   PARALLEL_NONCE_REJECTED  HTTP 400 on a request with a parallel nonce; details.retry tells
//                            'resync-and-retry-once' from 'never-retry' (shared/nonce classifies).
//   RATE_LIMITED             HTTP 429 or code 1003.
//   TOO_MANY_ACTIONS         code 7004.
//   PREFLIGHT_REFUSED        a signed write refused before submission ({code, message}); nonce not consumed.
//   ONCHAIN_REVERT           {message, reason, receipts}; the nonce was consumed; details.reason kept.
//   REQUEST_REFUSED          any other {code, message} refusal (reads, unsigned writes).
//   TIMEOUT, NETWORK_ERROR   a read that got no answer.
//   OUTCOME_UNKNOWN          a write whose request may have been applied but whose answer was lost;
//                            never retried here (the order service reconciles by looking it up).
//   SERVER_ERROR             HTTP 5xx to a read (a write's 5xx is OUTCOME_UNKNOWN).
//   BAD_RESPONSE             the answer does not match the schema; the message names the field.
import { classifyNonceRefusal } from '../../shared/nonce/refusals';
import { fail, type Failure } from '../../shared/result';
import { showValue } from '../../shared/schema';
import type { FailureStage } from './http';

export const EXCHANGE_ERRORS = {
  SIGNATURE_INVALID: 'SIGNATURE_INVALID',
  ACCOUNT_NOT_FOUND: 'ACCOUNT_NOT_FOUND',
  PARALLEL_NONCE_REJECTED: 'PARALLEL_NONCE_REJECTED',
  RATE_LIMITED: 'RATE_LIMITED',
  TOO_MANY_ACTIONS: 'TOO_MANY_ACTIONS',
  PREFLIGHT_REFUSED: 'PREFLIGHT_REFUSED',
  ONCHAIN_REVERT: 'ONCHAIN_REVERT',
  REQUEST_REFUSED: 'REQUEST_REFUSED',
  TIMEOUT: 'TIMEOUT',
  NETWORK_ERROR: 'NETWORK_ERROR',
  OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN',
  SERVER_ERROR: 'SERVER_ERROR',
  BAD_RESPONSE: 'BAD_RESPONSE',
  FAUCET_REFUSED: 'FAUCET_REFUSED',
  INVALID_QUERY: 'INVALID_QUERY',
} as const;

export type ExchangeErrorCode = (typeof EXCHANGE_ERRORS)[keyof typeof EXCHANGE_ERRORS];

/** Numeric codes the spec and the wire notes fix. */
export const EXCHANGE_NUMERIC_CODES = { signature: 4000, accountNotFound: 4002, rateLimited: 1003, tooManyActions: 7004 } as const;

/** What kind of request failed: it decides how a lost answer and a refusal are reported. */
export interface RequestKind {
  /** `METHOD /path` for messages. */
  readonly label: string;
  /** POST or PUT: an answer lost after sending leaves the outcome unknown. */
  readonly write: boolean;
  /** Carries a nonce (signed): a refusal is "pre-flight", a revert consumed the nonce. */
  readonly signed: boolean;
  /** Carries `parallel_nonce`: an HTTP 400 is a parallel-nonce rejection. */
  readonly parallelNonce: boolean;
}

const MAX_RECEIPTS_TEXT = 4_096;

export type RefusalBody = { readonly code: number; readonly message: string; readonly name?: string };
export type RevertBody = { readonly message: string; readonly reason: string; readonly receipts?: unknown };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{code, message}`: a refusal, whatever the HTTP status (the service sometimes answers 200). */
export function asRefusal(body: unknown): RefusalBody | null {
  if (!isRecord(body) || typeof body.code !== 'number' || typeof body.message !== 'string') return null;
  // `name`: the error's name where the service sends one (the spec's, e.g. MarketNotFound).
  return typeof body.name === 'string' ? { code: body.code, message: body.message, name: body.name } : { code: body.code, message: body.message };
}

/** `{message, reason, receipts}`: an on-chain revert. */
export function asRevert(body: unknown): RevertBody | null {
  if (!isRecord(body) || typeof body.reason !== 'string' || typeof body.message !== 'string') return null;
  return { message: body.message, reason: body.reason, receipts: body.receipts };
}

function receiptsText(receipts: unknown): string | null {
  if (receipts === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(receipts) ?? 'null';
  } catch {
    return null;
  }
  return text.length > MAX_RECEIPTS_TEXT ? `${text.slice(0, MAX_RECEIPTS_TEXT)}…` : text;
}

/** A transport failure (TIMEOUT / NETWORK_ERROR from http.ts), re-stated for the request kind. */
export function transportFailure(kind: RequestKind, failure: Failure): Failure {
  const stage = failure.details?.stage as FailureStage | undefined;
  if (kind.write && stage !== 'connect' && (failure.code === EXCHANGE_ERRORS.TIMEOUT || failure.code === EXCHANGE_ERRORS.NETWORK_ERROR)) {
    return fail(
      EXCHANGE_ERRORS.OUTCOME_UNKNOWN,
      `${kind.label}: the request was sent but its answer was lost (${failure.message}); it may have been applied. Not retried: look the result up before sending again.`,
      { ...failure.details, transport: failure.code },
    );
  }
  return failure;
}

/**
 * The failure an HTTP answer stands for, or null when it is a success to be parsed by the
 * endpoint's schema. Order matters: rate limiting and 5xx first (their bodies are not ours to
 * trust), then the numeric codes the spec fixes, then nonce rejections, reverts and refusals.
 */
export function responseFailure(kind: RequestKind, status: number, body: unknown): Failure | null {
  const refusal = asRefusal(body);
  const revert = refusal === null ? asRevert(body) : null;
  const exchangeCode = refusal?.code ?? null;
  const serverText = refusal?.message ?? revert?.message ?? (isRecord(body) && typeof body.message === 'string' ? body.message : null);
  const said = serverText === null ? '' : `: ${serverText}`;
  const base: Record<string, string | number | null> = { status, exchangeCode };
  if (refusal?.name !== undefined) base.exchangeName = refusal.name;
  const codeText = refusal === null ? '' : refusal.name === undefined ? `code ${refusal.code}` : `code ${refusal.code} ${refusal.name}`;

  if (status === 429 || exchangeCode === EXCHANGE_NUMERIC_CODES.rateLimited) {
    return fail(EXCHANGE_ERRORS.RATE_LIMITED, `${kind.label}: rate limited by the exchange (HTTP ${status})${said}`, base);
  }
  if (status >= 500 && kind.write) {
    // A gateway that lost the answer, or an exchange that failed after executing, answers the same
    // as one that applied nothing: a signed write answered 5xx is looked up, never believed.
    return fail(EXCHANGE_ERRORS.OUTCOME_UNKNOWN, `${kind.label}: the exchange answered HTTP ${status}${said}; the request may have been applied. Not retried: look the result up before sending again.`, base);
  }
  if (status >= 500) return fail(EXCHANGE_ERRORS.SERVER_ERROR, `${kind.label}: the exchange failed (HTTP ${status})${said}`, base);
  if (exchangeCode === EXCHANGE_NUMERIC_CODES.signature) {
    return fail(EXCHANGE_ERRORS.SIGNATURE_INVALID, `${kind.label}: the signature does not recover to the expected address (code 4000)${said}`, { ...base, nonceConsumed: false });
  }
  if (exchangeCode === EXCHANGE_NUMERIC_CODES.accountNotFound) {
    return fail(EXCHANGE_ERRORS.ACCOUNT_NOT_FOUND, `${kind.label}: no trading account (code 4002)${said}`, base);
  }
  if (exchangeCode === EXCHANGE_NUMERIC_CODES.tooManyActions) {
    return fail(EXCHANGE_ERRORS.TOO_MANY_ACTIONS, `${kind.label}: too many actions in the batch (code 7004)${said}`, { ...base, nonceConsumed: false });
  }
  if (kind.parallelNonce && status === 400 && serverText !== null) {
    const nonceClass = classifyNonceRefusal(serverText);
    if (nonceClass === 'RESYNC_WINDOW_AND_RETRY_ONCE' || nonceClass === 'ALREADY_USED_DO_NOT_RETRY') {
      return fail(EXCHANGE_ERRORS.PARALLEL_NONCE_REJECTED, `${kind.label}: the parallel nonce was rejected (HTTP 400)${said}`, {
        ...base,
        retry: nonceClass === 'RESYNC_WINDOW_AND_RETRY_ONCE' ? 'resync-and-retry-once' : 'never-retry',
        nonceRefusal: nonceClass,
        nonceConsumed: false,
      });
    }
  }
  if (revert !== null) {
    return fail(EXCHANGE_ERRORS.ONCHAIN_REVERT, `${kind.label}: the transaction reverted on chain (${revert.reason}): ${revert.message}`, {
      status,
      reason: revert.reason,
      receipts: receiptsText(revert.receipts),
      nonceConsumed: true,
    });
  }
  if (refusal !== null) {
    const nonceClass = classifyNonceRefusal(refusal.message);
    const nonceDetail: Record<string, string> = nonceClass === 'NOT_A_NONCE_REFUSAL' ? {} : { nonceRefusal: nonceClass };
    if (kind.signed) {
      return fail(EXCHANGE_ERRORS.PREFLIGHT_REFUSED, `${kind.label}: refused before submission (${codeText}): ${refusal.message}`, { ...base, ...nonceDetail, nonceConsumed: false });
    }
    return fail(EXCHANGE_ERRORS.REQUEST_REFUSED, `${kind.label}: refused (HTTP ${status}, ${codeText}): ${refusal.message}`, { ...base, ...nonceDetail });
  }
  if (status < 200 || status >= 300) {
    return fail(EXCHANGE_ERRORS.REQUEST_REFUSED, `${kind.label}: refused (HTTP ${status}) with a body that is not {code, message}: ${showValue(body)}`, base);
  }
  return null;
}
