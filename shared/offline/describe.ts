// What a request does, in words. The words are rebuilt from the fields on both machines and
// compared with the stated ones, so the sentence a person approves cannot say something other
// than what the bytes do. Ids are printed whole: a shortened id is what address-poisoning
// attacks count on (a look-alike that matches the first and last few digits).
import { formatUnits } from '../encoding/units';
import { formatIdentity } from '../encoding/identity';
import { ownerStyleOf } from '../crypto/address';
import { EVM_PERSONAL_SIGN_TEXT, LEDGER_PERSONAL_SIGN_TEXT } from '../crypto/digest';
import type { OfflineContractCall, OfflineNonce, OfflineOwnerCall, OfflineRequest, OfflineSession, OfflineWithdraw } from './request-format';

/** Largest unix second a Date can show (8.64e15 ms). */
const LARGEST_DATE_SECONDS = 8_640_000_000_000n;

/** `2025-01-31T00:00:00Z`, or the bare number when it is beyond the calendar range. */
export function formatUnixSeconds(seconds: bigint): string {
  if (seconds < 0n || seconds > LARGEST_DATE_SECONDS) return `unix ${seconds}`;
  return new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z');
}

export function describeWithdraw(tradeAccountId: string, withdraw: OfflineWithdraw): string {
  const amount = formatUnits(withdraw.amount, withdraw.asset_decimals);
  return `Withdraw ${amount} ${withdraw.asset_symbol} (asset ${withdraw.asset_id}) from trade account ${tradeAccountId} to ${formatIdentity(withdraw.to)}`;
}

export function describeSession(tradeAccountId: string, session: OfflineSession): string {
  const count = session.contract_ids.length;
  return (
    `Let session key ${session.session_address} trade for trade account ${tradeAccountId} ` +
    `on ${count} contract${count === 1 ? '' : 's'} until ${formatUnixSeconds(session.expiry)} (expiry ${session.expiry})`
  );
}

/**
 * Owner method in words: the endpoint and, call by call, the function and the contract it runs on
 * (the signed part); the method name is the online terminal's and is marked as such.
 */
export function describeOwnerCall(tradeAccountId: string, call: OfflineOwnerCall): string {
  const endpoint = `POST /v1/accounts/${call.endpoint}`;
  if (call.endpoint === 'upgrade') {
    return `Upgrade trade account ${tradeAccountId} to the implementation the exchange publishes (${endpoint}; method "${call.method}" per the online terminal)`;
  }
  const count = call.calls.length;
  const calls = call.calls.map((entry) => `${entry.selector} on ${entry.contract_id}`).join(', ');
  return `Owner ${count === 1 ? 'call' : `calls (${count})`} for trade account ${tradeAccountId}: ${calls} (${endpoint}; method "${call.method}" per the online terminal)`;
}

/** The description the fields imply; a request's stated description must equal it. */
export function describeRequestFields(request: OfflineRequest): string {
  if (request.kind === 'withdraw') return describeWithdraw(request.trade_account_id, request.withdraw);
  if (request.kind === 'owner-call') return describeOwnerCall(request.trade_account_id, request.owner_call);
  return describeSession(request.trade_account_id, request.session);
}

function callLines(call: OfflineContractCall, index: number, count: number): DisplayLine[] {
  const label = `Call ${index + 1}/${count}`;
  const data = call.call_data === null ? 'none' : `${call.call_data} (${(call.call_data.length - 2) / 2} bytes)`;
  return [
    { label: `${label} contract`, value: call.contract_id },
    { label: `${label} function`, value: call.selector },
    { label: `${label} forwards`, value: call.forwarded_amount === 0n ? 'nothing' : `${call.forwarded_amount} raw units of asset ${call.forwarded_asset_id}` },
    { label: `${label} gas`, value: call.gas.toString() },
    { label: `${label} call data`, value: data },
  ];
}

