// One contract call, the unit of every signed batch (wire notes, "Session actions"):
// contract_id(32) ‖ selector ‖ u64 forwarded_amount ‖ forwarded_asset_id(32) ‖ u64 gas ‖ Option<call_data>
// where Some(call_data) is `u64 1 ‖ u64 len ‖ data`.
import { ZERO_B256, type B256 } from '../encoding/b256';
import { U64_MAX } from '../encoding/decimal';
import { ByteWriter } from '../encoding/byte-writer';

/** Gas is always u64::MAX: the sponsoring executor bounds it, not the signer. */
export const UNLIMITED_GAS = U64_MAX;

export interface ContractCall {
  readonly contract_id: B256;
  /** Function name; encoded as u64 length ‖ UTF-8 bytes. */
  readonly selector: string;
  readonly forwarded_amount: bigint;
  readonly forwarded_asset_id: B256;
  readonly gas: bigint;
  /** Encoded arguments, or null for a call without arguments. */
  readonly call_data: Uint8Array | null;
}

export function makeCall(contractId: B256, selector: string, callData: Uint8Array | null, forwarded?: { amount: bigint; asset: B256 }): ContractCall {
  return {
    contract_id: contractId,
    selector,
    forwarded_amount: forwarded?.amount ?? 0n,
    forwarded_asset_id: forwarded?.asset ?? ZERO_B256,
    gas: UNLIMITED_GAS,
    call_data: callData,
  };
}

export function writeCall(writer: ByteWriter, call: ContractCall): void {
  writer.b256(call.contract_id).selector(call.selector).u64(call.forwarded_amount).b256(call.forwarded_asset_id).u64(call.gas);
  writer.option(call.call_data, (inner, data) => inner.u64(BigInt(data.length)).raw(data));
}

/** `u64 n ‖ call…`: the call list as it appears after the nonce of a batch. */
export function writeCallList(writer: ByteWriter, calls: readonly ContractCall[]): void {
  writer.vec(calls, writeCall);
}

export function encodeCall(call: ContractCall): Uint8Array {
  const writer = new ByteWriter();
  writeCall(writer, call);
  return writer.finish();
}
