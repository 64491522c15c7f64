// Reading the few owner calls the sandbox executes. Arguments are recognised by re-encoding
// the candidates with shared/encoding's ByteWriter and comparing bytes, so no second decoder
// of the wire format exists here.
import { b256FromBytes, type B256 } from '../../shared/encoding/b256';
import { encodeBytes } from '../../shared/encoding/byte-writer';
import { bytesEqual } from '../../shared/encoding/hex';
import type { Identity } from '../../shared/encoding/identity';

/** Call data that is exactly one B256 (cancel_order's order id). */
export function b256Argument(data: Uint8Array | null): B256 | undefined {
  return data !== null && data.length === 32 ? b256FromBytes(data) : undefined;
}

/** Call data that is exactly one Identity (u64 discriminant ‖ 32 bytes). */
export function identityArgument(data: Uint8Array | null): Identity | undefined {
  if (data === null || data.length !== 40) return undefined;
  const id = b256FromBytes(data.subarray(8));
  const candidates: Identity[] = [{ Address: id }, { ContractId: id }];
  return candidates.find((candidate) => bytesEqual(encodeBytes((writer) => writer.identity(candidate)), data));
}
