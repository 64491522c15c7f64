// Deterministic ids: every asset, contract and market id is SHA-256 of the seed and a name,
// so two sandboxes started with the same --seed serve the same ids (tests and saved
// layouts can rely on them) and different seeds never collide.
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { b256FromBytes, type B256 } from '../shared/encoding/b256';

export function deriveId(seed: number, name: string): B256 {
  return b256FromBytes(sha256(utf8ToBytes(`ledger-sandbox/${seed}/${name}`)));
}