function ownerCallLines(call: OfflineOwnerCall): DisplayLine[] {
  const lines: DisplayLine[] = [
    { label: 'Endpoint', value: `POST /v1/accounts/${call.endpoint}` },
    { label: 'Owner method', value: `${call.method} (stated by the online terminal; the calls below are what is signed)` },
    ...call.parameters.map((parameter) => ({ label: `Parameter ${parameter.name}`, value: `${parameter.value} (stated by the online terminal, not signed)` })),
  ];
  if (call.implementation !== null) {
    lines.push({ label: 'Implementation', value: `${call.implementation} (not signed: the exchange accepts only the implementation its oracle publishes)` });
  }
  if (call.calls.length === 0) lines.push({ label: 'Calls', value: 'none (the upgrade message carries no argument)' });
  call.calls.forEach((entry, index) => lines.push(...callLines(entry, index, call.calls.length)));
  return lines;
}

export function describeNonce(nonce: OfflineNonce): string {
  if (nonce.kind === 'sequential') return `sequential ${nonce.value}`;
  return (
    `parallel ${nonce.value} (lane ${nonce.lane}, word ${nonce.word_position}, bit ${nonce.bit_position}, ` +
    `unusable after ${formatUnixSeconds(nonce.expiry)} = ${nonce.expiry})`
  );
}

export interface DisplayLine {
  readonly label: string;
  readonly value: string;
}

/**
 * Every field of the request, labelled, in the order a person should read them. The signer prints
 * exactly these lines; nothing signed is left out (the message and digest are shown in full).
 */
export function requestDisplayLines(request: OfflineRequest, hash: string): DisplayLine[] {
  const lines: DisplayLine[] = [
    { label: 'What it does', value: request.description },
    { label: 'Kind', value: request.kind },
    { label: 'Network', value: `${request.network} (chain id ${request.chain_id})` },
    { label: 'Owner', value: `${request.owner.address} (${request.owner.style} style; the address implies ${ownerStyleOf(request.owner.address)})` },
    { label: 'Trade account', value: request.trade_account_id },
  ];
  if (request.kind === 'withdraw') {
    const withdraw = request.withdraw;
    lines.push(
      { label: 'Amount', value: `${withdraw.amount} raw units = ${formatUnits(withdraw.amount, withdraw.asset_decimals)} ${withdraw.asset_symbol} (${withdraw.asset_decimals} decimals)` },
      { label: 'Asset id', value: withdraw.asset_id },
      { label: 'Destination', value: formatIdentity(withdraw.to) },
    );
  } else if (request.kind === 'owner-call') {
    lines.push(...ownerCallLines(request.owner_call));
  } else {
    const session = request.session;
    lines.push(
      { label: 'Session key', value: session.session_address },
      { label: 'Session expiry', value: `${formatUnixSeconds(session.expiry)} (${session.expiry})` },
      ...session.contract_ids.map((id, index) => ({ label: `Contract ${index + 1}/${session.contract_ids.length}`, value: id })),
    );
  }
  const text = request.owner.style === 'evm' ? EVM_PERSONAL_SIGN_TEXT : LEDGER_PERSONAL_SIGN_TEXT;
  const hashName = request.owner.style === 'evm' ? 'Keccak-256' : 'SHA-256';
  lines.push(
    { label: 'Nonce', value: describeNonce(request.nonce) },
    { label: 'Created', value: `${formatUnixSeconds(request.created_at)} (${request.created_at})` },
    { label: 'Expires', value: `${formatUnixSeconds(request.expires_at)} (${request.expires_at})` },
    { label: 'Message', value: `${request.message} (${(request.message.length - 2) / 2} bytes)` },
    { label: 'Digest', value: `${request.digest} (${hashName} personal-sign, "${text}")` },
    { label: 'Request id', value: request.request_id },
    { label: 'Request hash', value: hash },
  );
  return lines;
}

/** Lines as text, labels aligned. */
export function formatDisplayLines(lines: readonly DisplayLine[]): string {
  const width = Math.max(...lines.map((line) => line.label.length));
  return lines.map((line) => `  ${`${line.label}:`.padEnd(width + 1)} ${line.value}`).join('\n');
}
